// The cluster model's app: presets, the topology editor, the load and fault timeline,
// runs in a Web Worker with progress and cancel, the charts, the summary, A/B
// comparison and the exports. The page shell (shell.js) owns the URL, the model switch
// and the copy-link buttons; this owns the cluster scenario (`cfg`) and the run pinned
// as A, and tells the shell when they changed.

import { builder, embedCaption, foldBelowWide, pasteFold } from '../lib/build.js';
import { bundledMatch } from '../lib/bundled.js';
import { ChartView } from '../lib/chartview.js';
import { costSwitch, setCostSwitch } from '../lib/costswitch.js';
import { PREVIEW_SAMPLES, PREVIEW_SEED, renderDelays } from '../lib/delays.js';
import { el } from '../lib/dom.js';
import { Exports } from '../lib/exports.js';
import { getPath } from '../lib/fields.js';
import { renderGlossary } from '../lib/glossary.js';
import { lang, t } from '../lib/i18n.js';
import { AskFirst, longest } from '../lib/longwork.js';
import { Runner } from '../lib/runner.js';
import { renderTable } from '../lib/table.js';
import { TYPING_PAUSE_MS } from '../lib/typing.js';
import { SeedsPanel } from '../seeds/panel.js';
import { SweepPanel } from '../sweep/panel.js';
import { ClusterEditor } from './editor.js';
import { Timeline } from './timeline.js';

/** @typedef {import('../shell.js').ShellHooks} ShellHooks */
/** @typedef {import('../shell.js').PageState} PageState */
/** @typedef {import('../shell.js').Preset} Preset */
/** @typedef {import('../../retrystorm-web.js').ClusterRun} ClusterRun */
/** @typedef {{cfg: any, run: ClusterRun, ms: number, events: number}} Shown */
/** @typedef {{cfg: any, run: ClusterRun}} Pinned */

// Typing and dragging run after this pause; committed edits run at once.

/** The selected fault's form: the same widgets and paths as the editor. */
class FaultForm extends ClusterEditor {
  /** @override */
  render() {
    const i = this.app.selected;
    const f = i === null ? undefined : this.cfg.faults[i];
    if (i === null || !f) {
      this.root.replaceChildren(
        el('p', {
          class: 'hint',
          text: t('cluster.fault.hint'),
        }),
      );
      return;
    }
    const p = `faults[${i}]`;
    const tier = this.cfg.tiers[f.tier];
    this.root.replaceChildren(
      el('div', {
        class: 'sub',
        text: tier ? t('cluster.fault.onTier', { n: i + 1, name: tier.name }) : t('cluster.fault.n', { n: i + 1 }),
      }),
      el('div', { class: 'grid' }, ...this.scalars(p, f, this.d.fault)),
      this.kinded(`${p}.effect`, f.effect, 'effect', t('cluster.fault.effect')),
      el('button', { type: 'button', 'data-act': 'fault-del', 'data-index': String(i), text: t('cluster.fault.del') }),
    );
  }

  /**
   * @override
   * @param {string} act
   * @param {DOMStringMap} data
   */
  act(act, data) {
    if (act !== 'fault-del') return;
    this.cfg.faults.splice(Number(data.index), 1);
    this.app.select(null);
    this.app.changed({ commit: true, structural: true });
  }
}

/** @typedef {ReturnType<typeof builder>} Builder */

/**
 * The presets, the paste box of a library's configuration and the scenario editor,
 * folded away on a phone.
 * @param {Builder['id']} id
 * @param {Builder['tx']} tx
 * @param {HTMLElement} paste
 */
function editorFold(id, tx, paste) {
  // The presets and the editor fold away on a phone (foldBelowWide); the results come
  // first in the document, so a phone shows the charts first.
  return foldBelowWide(
    /** @type {HTMLDetailsElement} */ (
      el(
        'details',
        { class: 'editor-fold editor-only' },
        el('summary', tx('classic.editScenario')),
        el(
          'section',
          { 'aria-labelledby': id('presets-h') },
          el('h2', { id: id('presets-h'), ...tx('cluster.presets') }),
          el('select', { id: id('presets'), class: 'presets', 'aria-labelledby': id('presets-h') }),
        ),
        paste,
        el(
          'section',
          {
            class: 'cluster-editor',
            'aria-label': t('cluster.editorLabel'),
            'data-i18n-aria-label': 'cluster.editorLabel',
          },
          el('div', { id: id('editor') }),
          el('ul', { id: id('problems'), class: 'problems' }),
        ),
      )
    ),
  );
}

