// Runs the studies off the main thread, with the studies' own wasm module (studies-web/,
// built beside the page's by Trunk): the studies view starts this worker when a reader
// first opens it, so nobody else downloads the studies, and a study's run (seconds of
// simulation over its seeds) never blocks the page. Cancelling a run ends the worker.
//
// Protocol: the page posts {id, kind: 'list', lang} or {id, kind: 'run', study, seeds, lang};
// the worker answers {id, ok: true, value} or {id, ok: false, error: {message, field, value, allowed, plain}}.

import init, * as wasm from '../../retrystorm-studies-web.js';
import { errorMessage } from '../lib/jobs.js';

const ready = init({ module_or_path: new URL('../../retrystorm-studies-web_bg.wasm', import.meta.url) });

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const { id, kind, study, seeds, lang } = event.data;
  try {
    await ready;
    const value = kind === 'list' ? wasm.studyList(lang) : wasm.studyRun(study, seeds || undefined, lang);
    self.postMessage({ id, ok: true, value });
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorMessage(e) });
  }
};
