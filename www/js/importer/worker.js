// Reads a library's own retry configuration off the main thread, with the importer's own
// wasm module (import-web/, built beside the page's by Trunk): the paste box starts this
// worker when a reader first opens it, so nobody else downloads the importer.
//
// Protocol: the page posts {id, kind: 'libraries'}, {id, kind: 'read', text, from, instance, lang}
// or {id, kind: 'write', client, to, name, lang} or {id, kind: 'classic', client, name, lang};
// the worker answers {id, ok: true, value} or {id, ok: false, error: {message, field, value, allowed, plain}}.

import init, * as wasm from '../../retrystorm-import-web.js';
import { errorMessage } from '../lib/jobs.js';

const ready = init({ module_or_path: new URL('../../retrystorm-import-web_bg.wasm', import.meta.url) });

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const { id, kind, text, from, instance, client, to, name, lang } = event.data;
  try {
    await ready;
    const value =
      kind === 'libraries'
        ? wasm.importLibraries()
        : kind === 'write'
          ? wasm.exportPolicy(client, to, name, lang)
          : kind === 'classic'
            ? wasm.classicRow(client, name, lang)
            : wasm.importConfig(text, from || undefined, instance || undefined, lang);
    self.postMessage({ id, ok: true, value });
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorMessage(e) });
  }
};