/**
 * The run's status line: timing, progress with its cancel button, staleness, copy notices.
 * @param {Builder['id']} id
 * @param {Builder['tx']} tx
 * @param {Builder['btn']} btn
 */
function statusBar(id, tx, btn) {
  return el(
    'div',
    { class: 'status editor-only' },
    el('span', { id: id('timing'), class: 'timing' }),
    el(
      'span',
      { id: id('progress-box'), class: 'spinner', hidden: true },
      el('span', { class: 'dot' }),
      ' ',
      el('span', tx('shell.running')),
      ' ',
      // Before the progress text, whose width changes: the button stays put under the pointer.
      btn('cancel', 'shell.cancel', 'cluster.cancelTitle'),
      ' ',
      el('progress', { id: id('progress'), max: 1, value: 0 }),
      ' ',
      el('span', { id: id('progress-text') }),
    ),
    el('span', { id: id('stale'), class: 'stale', hidden: true, ...tx('shell.stale') }),
    el('span', { id: id('copied'), class: 'copied', role: 'status' }),
  );
}

/**
 * The run's tables: the A/B comparison, the summary, the tiers and the routes.
 * @param {Builder['id']} id
 * @param {Builder['tx']} tx
 * @param {Builder['scrollBox']} scrollBox
 */
function tablesBlock(id, tx, scrollBox) {
  return el(
    'div',
    { class: 'table-block' },
    el(
      'div',
      { id: id('compare-block'), hidden: true },
      el('h3', tx('cluster.compare')),
      scrollBox(el('table', { id: id('compare'), class: 'results compare' }), 'cluster.compare'),
    ),
    // Long (some forty rows): an embed shows it only in its tables view.
    el(
      'div',
      { id: id('summary-block') },
      el('h3', tx('cluster.summary')),
      scrollBox(el('table', { id: id('summary'), class: 'results' }), 'cluster.summary'),
    ),
    el('h3', tx('cluster.perTier')),
    scrollBox(el('table', { id: id('tiers'), class: 'results' }), 'cluster.perTier'),
    // Every route of every tier (a chain's hop is one route).
    el('h3', tx('routes.table')),
    scrollBox(el('table', { id: id('routes'), class: 'results' }), 'routes.table'),
    // The engine's definition of every figure and column; each header points at its own.
    el(
      'details',
      { id: id('glossary'), class: 'glossary' },
      el('summary', tx('cluster.glossary')),
      ...GLOSSARY_PARTS.map(([part, key]) =>
        el('section', { id: id(`glossary-${part}-part`) }, el('h4', tx(key)), el('dl', { id: id(`glossary-${part}`) })),
      ),
    ),
  );
}

/** The glossary's parts: the summary's rows, the per-tier and the per-route columns. */
const GLOSSARY_PARTS = /** @type {const} */ ([
  ['summary', 'cluster.summary'],
  ['tiers', 'cluster.perTier'],
  ['routes', 'routes.table'],
]);

/**
 * The export buttons and the text box they fill.
 * @param {Builder['id']} id
 * @param {Builder['tx']} tx
 * @param {Builder['btn']} btn
 */
function exportSection(id, tx, btn) {
  return el(
    'section',
    { class: 'editor-only', 'aria-labelledby': id('export-h') },
    el('h3', { id: id('export-h'), ...tx('cluster.export') }),
    el(
      'div',
      { class: 'row-actions' },
      btn('export-md', 'cluster.exportMd'),
      btn('export-csv', 'cluster.exportCsv'),
      btn('export-png', 'export.png'),
      btn('export-json', 'cluster.exportJson'),
    ),
    el('textarea', {
      id: id('export-text'),
      class: 'export-text',
      rows: 5,
      readonly: true,
      spellcheck: 'false',
      'aria-label': t('export.box'),
      'data-i18n-aria-label': 'export.box',
    }),
  );
}

/** @typedef {import('../shell.js').ModelApp} ModelApp */

