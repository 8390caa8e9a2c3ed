// Boot: waits for the wasm module (loaded by Trunk's loader), then builds the page shell
// and the two model apps and restores the state from the URL. A wasm that cannot load
// gets a visible message instead of a blank page.

import { ClassicApp } from './classic/app.js';
import { ClusterApp } from './cluster/app.js';
import { $, banner } from './lib/dom.js';
import { setPlainWords } from './lib/fields.js';
import { initialLang, lang, setLang, t } from './lib/i18n.js';
import { readLocation } from './lib/urlstate.js';
import { Shell } from './shell.js';

/** @typedef {import('./lib/jobs.js').Wasm} Wasm */

const LOAD_TIMEOUT_MS = 20_000;

/** @param {string} reason */
function failLoad(reason) {
  $('loading').hidden = true;
  document.body.classList.remove('loading');
  // The controls stay disabled (nothing could run them); the first paint's table stays.
  banner(t('shell.loadFailed', { reason }));
}

/**
 * The shell's controls (model switch, language, copy buttons) are disabled in index.html
 * until the engine is ready, so while the wasm loads nothing looks live and does nothing.
 */
function enableControls() {
  for (const node of document.querySelectorAll('header.top [disabled]')) node.removeAttribute('disabled');
}

/**
 * Resolves with Trunk's `window.wasmBindings` once the wasm module is initialised.
 * @returns {Promise<Wasm>}
 */
function waitForWasm() {
  return new Promise((resolve, reject) => {
    if (typeof WebAssembly !== 'object') {
      reject(new Error('this browser has no WebAssembly'));
      return;
    }
    if (window.wasmBindings) {
      resolve(window.wasmBindings);
      return;
    }
    addEventListener('TrunkApplicationStarted', () => resolve(window.wasmBindings), { once: true });
    // Trunk's loader is a module script with a top-level await: a missing or broken wasm
    // file surfaces as an unhandled rejection, caught by the inline script in index.html
    // (it may happen before this module runs).
    const started = performance.now();
    const poll = setInterval(() => {
      if (window.wasmBindings) {
        clearInterval(poll);
        resolve(window.wasmBindings);
      } else if (window.__bootError || performance.now() - started > LOAD_TIMEOUT_MS) {
        clearInterval(poll);
        const e = window.__bootError;
        reject(e ? (e instanceof Error ? e : new Error(String(e))) : new Error('timed out'));
      }
    }, 50);
  });
}

/**
 * An embedded page tells its host how tall it is, whenever that changes, with the
 * message `{type: 'retrystorm:height', height, width, ready}` (CSS pixels; docs/playground.md,
 * "Embed"): the snippet's listener sizes the iframe by `height`, so nothing scrolls inside
 * it, and a host without the listener keeps the snippet's fixed height. The embed dialog's
 * preview measures that fixed height from the same message: `width` is the width it was
 * laid out at, and `ready` says the model's run is shown and any ensemble or sweep the link
 * asks for is finished (before that, the height is still changing).
 * @returns {() => void} marks the page ready (the shell calls it when the run is shown)
 */
function postHeight() {
  if (window.parent === window) return () => {};
  let last = '';
  let shown = false;
  const send = () => {
    const root = document.documentElement;
    const height = Math.ceil(root.getBoundingClientRect().height);
    const width = root.clientWidth;
    // Ready once the run is shown and no ensemble or sweep is still adding to the page:
    // their panels mark the body `data-*="running"` until done (seeds/panel.js, sweep/panel.js).
    const ready = shown && !Object.values(document.body.dataset).includes('running');
    const key = `${height} ${width} ${ready}`;
    if (key === last) return;
    last = key;
    window.parent.postMessage({ type: 'retrystorm:height', height, width, ready }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  new MutationObserver(send).observe(document.body, { attributes: true });
  send();
  return () => {
    shown = true;
    send();
  };
}

async function main() {
  const { embed, theme } = readLocation();
  // `theme=light|dark` overrides the reader's `prefers-color-scheme` (style.css).
  if (theme) document.documentElement.dataset.theme = theme;
  setLang(initialLang());
  // The (still disabled) language switch shows the page's language while the wasm loads.
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById('lang-select'));
  if (select) select.value = lang();
  let shown = () => {};
  if (embed) {
    document.body.classList.add('embed', `embed-${embed}`);
    shown = postHeight();
  }
  /** @type {Wasm} */
  let wasm;
  try {
    wasm = await waitForWasm();
  } catch (e) {
    failLoad(e instanceof Error ? e.message : String(e));
    return;
  }
  $('version').textContent = `v${wasm.version()}`;
  // A problem at a field in the engine's plain words, the field called by its label.
  setPlainWords((p, label) =>
    wasm.plainMessage(p.field, p.value ?? '', p.allowed ?? '', p.kind ?? 'range', label, lang()),
  );
  $('loading').hidden = true;
  $('first-paint')?.remove();
  $('app').hidden = false;
  enableControls();
  document.body.classList.remove('loading');
  /** @type {{classic?: ClassicApp, cluster?: ClusterApp}} */
  const apps = {};
  const shell = new Shell(wasm, embed, (hooks) => {
    apps.classic = new ClassicApp($('classic-root'), hooks);
    apps.cluster = new ClusterApp($('cluster-root'), hooks);
    return { classic: apps.classic, cluster: apps.cluster };
  });
  shell.onShown = shown;
  // For the console and the end-to-end tests.
  window.playground = {
    shell,
    classic: /** @type {ClassicApp} */ (apps.classic),
    cluster: /** @type {ClusterApp} */ (apps.cluster),
  };
  shell.restore();
}

main();
