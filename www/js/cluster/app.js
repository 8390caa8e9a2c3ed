// The cluster model's page: presets, the topology editor, the load and fault timeline,
// runs in a Web Worker with progress and cancel, the charts, the summary, A/B
// comparison and the exports. The page (boot.js) owns the URL and the model switch;
// this owns the cluster scenario (`cfg`) and tells the page when it changed.

import { el } from '../dom.js';
import { ClusterEditor } from './editor.js';
import { Timeline } from './timeline.js';
import { ClusterChart } from './charts.js';
import { ClusterRunner } from './runner.js';
import { renderTable, deltaClass } from './summary.js';
import { download, scenarioFile } from './export.js';

// Typing and dragging run after this pause; committed edits run at once.
const DEBOUNCE_MS = 150;

/** The selected fault's form: the same widgets and paths as the editor. */
class FaultForm extends ClusterEditor {
  render() {
    const i = this.app.selected;
    const f = i === null ? undefined : this.cfg.faults[i];
    if (!f) {
      this.root.replaceChildren(el('p', { class: 'hint', text: 'Click a fault bar to edit it; drag it to move it, drag its ends to resize it; + on a row adds one.' }));
      return;
    }
    const p = `faults[${i}]`;
    const tier = this.cfg.tiers[f.tier];
    this.root.replaceChildren(
      el('div', { class: 'sub', text: `fault ${i + 1}${tier ? ` on ${tier.name}` : ''}` }),
      el('div', { class: 'grid' }, ...this.scalars(p, f, this.d.fault)),
      this.kinded(`${p}.effect`, f.effect, 'effect', 'effect'),
      el('button', { type: 'button', 'data-act': 'fault-del', 'data-index': String(i), text: 'Delete this fault' }));
  }

  act(act, data) {
    if (act !== 'fault-del') return;
    this.cfg.faults.splice(Number(data.index), 1);
    this.app.select(null);
    this.app.changed({ commit: true, structural: true });
  }
}

export class ClusterApp {
  /**
   * @param {object} wasm bindings
   * @param {{root: HTMLElement, embed: string|null, onChange: (commit: boolean) => void, openUrl: () => string}} options
   */
  constructor(wasm, { root, embed, onChange, openUrl }) {
    this.wasm = wasm;
    this.embed = embed;
    this.onChange = onChange;
    this.openUrl = openUrl;
    this.defaults = wasm.clusterDefaults();
    this.presets = wasm.bundledScenarios().filter((p) => p.model === 'cluster');
    this.cfg = null;
    this.shown = null; // {cfg, result, ms, events}
    this.pinned = null; // {cfg, result}
    this.pendingPin = null; // a scenario from a link, pinned once it has run
    this.selected = null;
    this.active = false;
    this.dirty = true;
    this.timer = 0;
    this.build(root);
    this.editor = new ClusterEditor(this, this.$('editor'));
    this.faultForm = new FaultForm(this, this.$('fault-form'));
    this.timeline = new Timeline(this.$('timeline'), {
      cfg: () => this.cfg,
      onEdit: (commit) => this.changed({ commit, from: 'timeline' }),
      onSelect: (i) => this.select(i),
      addFault: (tier, start) => this.addFault(tier, start),
    });
    this.chart = new ClusterChart(wasm, this.$('chart'), this.$('readout'));
    this.runner = new ClusterRunner(wasm, {
      onBusy: (busy) => { this.$('progress-box').hidden = !busy; },
      onProgress: ({ progress, events }) => {
        this.$('progress').value = progress;
        this.$('progress-text').textContent = `${(progress * 100).toFixed(0)}% · ${Math.round(events).toLocaleString('en')} events`;
      },
    });
  }

  /** An element of this app by its id suffix. */
  $(id) { return document.getElementById(`cluster-${id}`); }