/** @implements {ModelApp} */
export class ClusterApp {
  /**
   * @param {HTMLElement} root where this app builds its part of the page
   * @param {ShellHooks} hooks
   */
  constructor(root, hooks) {
    this.hooks = hooks;
    this.wasm = hooks.wasm;
    this.embed = hooks.embed;
    this.defaults = this.wasm.clusterDefaults();
    /** @type {string | null} the preset whose description is shown */
    this.presetId = null;
    /** Whether the chart shows cost per second (the share link's `view.cost`), when a policy has a cost model. */
    this.cost = false;
    /** @type {any} the scenario being edited (null until the model is first shown) */
    this.cfg = null;
    /** @type {Shown | null} */
    this.shown = null;
    /** @type {Pinned | null} */
    this.pinned = null;
    /** @type {any} a scenario from a link, pinned once it has run */
    this.pendingPin = null;
    /** @type {number | null} */
    this.selected = null;
    /** @type {string | null} */
    this.requested = null;
    this.active = false;
    this.dirty = true;
    this.timer = 0;
    /** @type {{key: string, vars: Record<string, string>, kind: string} | null} the run's banner, if shown */
    this.banner = null;
    this.drawMs = 0;
    this.build(root);
    this.exports = new Exports(/** @type {HTMLTextAreaElement} */ (this.$('export-text')), this.$('copied'));
    this.bindExports();
    this.editor = new ClusterEditor(this, this.$('editor'));
    // A long run asks first (lib/longwork.js): its notice under the run's banner.
    this.ask = new AskFirst('run', 'cluster');
    this.$('run-error').after(this.ask.node);
    // Many seeds (seeds/panel.js): its control and results above the single run's tables.
    const seedsControls = el('div', { class: 'editor-only' });
    const seedsOutput = el('div');
    this.$('summary').closest('.table-block')?.prepend(seedsControls, seedsOutput);
    this.seeds = new SeedsPanel(this.wasm, {
      model: 'cluster',
      controls: seedsControls,
      output: seedsOutput,
      exports: this.exports,
      onMode: () => {},
      onChange: (commit) => {
        if (this.cfg && this.wasm.clusterValidate(this.cfg).length === 0) this.seeds.update(structuredClone(this.cfg));
        this.hooks.changed(commit);
      },
      // The chart is built below; the first result comes later.
      onResult: () => this.chart?.schedule(),
    });
    // Sweeps (sweep/panel.js): after the single run's tables; with a scenario pinned as
    // A, the sweep runs on both, side by side.
    const sweepRoot = el('div');
    this.$('summary').closest('.table-block')?.after(sweepRoot);
    this.sweep = new SweepPanel(this.wasm, {
      model: 'cluster',
      root: sweepRoot,
      exports: this.exports,
      scenario: () => this.cfg,
      bundled: (id) => this.presets.find((p) => p.id === id)?.scenario,
      onDefine: (def) => {
        if (def) {
          this.seeds.restore(null);
          this.seeds.update(null);
        }
        this.runSweep();
      },
      onPreset: (p, scenario, compare) => {
        this.seeds.restore(null);
        this.seeds.update(null);
        this.load(scenario, { pinned: compare ?? null });
        this.$('preset-desc').textContent = p.description;
        this.hooks.changed(true);
        this.runSweep();
      },
      onChange: (commit) => this.hooks.changed(commit),
    });
    this.faultForm = new FaultForm(this, this.$('fault-form'));
    this.timeline = new Timeline(this.$('timeline'), {
      wasm: this.wasm,
      cfg: () => this.cfg,
      onEdit: (commit) => this.changed({ commit, from: 'timeline' }),
      onSelect: (i) => this.select(i),
      addFault: (tier, start) => this.addFault(tier, start),
    });
    const canvas = /** @type {HTMLCanvasElement} */ (this.$('chart'));
    this.chart = new ChartView(
      canvas,
      this.$('readout'),
      (_canvas, options) => {
        if (!this.shown) return null;
        const { run } = this.shown;
        const opts = { ...options, cost: this.costShown() };
        // The captions wrap and the legends go under the panels on a narrow canvas: its
        // height follows its width and what the legends name.
        const width = canvas.clientWidth;
        const sized = (/** @type {number} */ height) => {
          canvas.style.height = `${height}px`;
        };
        if (this.pinned) {
          sized(run.chartHeightWithPinned(width, this.pinned.run, opts));
          return run.drawWithPinned(canvas, this.pinned.run, opts);
        }
        // Many seeds: every tier's attempts as a median line over its p5–p95 band.
        const bands = this.seeds.bands();
        if (bands) {
          sized(run.chartHeightBands(width, bands, opts));
          return run.drawBands(canvas, bands, opts);
        }
        sized(run.chartHeightAt(width, opts));
        return run.draw(canvas, opts);
      },
      () => this.shown?.run.csv() ?? null,
    );
    this.runner = new Runner(this.wasm, {
      onBusy: (busy) => {
        this.$('progress-box').hidden = !busy;
      },
      onProgress: ({ progress, events }) => {
        /** @type {HTMLProgressElement} */ (this.$('progress')).value = progress;
        this.$('progress-text').textContent = t('cluster.progress', {
          pct: (progress * 100).toFixed(0),
          events: Math.round(events).toLocaleString('en'),
        });
      },
    });
  }

