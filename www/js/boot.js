// Boot: waits for the wasm module (loaded by Trunk's loader), restores the state from
// the URL (falling back to the engine's defaults with a visible message when a link
// cannot be read), and wires the editor, the runner, the chart and the exports.
//
// The page keeps one scenario per model (the classic one here, the cluster one in
// js/cluster/app.js, which has its own editor, worker and charts) and the model on
// screen, which is what the share link carries.

import { $, el, banner } from './dom.js';
import { readLocation, writeLocation, urlFor } from './urlstate.js';
import { ClassicEditor } from './forms.js';
import { ChartView } from './chart.js';
import { Runner } from './runner.js';
import { renderTable, renderVerdicts } from './results.js';
import { bindExports } from './export.js';
import { ClusterApp } from './cluster/app.js';

const LOAD_TIMEOUT_MS = 20_000;

function failLoad(reason) {
  $('loading').hidden = true;
  document.body.classList.remove('loading');
  banner(`The simulator could not be loaded (${reason}). ` +
    'It needs a browser with WebAssembly and JavaScript modules, served over http(s). Reloading may help.');
}

/** Resolves with Trunk's `window.wasmBindings` once the wasm module is initialised. */
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
        reject(e ? (e.message ? e : new Error(String(e))) : new Error('timed out'));
      }
    }, 50);
  });
}

class App {
  constructor(wasm, embed) {
    this.wasm = wasm;
    this.embed = embed;
    this.model = 'classic';
    this.scenarios = { classic: wasm.defaultScenario(), cluster: null };
    this.view = { hidden: [] };
    this.output = null;
    this.colors = wasm.seriesColors(12);
    this.runner = new Runner(wasm, (busy) => { $('spinner').hidden = !busy; });
    this.chart = new ChartView(wasm, () => this.view.hidden, (hidden) => {
      this.view.hidden = hidden;
      this.syncUrl({ commit: false, viewOnly: true });
    });
    this.editor = new ClassicEditor(this);
    this.cluster = new ClusterApp(wasm, {
      root: $('cluster-root'),
      embed,
      onChange: (commit) => this.syncUrl({ commit }),
      openUrl: () => urlFor(this.stateText()),
    });
    for (const radio of document.querySelectorAll('input[name="model"]')) {
      radio.addEventListener('change', () => {
        if (radio.checked) this.setModel(radio.value, { commit: true });
      });
    }
    this.presets = wasm.bundledScenarios();
    $('cancel-run').addEventListener('click', () => this.runner.cancel());
    bindExports(this);
    this.renderPresets();
    addEventListener('popstate', () => this.restore({ fromHistory: true }));
  }

  get cfg() { return this.scenarios.classic; }
  set cfg(value) { this.scenarios.classic = value; }

  /** The share-link text of the current state. */
  stateText() {
    const state = { model: this.model, classic: this.scenarios.classic, view: this.view };
    // The cluster scenario travels once the cluster model has been shown or loaded,
    // with the scenario pinned as A when comparing.
    if (this.cluster.cfg) state.cluster = this.cluster.cfg;
    if (this.cluster.cfg && this.cluster.pinnedCfg) state.cluster_a = this.cluster.pinnedCfg;
    return this.wasm.encodeState(state);
  }

  /** Loads the state from the URL: a bad link shows its problem and the defaults. */
  restore({ fromHistory = false } = {}) {
    const { text } = readLocation();
    let state = null;
    if (text) {
      try {
        state = this.wasm.decodeState(text);
        banner(null);
      } catch (e) {
        banner(`This link could not be read: ${e.message}. Showing the article's defaults instead.`);
      }
    } else if (!fromHistory) {
      banner(null);
    }
    this.model = state?.model === 'cluster' ? 'cluster' : 'classic';
    this.scenarios = {
      classic: state?.classic ?? this.wasm.defaultScenario(),
      cluster: state?.cluster ?? null,
    };
    this.view = { hidden: state?.view?.hidden ?? [] };
    // The entry on screen holds exactly this (committed) state.
    this.entryText = text;
    this.entryDirty = false;
    this.editor.render();
    this.update();
    // The cluster scenario: the link's, else (once shown) the first cluster preset.
    if (this.scenarios.cluster || this.model === 'cluster') {
      this.cluster.load(this.scenarios.cluster, { pinned: state?.cluster_a ?? null });
    }
    else this.cluster.cfg = null;
    this.setModel(this.model);
  }