  build(root) {
    const id = (s) => `cluster-${s}`;
    const btn = (s, text, title) => el('button', { type: 'button', id: id(s), text, title });
    root.replaceChildren(
      el('section', { class: 'editor-only', 'aria-labelledby': id('presets-h') },
        el('h2', { id: id('presets-h'), text: 'Cluster presets' }),
        el('div', { id: id('presets'), class: 'presets' },
          ...this.presets.map((p) => el('button', { type: 'button', 'data-cluster-preset': p.id, text: p.title, title: p.description,
            onclick: () => this.loadPreset(p) }))),
        el('p', { id: id('preset-desc'), class: 'hint' })),
      el('div', { class: 'cluster-layout' },
        el('section', { class: 'cluster-editor editor-only', 'aria-label': 'Cluster scenario editor' },
          el('div', { id: id('editor') }),
          el('ul', { id: id('problems'), class: 'problems' })),
        el('section', { class: 'cluster-output', 'aria-labelledby': id('out-h') },
          el('h2', { id: id('out-h'), class: 'editor-only', text: 'Load, faults and results' }),
          el('div', { class: 'editor-only timeline-block' },
            el('div', { id: id('timeline'), class: 'timeline' }),
            el('div', { id: id('fault-form'), class: 'fault-form' })),
          el('div', { class: 'status editor-only' },
            el('span', { id: id('timing'), class: 'timing' }),
            el('span', { id: id('progress-box'), class: 'spinner', hidden: true },
              el('span', { class: 'dot' }), ' running… ',
              el('progress', { id: id('progress'), max: 1, value: 0 }),
              el('span', { id: id('progress-text') }), ' ',
              btn('cancel', 'Cancel', 'Stop this run')),
            el('span', { id: id('stale'), class: 'stale', hidden: true, text: 'showing the last valid results' }),
            el('span', { id: id('copied'), class: 'copied', role: 'status' })),
          el('div', { id: id('run-error'), class: 'banner run-error', role: 'alert', hidden: true }),
          el('div', { class: 'ab editor-only' },
            btn('pin', 'Pin as A', 'Keep these results as A, then edit to compare B with it'),
            btn('unpin', 'Unpin A', 'Stop comparing'),
            el('span', { id: id('ab-status'), class: 'hint' })),
          el('div', { class: 'chart-block' },
            el('div', { class: 'chart-wrap' },
              el('canvas', { id: id('chart'), class: 'cluster-chart',
                'aria-label': 'Per tier: attempts per second split into first attempts and retries against capacity, faults shaded; breakers open and half-open; queue depth and in-flight; end-to-end latency p50 and p99 per bucket' }),
              el('div', { id: id('readout'), class: 'readout', hidden: true }))),
          el('div', { class: 'table-block' },
            el('div', { id: id('compare-block'), hidden: true },
              el('h3', { text: 'A/B comparison' }),
              el('div', { class: 'scroll' }, el('table', { id: id('compare'), class: 'results compare' }))),
            el('h3', { class: 'editor-only', text: 'Summary' }),
            el('div', { class: 'scroll' }, el('table', { id: id('summary'), class: 'results' })),
            el('h3', { text: 'Per tier' }),
            el('div', { class: 'scroll' }, el('table', { id: id('tiers'), class: 'results' }))),
          el('a', { id: id('open'), class: 'embed-only open-link', target: '_blank', rel: 'noopener', text: 'Open in the Retry Storm Playground ↗' }),
          el('section', { class: 'editor-only', 'aria-labelledby': id('export-h') },
            el('h3', { id: id('export-h'), text: 'Export' }),
            el('div', { class: 'row-actions' },
              btn('export-md', 'Markdown summary'), btn('export-csv', 'CSV per bucket and tier'),
              btn('export-png', 'PNG chart'), btn('export-json', 'Scenario JSON (CLI)')),
            el('textarea', { id: id('export-text'), class: 'export-text', rows: 5, readonly: true, spellcheck: 'false',
              'aria-label': 'Last exported text' })))));
    this.$('cancel').addEventListener('click', () => this.runner.stop({ cancelled: true }));
    // The header's Copy link / Copy embed code (js/export.js) put their text in the classic
    // export box, hidden in this model: mirror it here, where it can be copied by hand.
    for (const [button, what] of [['copy-link', 'Link'], ['copy-embed', 'Embed code']]) {
      document.getElementById(button)?.addEventListener('click', () => {
        if (!this.active) return;
        const text = document.getElementById('export-text')?.value ?? '';
        this.$('export-text').value = text;
        this.$('copied').textContent = `${what} copied (and in the export box below)`;
        clearTimeout(this.copiedTimer);
        this.copiedTimer = setTimeout(() => { this.$('copied').textContent = ''; }, 3000);
      });
    }
    this.$('pin').addEventListener('click', () => this.pin());
    this.$('unpin').addEventListener('click', () => this.unpin());
    const box = this.$('export-text');
    this.$('export-md').addEventListener('click', () => {
      if (this.shown) download(box, 'retry-storm-cluster.md', this.wasm.clusterMarkdown(this.shown.result), 'text/markdown');
    });
    this.$('export-csv').addEventListener('click', () => {
      if (this.shown) download(box, 'retry-storm-cluster-buckets.csv', this.wasm.clusterCsv(this.shown.result), 'text/csv');
    });
    this.$('export-png').addEventListener('click', () => {
      this.$('chart').toBlob((blob) => { if (blob) download(box, 'retry-storm-cluster.png', blob, 'image/png'); }, 'image/png');
    });
    this.$('export-json').addEventListener('click', () => {
      download(box, 'retry-storm-cluster-scenario.json', scenarioFile(this.cfg), 'application/json');
    });
    this.renderAb();
  }