  /** The cluster presets, in the page's language. */
  get presets() {
    return this.hooks.presets.filter((p) => p.model === 'cluster');
  }

  /**
   * An element of this app by its id suffix.
   * @param {string} id
   * @returns {HTMLElement}
   */
  $(id) {
    return /** @type {HTMLElement} */ (document.getElementById(`cluster-${id}`));
  }

  /** @param {HTMLElement} root */
  build(root) {
    const b = builder('cluster');
    const { id, tx, btn, scrollBox } = b;
    // The importer (its page code, its worker and its wasm) loads on first use only.
    this.paste = pasteFold(b, {
      targets: () => this.clientTargets(),
      apply: (path, policy) => this.usePolicy(path, policy),
      client: (path) => structuredClone(getPath(this.cfg, path)),
    });
    const editor = editorFold(id, tx, this.paste.details);
    root.replaceChildren(
      el(
        'div',
        { class: 'cluster-layout' },
        el(
          'section',
          { class: 'cluster-output', 'aria-labelledby': id('out-h') },
          el('h2', { id: id('out-h'), class: 'editor-only', ...tx('cluster.output') }),
          // What the scenario shown is about.
          el('p', { id: id('preset-desc'), class: 'hint' }),
          el(
            'div',
            { class: 'editor-only timeline-block' },
            el('div', { id: id('timeline'), class: 'timeline' }),
            el('div', { id: id('fault-form'), class: 'fault-form' }),
          ),
          statusBar(id, tx, btn),
          el('div', { id: id('run-error'), class: 'banner run-error', role: 'alert', hidden: true }),
          el(
            'div',
            { class: 'ab editor-only' },
            btn('pin', 'cluster.pin', 'cluster.pinTitle'),
            btn('unpin', 'cluster.unpin', 'cluster.unpinTitle'),
            el('span', { id: id('ab-status'), class: 'hint' }),
          ),
          costSwitch(id('chart-switch'), (cost) => {
            this.cost = cost;
            this.hooks.changed(false, true);
            this.chart.draw();
          }),
          // The engine's headline for the run: recovered, or how long it stayed overloaded.
          el('p', { id: id('verdict'), class: 'verdict', 'aria-live': 'polite' }),
          el(
            'div',
            { class: 'chart-block' },
            el(
              'div',
              { class: 'chart-wrap' },
              el('canvas', {
                id: id('chart'),
                class: 'cluster-chart',
                role: 'img',
                'aria-label': t('cluster.chartLabel'),
                'data-i18n-aria-label': 'cluster.chartLabel',
              }),
              el('div', { id: id('readout'), class: 'readout', hidden: true }),
            ),
          ),
          tablesBlock(id, tx, scrollBox),
          embedCaption(id),
          exportSection(id, tx, btn),
        ),
        editor,
      ),
    );
    this.$('cancel').addEventListener('click', () => this.runner.cancel({ cancelled: true }));
    this.$('pin').addEventListener('click', () => this.pin());
    this.$('unpin').addEventListener('click', () => this.unpin());
    this.renderPresets();
  }

  /**
   * The cluster presets in one list, titled in the page's language. It shows the preset
   * loaded, and its prompt once the scenario is edited, so the same preset can be chosen
   * again; arrow keys on the closed list load the next or the previous one.
   */
  renderPresets() {
    const select = /** @type {HTMLSelectElement} */ (this.$('presets'));
    select.replaceChildren(
      el('option', { value: '', text: t('classic.presetPick') }),
      ...this.presets.map((p) =>
        el('option', { value: p.id, 'data-cluster-preset': p.id, text: p.title, title: p.description }),
      ),
    );
    select.value = this.presetId ?? '';
    select.onchange = () => {
      const p = this.presets.find((x) => x.id === select.value);
      if (p) this.hooks.loadPreset(p);
    };
  }

  /** Whether the chart shows cost per second: asked for (view state) and some client policy has a cost model. */
  costShown() {
    return this.cost && !!this.shown?.run.hasCost();
  }

  /** The verdict and the tables of the run shown, in the page's language. */
  renderTables() {
    if (!this.shown) return;
    const run = this.shown.run;
    this.$('verdict').textContent = run.verdict(lang());
    renderTable(/** @type {HTMLTableElement} */ (this.$('summary')), run.table(lang()));
    renderTable(/** @type {HTMLTableElement} */ (this.$('tiers')), run.tierTable(lang()));
    renderTable(/** @type {HTMLTableElement} */ (this.$('routes')), run.routeTable(lang()));
    const glossary = run.glossary(lang());
    for (const [part] of GLOSSARY_PARTS) {
      // The summary's figures are its rows; the other tables' are their columns.
      const table = this.$(part);
      const headers = table.querySelectorAll(part === 'summary' ? 'tbody th' : 'thead th');
      renderGlossary(this.$(`glossary-${part}`), headers, glossary[part], (i) => `cluster-def-${part}-${i}`);
    }
  }