  /** Shows the classic or the cluster model; each keeps its own scenario. */
  setModel(model, { commit = false } = {}) {
    this.model = model === 'cluster' ? 'cluster' : 'classic';
    document.body.classList.toggle('model-cluster', this.model === 'cluster');
    for (const radio of document.querySelectorAll('input[name="model"]')) radio.checked = radio.value === this.model;
    this.cluster.setActive(this.model === 'cluster');
    if (commit) this.syncUrl({ commit: true });
  }

  /** Called by the editor after every edit; `commit` adds a history entry. */
  changed({ commit }) {
    this.update();
    this.syncUrl({ commit });
  }

  /**
   * Writes the state to the URL. The first edit after a committed state pushes a new
   * history entry; further typing replaces it; a commit (blur, select, button) seals it.
   * So back/forward step through committed states. View-only changes (`viewOnly`, e.g.
   * hiding a series) replace the entry and never add one.
   */
  syncUrl({ commit, viewOnly = false }) {
    if (this.embed) return;
    let text;
    try {
      text = this.stateText();
    } catch (e) {
      return; // A half-typed value the codec cannot hold yet: keep the last URL.
    }
    if (text === this.entryText) {
      if (commit) this.entryDirty = false;
      return;
    }
    writeLocation(text, { push: !viewOnly && !this.entryDirty });
    this.entryText = text;
    if (!viewOnly) this.entryDirty = !commit;
  }

  /** Validates and, when valid, runs and redraws; invalid edits keep the last results. */
  async update() {
    const cfg = structuredClone(this.cfg);
    const key = JSON.stringify(cfg);
    // A commit (blur) after typing repeats the last request: don't run it twice. This
    // also keeps a click on Cancel (which blurs the field first) from restarting the run.
    if (key === this.lastKey) return;
    this.lastKey = key;
    const problems = this.wasm.validate(cfg);
    this.editor.showProblems(problems);
    $('stale').hidden = problems.length === 0;
    if (problems.length) return;
    const request = { model: 'classic', cfg, seed: cfg.seed };
    try {
      const run = await this.runner.run({ ...request, kind: 'run' });
      this.show(run.result, run.ms);
      $('verdicts').classList.add('pending');
      const verdicts = await this.runner.run({ ...request, kind: 'verdicts' });
      renderVerdicts(verdicts.result);
      $('verdicts').classList.remove('pending');
    } catch (e) {
      if (e && (e.cancelled || e.superseded)) {
        if (e.cancelled) {
          $('stale').hidden = false;
          this.lastKey = null; // the same scenario may be asked for again
        }
        return;
      }
      this.editor.showProblems([{ field: e.field || '', message: e.message }]);
      $('stale').hidden = false;
    }
  }

  show(output, ms) {
    this.output = output;
    renderTable(this.wasm.resultsTable(output));
    const drawMs = this.chart.show(output);
    const timing = `run ${ms.toFixed(1)} ms · draw ${drawMs.toFixed(1)} ms`;
    $('timing').textContent = timing;
    $('timing').dataset.timing = timing;
    document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
  }

  renderPresets() {
    const buttons = this.presets.map((p) => {
      const classic = p.model === 'classic';
      return el('button', {
        type: 'button', 'data-preset': p.id, text: p.title,
        title: classic ? p.description : `${p.description} (cluster model)`,
        onclick: () => {
          if (!classic) {
            // A cluster preset switches to the cluster model, in one history entry.
            this.cluster.loadPreset(p, { notify: false });
            this.setModel('cluster', { commit: true });
            return;
          }
          this.scenarios.classic = structuredClone(p.scenario);
          this.view.hidden = [];
          $('preset-desc').textContent = p.description;
          this.editor.render();
          this.changed({ commit: true });
        },
      });
    });
    $('presets').replaceChildren(...buttons);
  }
}

async function main() {
  const { embed } = readLocation();
  if (embed) {
    document.body.classList.add('embed', `embed-${embed}`);
  }
  let wasm;
  try {
    wasm = await waitForWasm();
  } catch (e) {
    failLoad(e && e.message ? e.message : String(e));
    return;
  }
  $('version').textContent = `v${wasm.version()}`;
  $('loading').hidden = true;
  $('app').hidden = false;
  document.body.classList.remove('loading');
  const app = new App(wasm, embed);
  window.playground = app; // for the console and the end-to-end tests
  if (embed) {
    const open = $('open-playground');
    open.href = urlFor(readLocation().text);
  }
  app.restore();
}

main();