  /** The scenario pinned as A (shown or still to be run), for the share link. */
  get pinnedCfg() { return this.pinned?.cfg ?? this.pendingPin ?? null; }

  normalize(cfg) {
    try {
      return this.wasm.clusterNormalize(cfg);
    } catch {
      return structuredClone(cfg);
    }
  }

  /**
   * Loads a scenario (from a link, a preset, or the first preset by default). `pinned`:
   * a scenario to run and pin as A (from a link), null to unpin, undefined to keep A.
   */
  load(cfg, { pinned } = {}) {
    const next = this.normalize(cfg ?? this.presets[0]?.scenario ?? this.defaults.scenario);
    if (!cfg && this.presets[0]) this.$('preset-desc').textContent = this.presets[0].description;
    else if (cfg) this.$('preset-desc').textContent = '';
    if (pinned !== undefined) {
      this.pinned = null;
      this.pendingPin = pinned ? this.normalize(pinned) : null;
      this.renderAb();
    }
    this.cfg = next;
    this.requested = null;
    this.selected = null;
    this.editor.badText.clear();
    this.renderAll();
    this.dirty = true;
    if (this.active) this.update({ immediate: true });
  }

  loadPreset(p, { notify = true } = {}) {
    this.load(p.scenario);
    this.$('preset-desc').textContent = p.description;
    if (notify) this.onChange(true);
  }

  /** Shows or hides this model; the first showing runs the scenario. */
  setActive(active) {
    this.active = active;
    if (!active) return;
    if (!this.cfg) this.load(null);
    if (this.dirty) this.update({ immediate: true });
    else if (this.shown) this.chart.schedule();
    this.timeline.render();
    this.$('open').href = this.openUrl();
  }

  renderAll() {
    this.editor.render();
    this.faultForm.render();
    this.timeline.selected = this.selected;
    this.timeline.render();
  }

  select(i) {
    this.selected = i;
    this.timeline.selected = i;
    this.timeline.render();
    this.faultForm.render();
    this.update({ validateOnly: true });
  }

  addFault(tier, start) {
    const f = structuredClone(this.defaults.fault);
    f.tier = tier;
    f.start_ms = start;
    this.cfg.faults.push(f);
    this.select(this.cfg.faults.length - 1);
    this.changed({ commit: true, structural: true });
  }

  /** Called after every edit; `commit` adds a history entry and runs at once. */
  changed({ commit = false, structural = false, from = 'editor' } = {}) {
    if (from !== 'timeline' || commit) {
      this.timeline.selected = this.selected;
      this.timeline.render();
    }
    if (from === 'timeline' || (structural && from !== 'fault')) this.faultForm.render();
    this.update({ immediate: commit });
    this.onChange(commit);
    this.$('open').href = this.openUrl();
  }

  /** Validates (marking every field) and, when valid, runs; invalid edits keep the last results. */
  update({ immediate = false, validateOnly = false } = {}) {
    if (!this.cfg) return;
    const problems = this.wasm.clusterValidate(this.cfg);
    let unplaced = this.editor.showProblems(problems);
    unplaced = this.faultForm.showProblems(unplaced);
    const bad = new Set();
    for (const p of problems) {
      const m = /^faults\[(\d+)\]/.exec(p.field || '');
      if (m) bad.add(Number(m[1]));
    }
    this.timeline.invalid = bad;
    if (bad.size) this.timeline.render();
    const list = this.$('problems');
    list.replaceChildren(...problems.map((p) => el('li', { class: unplaced.includes(p) ? '' : 'placed', text: p.message })));
    this.$('stale').hidden = problems.length === 0 || !this.shown;
    if (validateOnly || !this.active) return;
    clearTimeout(this.timer);
    if (problems.length) {
      this.requested = null;
      this.runner.stop({ superseded: true });
      return;
    }
    // A commit (blur) after typing asks for the scenario already running or shown: no
    // second run (which also keeps a click on Cancel, blurring a field first, effective).
    if (JSON.stringify(this.cfg) === this.requested) return;
    if (immediate) this.run();
    else this.timer = setTimeout(() => this.run(), DEBOUNCE_MS);
  }