  bindExports() {
    const ex = this.exports;
    this.$('export-md').addEventListener('click', () => {
      // Many seeds: the ensemble's tables, "median [p5–p95]" cells.
      const ensemble = this.seeds.bands();
      if (ensemble) ex.download('retry-storm-cluster-ensemble.md', ensemble.markdown(), 'text/markdown');
      else if (this.shown) ex.download('retry-storm-cluster.md', this.shown.run.markdown(lang()), 'text/markdown');
    });
    this.$('export-csv').addEventListener('click', () => {
      if (this.shown) ex.download('retry-storm-cluster-buckets.csv', this.shown.run.csv(), 'text/csv');
    });
    this.$('export-png').addEventListener('click', () =>
      ex.png(
        /** @type {HTMLCanvasElement} */ (this.$('chart')),
        this.seeds.bands() ? 'retry-storm-cluster-bands.png' : 'retry-storm-cluster.png',
      ),
    );
    // The scenario as a file the CLI reads (`retrystorm run --scenario FILE`): with its model.
    this.$('export-json').addEventListener('click', () => {
      const file = `${JSON.stringify({ model: 'cluster', ...this.cfg }, null, 2)}\n`;
      ex.download('retry-storm-cluster-scenario.json', file, 'application/json');
    });
    this.renderAb();
  }

  /** @returns {PageState} */
  linkState() {
    // The cluster scenario travels once the model has been shown or loaded, with the
    // scenario pinned as A when comparing.
    if (!this.cfg) return {};
    const a = this.pinnedCfg;
    const sweep = this.sweep.linkState() ?? this.seeds.linkState() ?? undefined;
    // The cost switch travels as the page's `view.cost` (the shell joins the views).
    const view = { hidden: [], ...(this.cost ? { cost: true } : {}) };
    const paste = this.paste?.pasted ?? undefined;
    return a
      ? { cluster: this.cfg, cluster_a: a, cluster_sweep: sweep, cluster_paste: paste, view }
      : { cluster: this.cfg, cluster_sweep: sweep, cluster_paste: paste, view };
  }

  /**
   * @param {PageState | null} state
   * @param {boolean} shown
   */
  restore(state, shown) {
    const isSweep = this.sweep.restore(state?.cluster_sweep);
    this.seeds.restore(isSweep ? null : state?.cluster_sweep);
    this.cost = !!state?.view?.cost;
    // The link's scenario, else (once shown) the first cluster preset.
    if (state?.cluster || shown) this.load(state?.cluster ?? null, { pinned: state?.cluster_a ?? null });
    else this.cfg = null;
    this.paste?.restore(state?.cluster_paste);
  }

  /** @param {string} href */
  setOpenLink(href) {
    /** @type {HTMLAnchorElement} */ (this.$('open')).href = href;
  }

  /** The scenario pinned as A (shown or still to be run), for the share link. */
  get pinnedCfg() {
    return this.pinned?.cfg ?? this.pendingPin ?? null;
  }

  /** @param {any} cfg */
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
   * @param {any} cfg
   * @param {{pinned?: any}} [options]
   */
  load(cfg, { pinned } = {}) {
    const next = this.normalize(cfg ?? this.presets[0]?.scenario ?? this.defaults.scenario);
    // A link to a preset shows its description, as the preset itself does.
    const bundled = cfg ? bundledMatch(this.presets, 'cluster', next, (p) => this.normalize(p)) : this.presets[0];
    this.presetId = bundled?.id ?? null;
    if (pinned !== undefined) {
      this.setPinned(null);
      this.pendingPin = pinned ? this.normalize(pinned) : null;
      this.renderAb();
    }
    this.cfg = next;
    this.renderPresetDesc();
    this.requested = null;
    this.selected = null;
    this.editor.badText.clear();
    this.renderAll();
    this.dirty = true;
    if (this.active) this.update({ immediate: true });
  }

  /** @param {Preset} p */
  loadPreset(p) {
    // An ensemble preset sets the seeds control; any other sets it back to one seed.
    this.seeds.restore(p.seeds ? { seeds: p.seeds } : null);
    this.load(p.scenario);
    this.presetId = p.id;
    this.renderPresetDesc();
  }

  /** The description of the preset loaded (none for an edited scenario); the embed's caption. */
  renderPresetDesc() {
    const p = this.presets.find((x) => x.id === this.presetId);
    this.$('preset-desc').textContent = p?.description ?? '';
    /** @type {HTMLSelectElement} */ (this.$('presets')).value = p?.id ?? '';
    this.$('caption-title').textContent = this.embedTitle();
  }

  /** The scenario's title: its preset's in the page's language while it is unedited, else its own name. */
  embedTitle() {
    const p = this.presets.find((x) => x.id === this.presetId);
    if (!this.cfg) return p?.title ?? '';
    return p && bundledMatch([p], 'cluster', this.cfg, (s) => this.normalize(s)) ? p.title : this.cfg.name;
  }

  /**
   * Shows or hides this model; the first showing runs the scenario.
   * @param {boolean} active
   */
  setActive(active) {
    this.active = active;
    if (!active) return;
    if (!this.cfg) this.load(null);
    if (this.dirty) this.update({ immediate: true });
    else if (this.shown) this.chart.schedule();
    this.timeline.render();
  }

  /** Runs the sweep, if one is defined, on the scenario (and on A, when pinned) when valid. */
  runSweep() {
    if (this.cfg && this.wasm.clusterValidate(this.cfg).length === 0)
      this.sweep.update(structuredClone(this.cfg), structuredClone(this.pinnedCfg));
  }

  /**
   * Every client policy of the scenario, where a pasted configuration can go: a tier's
   * client (the call to the next tier) and each route's.
   * @returns {{path: string, label: string}[]}
   */
  clientTargets() {
    const tiers = /** @type {any[]} */ (this.cfg?.tiers ?? []);
    /** @param {number} k */
    const name = (k) => String(tiers[k]?.name ?? k + 1);
    return tiers.flatMap((tier, k) => [
      ...(tier.client
        ? [{ path: `tiers[${k}].client`, label: t('paste.target', { from: name(k), to: name(k + 1) }) }]
        : []),
      .../** @type {any[]} */ (tier.routes ?? []).map((r, m, all) => ({
        path: `tiers[${k}].routes[${m}].client`,
        // Routes that call one pool (caller populations) are told apart by number.
        label: t(all.filter((x) => x.to === r.to).length > 1 ? 'paste.targetRoute' : 'paste.target', {
          from: name(k),
          to: name(Number(r.to)),
          n: m + 1,
        }),
      })),
    ]);
  }

  /**
   * Makes `policy` (an imported configuration's fields) the client policy at `path`, as
   * `retrystorm import --scenario` does: its fields replace the client's, the rest stay.
   * @param {string} path
   * @param {Record<string, unknown>} policy
   */
  usePolicy(path, policy) {
    Object.assign(getPath(this.cfg, path), structuredClone(policy));
    this.renderAll();
    this.changed({ commit: true, structural: true });
  }

  /** Redraws every text this app built, after a language switch (the static ones: applyTexts). */
  relabel() {
    this.paste?.box()?.relabel();
    this.sweep.relabel();
    this.renderPresets();
    if (!this.cfg) return;
    this.renderPresetDesc();
    this.renderAll();
    this.renderTables();
    this.renderAb();
    // Marks the problems again on the fields just rebuilt (and redraws the delay previews).
    this.update({ validateOnly: true });
    if (this.banner) this.runError(this.banner.key, this.banner.vars, this.banner.kind);
    if (this.shown) this.renderTiming();
  }

  /** The status line of the run shown: the worker's time, its events, the drawing time. */
  renderTiming() {
    if (!this.shown) return;
    this.$('timing').textContent = t('cluster.timing', {
      run: this.shown.ms.toFixed(0),
      events: Math.round(this.shown.events).toLocaleString('en'),
      draw: this.drawMs.toFixed(0),
    });
  }

  renderAll() {
    this.editor.render();
    this.faultForm.render();
    this.timeline.selected = this.selected;
    this.timeline.render();
  }

  /** @param {number | null} i */
  select(i) {
    this.selected = i;
    this.timeline.selected = i;
    this.timeline.render();
    this.faultForm.render();
    this.update({ validateOnly: true });
  }

  /**
   * @param {number} tier
   * @param {number} start
   */
  addFault(tier, start) {
    const f = structuredClone(this.defaults.fault);
    f.tier = tier;
    f.start_ms = start;
    this.cfg.faults.push(f);
    this.select(this.cfg.faults.length - 1);
    this.changed({ commit: true, structural: true });
  }