  async run() {
    this.dirty = false;
    const cfg = structuredClone(this.cfg);
    this.requested = JSON.stringify(cfg);
    this.$('progress').value = 0;
    this.$('progress-text').textContent = '';
    try {
      if (this.pendingPin && !(await this.runPin())) return;
      const res = await this.runner.run({ cfg, seed: cfg.seed });
      this.runError(null);
      this.show(cfg, res);
    } catch (e) {
      if (e && e.superseded) return;
      if (e && e.cancelled) {
        this.requested = null; // the same scenario may be asked for again
        this.$('stale').hidden = !this.shown;
        this.runError('Run cancelled. Edit the scenario, or press a preset, to run again.', 'info');
        document.body.dataset.clusterCancelled = String(Number(document.body.dataset.clusterCancelled || 0) + 1);
        return;
      }
      // The event bound's `allowed` is a whole sentence (how far it got, what to change).
      const message = e && e.field === 'max_events' && e.allowed ? e.allowed : (e && e.message ? e.message : String(e));
      this.runError(`The run stopped: ${message}`);
      this.$('stale').hidden = !this.shown;
    }
  }

  /** Runs the scenario a link pinned as A; false when superseded, cancelled or failed. */
  async runPin() {
    const a = this.pendingPin;
    try {
      const res = await this.runner.run({ cfg: a, seed: a.seed });
      if (this.pendingPin === a) {
        this.pendingPin = null;
        this.pinned = { cfg: a, result: res.result };
      }
      return true;
    } catch (e) {
      if (e && (e.superseded || e.cancelled)) throw e;
      this.pendingPin = null;
      this.renderAb();
      this.runError(`The pinned scenario A could not be run: ${e && e.message ? e.message : e}`);
      return true;
    }
  }

  runError(message, kind = 'error') {
    const box = this.$('run-error');
    box.hidden = !message;
    box.className = `banner run-error ${kind}`;
    box.textContent = message || '';
  }

  show(cfg, { result, ms, events }) {
    this.shown = { cfg, result, ms, events };
    this.$('stale').hidden = true;
    const drawMs = this.chart.show(cfg, result, this.pinned?.result);
    renderTable(this.$('summary'), this.wasm.clusterSummaryTable(result));
    renderTable(this.$('tiers'), this.wasm.clusterTierTable(result));
    this.renderAb();
    const timing = `worker run ${ms.toFixed(0)} ms · ${Math.round(events).toLocaleString('en')} events · draw ${drawMs.toFixed(0)} ms`;
    this.$('timing').textContent = timing;
    document.body.dataset.clusterRuns = String(Number(document.body.dataset.clusterRuns || 0) + 1);
  }

  pin() {
    if (!this.shown) return;
    this.pinned = { cfg: structuredClone(this.shown.cfg), result: this.shown.result };
    this.pendingPin = null;
    this.renderAb();
    this.chart.show(this.shown.cfg, this.shown.result, this.pinned.result);
    this.onChange(true);
  }

  unpin() {
    this.pinned = null;
    this.pendingPin = null;
    this.renderAb();
    if (this.shown) this.chart.show(this.shown.cfg, this.shown.result, null);
    this.onChange(true);
  }

  renderAb() {
    const pinned = this.pinned;
    this.$('unpin').disabled = !pinned;
    this.$('pin').textContent = pinned ? 'Pin current as A' : 'Pin as A';
    this.$('ab-status').textContent = pinned
      ? `A: ${pinned.cfg.name} (seed ${pinned.cfg.seed}) — B is what you see and edit now`
      : 'Pin the current results as A, change something, and see B beside it.';
    const block = this.$('compare-block');
    block.hidden = !(pinned && this.shown);
    if (pinned && this.shown) {
      renderTable(this.$('compare'), this.wasm.clusterCompare(pinned.result, this.shown.result), deltaClass);
    }
  }
}