  /**
   * Called after every edit; `commit` adds a history entry and runs at once.
   * @param {{commit?: boolean, structural?: boolean, from?: string}} [options]
   */
  changed({ commit = false, structural = false, from = 'editor' } = {}) {
    // An edited scenario is no longer the preset: the list shows its prompt again.
    /** @type {HTMLSelectElement} */ (this.$('presets')).value = '';
    if (from !== 'timeline' || commit) {
      this.timeline.selected = this.selected;
      this.timeline.render();
    }
    if (from === 'timeline' || (structural && from !== 'fault')) this.faultForm.render();
    this.update({ immediate: commit });
    this.hooks.changed(commit);
  }

  /** The delay preview of every client policy on screen (the editor places them), sampled by the engine. */
  renderDelays() {
    for (const box of document.querySelectorAll('#cluster-root [data-delay-client]')) {
      const path = /** @type {string} */ (box.getAttribute('data-delay-client'));
      const c = getPath(this.cfg, path);
      try {
        const spec = { model: 'cluster', backoff: c.backoff, jitter: c.jitter, max_attempts: c.max_attempts };
        const delays = this.wasm.delayPreview(spec, PREVIEW_SAMPLES, PREVIEW_SEED);
        renderDelays(
          /** @type {HTMLElement} */ (box),
          delays,
          t('delays.clusterCaption', { samples: PREVIEW_SAMPLES }),
        );
      } catch {
        // A value out of range is marked at its field; the preview waits for a valid one.
        box.replaceChildren();
      }
    }
  }

  /**
   * Validates (marking every field) and, when valid, runs; invalid edits keep the last results.
   * @param {{immediate?: boolean, validateOnly?: boolean}} [options]
   */
  update({ immediate = false, validateOnly = false } = {}) {
    if (!this.cfg) return;
    /** @type {import('../lib/fields.js').Problem[]} */
    const problems = this.wasm.clusterValidate(this.cfg, lang());
    this.renderDelays();
    let unplaced = this.editor.showProblems(problems);
    unplaced = this.faultForm.showProblems(unplaced);
    /** @type {Set<number>} */
    const bad = new Set();
    for (const p of problems) {
      const m = /^faults\[(\d+)\]/.exec(p.field || '');
      if (m) bad.add(Number(m[1]));
    }
    this.timeline.invalid = bad;
    if (bad.size) this.timeline.render();
    this.$('problems').replaceChildren(
      ...problems.map((p) => el('li', { class: unplaced.includes(p) ? '' : 'placed', text: p.message })),
    );
    this.$('stale').hidden = problems.length === 0 || !this.shown;
    if (validateOnly || !this.active) return;
    clearTimeout(this.timer);
    if (problems.length) {
      this.requested = null;
      this.runner.cancel({ superseded: true });
      return;
    }
    // A commit (blur) after typing asks for the scenario already running or shown: no
    // second run (which also keeps a click on Cancel, blurring a field first, effective).
    if (JSON.stringify(this.cfg) === this.requested) return;
    if (immediate) this.run();
    else this.timer = setTimeout(() => this.run(), TYPING_PAUSE_MS);
  }

  async run() {
    this.dirty = false;
    const cfg = structuredClone(this.cfg);
    this.requested = JSON.stringify(cfg);
    this.seeds.update(cfg);
    this.runSweep();
    // A long run asks first (lib/longwork.js), counting the scenario a link pins as A.
    const pin = this.pendingPin;
    const estimate = (/** @type {string} */ l) =>
      longest([cfg, pin].filter(Boolean).map((s) => this.wasm.estimateRun('cluster', s, l)));
    if (!this.ask.allows(JSON.stringify([cfg, pin]), estimate, () => this.start(cfg))) {
      // The run on screen (if any) is another scenario's, and one still going gives way.
      this.runner.drop();
      this.$('stale').hidden = !this.shown;
      return;
    }
    await this.start(cfg);
  }

  /**
   * Runs a valid scenario (after A, when a link pinned one) and shows it.
   * @param {any} cfg
   */
  async start(cfg) {
    /** @type {HTMLProgressElement} */ (this.$('progress')).value = 0;
    this.$('progress-text').textContent = '';
    try {
      if (this.pendingPin && !(await this.runPin())) return;
      const out = await this.runner.run({ model: 'cluster', kind: 'run', cfg, seed: cfg.seed });
      this.runError(null);
      this.show({
        cfg,
        run: this.wasm.ClusterRun.fromJSON(/** @type {string} */ (out.text)),
        ms: out.ms,
        events: out.events,
      });
    } catch (e) {
      const err =
        /** @type {{cancelled?: boolean, superseded?: boolean, field?: string, allowed?: string, message?: string}} */ (
          e
        );
      if (err.superseded) return;
      if (err.cancelled) {
        this.requested = null; // the same scenario may be asked for again
        this.$('stale').hidden = !this.shown;
        this.runError('cluster.cancelled', {}, 'info');
        document.body.dataset.clusterCancelled = String(Number(document.body.dataset.clusterCancelled || 0) + 1);
        return;
      }
      // The event bound's `allowed` is a whole sentence (how far it got, what to change).
      const message = err.field === 'max_events' && err.allowed ? err.allowed : String(err.message ?? e);
      this.runError('cluster.stopped', { message });
      this.$('stale').hidden = !this.shown;
    }
  }

  /** Runs the scenario a link pinned as A; false when superseded, cancelled or failed. */
  async runPin() {
    const a = this.pendingPin;
    try {
      const out = await this.runner.run({ model: 'cluster', kind: 'run', cfg: a, seed: a.seed });
      const run = this.wasm.ClusterRun.fromJSON(/** @type {string} */ (out.text));
      if (this.pendingPin === a) {
        this.pendingPin = null;
        this.setPinned({ cfg: a, run });
      } else run.free();
      return true;
    } catch (e) {
      const err = /** @type {{cancelled?: boolean, superseded?: boolean, message?: string}} */ (e);
      if (err.superseded || err.cancelled) throw e;
      this.pendingPin = null;
      this.renderAb();
      this.runError('cluster.pinFailed', { message: String(err.message ?? e) });
      return true;
    }
  }

  /**
   * Shows (or, with null, hides) the run's banner: a catalogue key and its values, kept
   * so that a language switch rewrites it.
   * @param {string | null} key
   * @param {Record<string, string>} [vars]
   * @param {string} [kind]
   */
  runError(key, vars = {}, kind = 'error') {
    this.banner = key ? { key, vars, kind } : null;
    const box = this.$('run-error');
    box.hidden = !key;
    box.className = `banner run-error ${kind}`;
    box.textContent = key ? t(key, vars) : '';
  }

  /**
   * Frees a run object nothing shows any more.
   * @param {ClusterRun | undefined} run
   */
  release(run) {
    if (run && run !== this.shown?.run && run !== this.pinned?.run) run.free();
  }

  /** @param {Pinned | null} pinned */
  setPinned(pinned) {
    const old = this.pinned?.run;
    this.pinned = pinned;
    this.release(old);
  }

  /** @param {Shown} shown */
  show(shown) {
    const old = this.shown?.run;
    this.shown = shown;
    this.release(old);
    this.$('stale').hidden = true;
    // Offered only when some client policy has a cost model.
    this.$('chart-switch').hidden = !shown.run.hasCost();
    setCostSwitch(this.$('chart-switch'), shown.run.hasCost(), this.costShown());
    const drawMs = this.chart.draw();
    this.renderTables();
    this.renderAb();
    this.drawMs = drawMs;
    this.renderTiming();
    this.$('caption-title').textContent = this.embedTitle();
    document.body.dataset.clusterRuns = String(Number(document.body.dataset.clusterRuns || 0) + 1);
    this.hooks.shown('cluster');
  }

  pin() {
    if (!this.shown) return;
    this.setPinned({ cfg: structuredClone(this.shown.cfg), run: this.shown.run });
    this.pendingPin = null;
    this.renderAb();
    this.chart.draw();
    this.hooks.changed(true);
  }

  unpin() {
    this.setPinned(null);
    this.pendingPin = null;
    this.renderAb();
    this.chart.draw();
    this.hooks.changed(true);
  }

  renderAb() {
    const pinned = this.pinned;
    /** @type {HTMLButtonElement} */ (this.$('unpin')).disabled = !pinned;
    // The pin button's key follows the state, so applyTexts relabels it correctly.
    const pinKey = pinned ? 'cluster.pinCurrent' : 'cluster.pin';
    this.$('pin').dataset.i18n = pinKey;
    this.$('pin').textContent = t(pinKey);
    this.$('ab-status').textContent = pinned
      ? t('cluster.abStatus', { name: pinned.cfg.name, seed: pinned.cfg.seed })
      : t('cluster.abHint');
    const block = this.$('compare-block');
    block.hidden = !(pinned && this.shown);
    if (pinned && this.shown) {
      // Each row's class, better or worse by the figure's direction, is the engine's.
      const changes = this.shown.run.compareChanges(pinned.run);
      renderTable(
        /** @type {HTMLTableElement} */ (this.$('compare')),
        this.shown.run.compare(pinned.run, lang()),
        (_row, i) => changes[i] ?? '',
      );
    }
  }
}
