// The classic model's app: the article's scenario and strategies editor, runs in a Web
// Worker, the recovery-window chart with its legend, the results table, the article's
// acceptance checks, and the exports. The page shell (shell.js) owns the URL, the model
// switch and the copy-link buttons; this owns the classic scenario and the view state
// (hidden strategies).

import { builder, pasteFold } from '../lib/build.js';
import { bundledMatch } from '../lib/bundled.js';
import { ChartView } from '../lib/chartview.js';
import { costSwitch, setCostSwitch } from '../lib/costswitch.js';
import { PREVIEW_SAMPLES, PREVIEW_SEED, renderDelays } from '../lib/delays.js';
import { el } from '../lib/dom.js';
import { Exports } from '../lib/exports.js';
import { renderGlossary } from '../lib/glossary.js';
import { lang, t } from '../lib/i18n.js';
import { AskFirst } from '../lib/longwork.js';
import { Runner } from '../lib/runner.js';
import { renderTable } from '../lib/table.js';
import { TYPING_PAUSE_MS } from '../lib/typing.js';
import { SeedsPanel } from '../seeds/panel.js';
import { SweepPanel } from '../sweep/panel.js';
import { ClassicEditor } from './editor.js';
import { buildClassicPage } from './page.js';

/** @typedef {import('../shell.js').ShellHooks} ShellHooks */
/** @typedef {import('../shell.js').PageState} PageState */
/** @typedef {import('../shell.js').Preset} Preset */
/** @typedef {import('../../retrystorm-web.js').ClassicRun} ClassicRun */
/** @typedef {import('../../retrystorm-web.js').Verdict} Verdict */
/** @typedef {import('../../retrystorm-web.js').Table} Table */
/** @typedef {import('../../retrystorm-web.js').GlossaryEntry} GlossaryEntry */

/** @typedef {import('../shell.js').ModelApp} ModelApp */

/** @implements {ModelApp} */
export class ClassicApp {
  /**
   * @param {HTMLElement} root where this app builds its part of the page (page.js)
   * @param {ShellHooks} hooks
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.wasm = hooks.wasm;
    this.defaults = this.wasm.classicDefaults();
    buildClassicPage(root, { attributions: this.defaults.enums.attribution });
    /** The scenario being edited. */
    this.cfg = structuredClone(this.defaults.scenario);
    /** @type {{hidden: number[], cost?: boolean}} */
    this.view = { hidden: [] };
    /** @type {string | null} the preset whose description is shown */
    this.presetId = null;
    /** The pending run after a pause in typing (changed). */
    this.typing = 0;
    /** @type {ClassicRun | null} the run on screen */
    this.run = null;
    /** @type {string | null} */
    this.lastKey = null;
    this.colors = this.wasm.seriesColors(12);
    this.exports = new Exports(/** @type {HTMLTextAreaElement} */ (this.$('export-text')), this.$('copied'));
    this.runner = new Runner(this.wasm, {
      onBusy: (busy) => {
        this.$('spinner').hidden = !busy;
      },
    });
    this.chart = new ChartView(
      /** @type {HTMLCanvasElement} */ (this.$('chart')),
      this.$('readout'),
      (canvas, options) => {
        if (!this.run) return null;
        const opts = { ...options, hidden: this.view.hidden, cost: this.costShown() };
        // Many seeds: the strategies' median lines over their p5–p95 bands (attempts only).
        const bands = this.costShown() ? null : this.seeds.bands();
        const handle = bands ? this.run.drawBands(canvas, bands, opts) : this.run.draw(canvas, opts);
        this.renderLegend();
        return handle;
      },
      () => this.run?.csv() ?? null,
    );
    this.editor = new ClassicEditor(this, root);
    // A library's configuration as a strategy row; the importer loads on first use.
    this.paste = pasteFold(builder('classic'), {
      row: true,
      targets: () => [
        { path: 'new', label: t('paste.newRow') },
        .../** @type {{name: string}[]} */ (this.cfg.strategies).map((s, i) => ({ path: String(i), label: s.name })),
      ],
      apply: (path, row) => this.editor.useRow(path, row),
    });
    this.$('strategies-block').append(this.paste.details);
    // A long run asks first (lib/longwork.js): its notice above the chart.
    this.ask = new AskFirst('run', 'classic');
    this.$('chart-block').before(this.ask.node);
    // The chart's attempts/s ↔ cost/s switch, before the legend.
    this.$('legend').before(
      costSwitch(this.id('chart-switch'), (cost) => {
        if (cost) this.view.cost = true;
        else delete this.view.cost;
        this.hooks.changed(false, true);
        this.chart.draw();
      }),
    );
    // Many seeds (seeds/panel.js): its control above the chart, its results after the table.
    this.seeds = new SeedsPanel(this.wasm, {
      model: 'classic',
      controls: this.$('seeds-controls'),
      output: this.$('table-block'),
      exports: this.exports,
      onMode: (on) => this.$('results').closest('.scroll')?.toggleAttribute('hidden', on),
      onChange: (commit) => {
        if (this.wasm.classicValidate(this.cfg).length === 0) this.seeds.update(structuredClone(this.cfg));
        this.hooks.changed(commit);
      },
      onResult: () => {
        if (this.run) this.chart.schedule();
      },
    });
    // Sweeps (sweep/panel.js): after the results table; a sweep and an ensemble share
    // the link's classic_sweep (a definition with parameters is the sweep's).
    this.sweep = new SweepPanel(this.wasm, {
      model: 'classic',
      root: this.$('sweep'),
      exports: this.exports,
      scenario: () => this.cfg,
      bundled: (id) => this.hooks.presets.find((p) => p.id === id)?.scenario,
      onDefine: (def) => {
        if (def) {
          this.seeds.restore(null);
          this.seeds.update(null);
        }
        this.runSweep();
      },
      onPreset: (p) => {
        this.seeds.restore(null);
        this.seeds.update(null);
        const scenario = this.hooks.presets.find((x) => x.id === p.scenario);
        if (scenario) this.hooks.loadPreset(scenario);
        this.runSweep();
      },
      onChange: (commit) => this.hooks.changed(commit),
    });
    this.$('cancel-run').addEventListener('click', () => this.runner.cancel());
    this.bindExports();
    this.renderPresets();
    /** The strategy whose backoff the delay preview shows (the row last focused). */
    this.previewRow = 0;
    this.$('strategies')
      .querySelector('tbody')
      ?.addEventListener('focusin', (event) => {
        const field = /** @type {Element} */ (event.target).getAttribute('data-field') || '';
        const m = /^strategies\[(\d+)\]/.exec(field);
        if (m && Number(m[1]) !== this.previewRow) {
          this.previewRow = Number(m[1]);
          this.renderDelays();
        }
      });
    /** The view on screen: the results table or one of the article's reports (shell.js). */
    this.reportView = 'table';
    this.$('report-md').addEventListener('click', () => {
      if (this.run && this.reportView !== 'table') {
        const v = this.reportView;
        this.exports.download(`retry-storm-${v}.md`, this.reportMarkdown(v), 'text/markdown');
      }
    });
    this.$('report-breaker-preset').addEventListener('click', () => {
      const p = this.hooks.presets.find((x) => x.id === 'breaker-groups');
      if (p) this.hooks.loadPreset(p);
    });
    for (const button of this.tabs()) {
      button.addEventListener('click', () => this.hooks.setView(String(button.dataset.view)));
    }
    this.$('all-columns').addEventListener('click', () => {
      this.$('table-block').classList.toggle('all-columns');
      this.renderColumnsToggle();
    });
  }

  /**
   * An element of this page by its id suffix (page.js).
   * @param {string} s
   * @returns {HTMLElement}
   */
  $(s) {
    return /** @type {HTMLElement} */ (document.getElementById(this.id(s)));
  }

  /**
   * The id of this page's element `s`.
   * @param {string} s
   */
  id(s) {
    return `classic-${s}`;
  }

  /** The buttons of the results' views (the table, the article's reports). */
  tabs() {
    return [...this.$('report-tabs').querySelectorAll('button[data-view]')].map(
      (b) => /** @type {HTMLButtonElement} */ (b),
    );
  }

  /**
   * Shows the results (chart and table) or one of the article's reports as the CLI prints it.
   * @param {string} view
   */
  setView(view) {
    this.reportView = view;
    for (const button of this.tabs()) button.setAttribute('aria-pressed', String(button.dataset.view === view));
    const report = view !== 'table';
    this.$('report-block').hidden = !report;
    this.$('chart-block').hidden = report;
    this.$('table-block').hidden = report;
    this.$('report-breaker-preset').hidden = view !== 'breaker';
    this.renderReport();
    if (!report && this.run) this.chart.schedule();
  }

  /** The report of the current view, in the page's language, exactly as the CLI prints it. */
  renderReport() {
    if (this.reportView === 'table' || !this.run) return;
    const view = this.reportView;
    this.$('report-h').textContent = t(`report.tab.${view}`);
    this.$('report-note').textContent = t('report.note', { cmd: this.cliCommand(view) });
    try {
      this.$('report-text').textContent = this.run.report(view, lang());
    } catch (e) {
      this.$('report-text').textContent = t('report.failed', { message: /** @type {Error} */ (e).message });
    }
  }

  /**
   * The CLI command that prints the same report (for the reader who wants to check).
   * @param {string} view
   */
  cliCommand(view) {
    return `retrystorm ${view} --scenario scenario.json --lang ${lang()}`;
  }

  /**
   * The report as Markdown: the CLI's text, byte for byte, in a code block (its columns
   * are aligned by spaces, which only a fixed-width block keeps).
   * @param {string} view
   */
  reportMarkdown(view) {
    const text = /** @type {ClassicRun} */ (this.run).report(view, lang());
    return `\`\`\`text\n${text}\`\`\`\n`;
  }

  /** The delay preview of the strategy in `previewRow`, sampled by the engine. */
  renderDelays() {
    const s = this.cfg.strategies[this.previewRow] ?? this.cfg.strategies[0];
    const box = this.$('delay-preview');
    if (!s) {
      box.replaceChildren();
      return;
    }
    try {
      const spec = { model: 'classic', base_ms: s.base_ms, jitter: s.jitter, max_retry: s.max_retry };
      const delays = this.wasm.delayPreview(spec, PREVIEW_SAMPLES, PREVIEW_SEED);
      renderDelays(box, delays, t('delays.caption', { name: s.name, samples: PREVIEW_SAMPLES }));
    } catch {
      // A value out of range is marked at its field; the preview waits for a valid one.
      box.replaceChildren();
    }
  }

  /** Runs the sweep, if one is defined, on the scenario when it is valid. */
  runSweep() {
    if (this.wasm.classicValidate(this.cfg).length === 0) this.sweep.update(structuredClone(this.cfg));
  }

  /** Redraws every text this app built, after a language switch. */
  relabel() {
    this.paste.box()?.relabel();
    this.sweep.relabel();
    this.renderDelays();
    this.editor.render();
    this.renderPresets();
    this.renderPresetDesc();
    if (this.run) {
      renderTable(/** @type {HTMLTableElement} */ (this.$('results')), this.run.table(lang()));
      this.renderColumnsToggle();
      this.$('verdict').textContent = this.run.verdict(lang());
      this.renderLegend();
      this.renderReport();
    }
    // The checks' names come from the engine in the page's language: ask again.
    this.lastKey = null;
    this.update();
  }

  /** @returns {PageState} */
  linkState() {
    const sweep = this.sweep.linkState() ?? this.seeds.linkState() ?? undefined;
    return { classic: this.cfg, view: this.view, classic_sweep: sweep, classic_paste: this.paste.pasted ?? undefined };
  }

  /**
   * @param {PageState | null} state
   * @param {boolean} _shown
   */
  restore(state, _shown) {
    this.cfg = state?.classic ?? structuredClone(this.defaults.scenario);
    this.view = { hidden: state?.view?.hidden ?? [] };
    if (state?.view?.cost) this.view.cost = true;
    const isSweep = this.sweep.restore(state?.classic_sweep);
    this.seeds.restore(isSweep ? null : state?.classic_sweep);
    this.paste.restore(state?.classic_paste);
    this.lastKey = null; // a link or history entry may differ in its seeds only: run again
    // A link to a bundled scenario (the default one included) shows its description.
    const bundled = bundledMatch(this.hooks.presets, 'classic', this.cfg);
    if (bundled) this.presetId = bundled.id;
    this.renderPresetDesc();
    this.editor.render();
    this.update();
  }

  /** @param {Preset} p */
  loadPreset(p) {
    this.cfg = structuredClone(p.scenario);
    this.view.hidden = [];
    // An ensemble preset sets the seeds control; any other sets it back to one seed.
    this.seeds.restore(p.seeds ? { seeds: p.seeds } : null);
    this.lastKey = null; // the same scenario with other seeds runs again
    this.presetId = p.id;
    this.renderPresetDesc();
    this.editor.render();
    this.update();
  }

  /** The description of the scenario last loaded, from the engine in the page's language; the embed's caption. */
  renderPresetDesc() {
    const preset = this.hooks.presets.find((p) => p.id === this.presetId);
    this.$('preset-desc').textContent = preset ? preset.description : '';
    /** @type {HTMLSelectElement} */ (this.$('presets')).value = preset ? preset.id : '';
    this.$('caption-title').textContent = this.embedTitle();
  }

  /** The scenario's title: its preset's, in the page's language, or the words for an edited one. */
  embedTitle() {
    return bundledMatch(this.hooks.presets, 'classic', this.cfg)?.title ?? t('embed.customTitle');
  }

  /** The narrow embed's button: every column of the results table, or the first ones again. */
  renderColumnsToggle() {
    const all = this.$('table-block').classList.contains('all-columns');
    const button = this.$('all-columns');
    const n = this.$('results').querySelectorAll('thead th').length;
    button.textContent = all ? t('embed.fewerColumns') : t('embed.allColumns', { n });
    button.setAttribute('aria-pressed', String(all));
  }

  /** @param {boolean} active */
  setActive(active) {
    if (active && this.run) this.chart.schedule();
  }

  /** @param {string} href */
  setOpenLink(href) {
    /** @type {HTMLAnchorElement} */ (this.$('open')).href = href;
  }

  /**
   * Called by the editor after every edit; `commit` adds a history entry.
   * @param {{commit: boolean}} options
   */
  changed({ commit }) {
    // An edited scenario is no longer the preset: the list shows its prompt again.
    /** @type {HTMLSelectElement} */ (this.$('presets')).value = '';
    // While typing, wait for a pause: a half-typed number never runs.
    clearTimeout(this.typing);
    if (commit) this.update();
    else this.typing = setTimeout(() => this.update(), TYPING_PAUSE_MS);
    this.hooks.changed(commit);
  }

  /** Validates and, when valid, runs and redraws; invalid edits keep the last results. */
  async update() {
    const cfg = structuredClone(this.cfg);
    const key = JSON.stringify(cfg);
    // A commit (blur) after typing repeats the last request: don't run it twice. This
    // also keeps a click on Cancel (which blurs the field first) from restarting the run.
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.renderDelays();
    const problems = this.wasm.classicValidate(cfg, lang());
    this.editor.showProblems(problems);
    this.$('stale').hidden = problems.length === 0;
    if (problems.length) return;
    this.seeds.update(cfg);
    this.sweep.update(structuredClone(cfg));
    const estimate = (/** @type {string} */ l) => this.wasm.estimateRun('classic', cfg, l);
    if (!this.ask.allows(key, estimate, () => this.start(cfg))) {
      // The run on screen (if any) is another scenario's, and one still going gives way.
      this.runner.drop();
      this.$('stale').hidden = !this.run;
      return;
    }
    await this.start(cfg);
  }

  /**
   * Runs a valid scenario and shows its results, checks and conventions.
   * @param {any} cfg
   */
  async start(cfg) {
    const request = /** @type {const} */ ({ model: 'classic', cfg, seed: cfg.seed, lang: lang() });
    try {
      const out = await this.runner.run({ ...request, kind: 'run' });
      this.show(this.wasm.ClassicRun.fromJSON(/** @type {string} */ (out.text)), out.ms);
      this.$('verdicts').classList.add('pending');
      const verdicts = await this.runner.run({ ...request, kind: 'verdicts' });
      this.renderVerdicts(/** @type {Verdict[]} */ (verdicts.value));
      this.$('verdicts').classList.remove('pending');
      this.$('attribution-block').classList.add('pending');
      const conventions = await this.runner.run({ ...request, kind: 'attribution' });
      this.renderAttribution(/** @type {{figures: Table, checks: Table}} */ (conventions.value));
      this.$('attribution-block').classList.remove('pending');
    } catch (e) {
      const err =
        /** @type {{cancelled?: boolean, superseded?: boolean, field?: string, message?: string, value?: string, allowed?: string, kind?: string}} */ (
          e
        );
      if (err.cancelled || err.superseded) {
        if (err.cancelled) {
          this.$('stale').hidden = false;
          this.lastKey = null; // the same scenario may be asked for again
        }
        return;
      }
      const { value, allowed, kind } = err;
      this.editor.showProblems([{ field: err.field || '', message: String(err.message), value, allowed, kind }]);
      this.$('stale').hidden = false;
    }
  }

  /**
   * @param {ClassicRun} run
   * @param {number} ms
   */
  show(run, ms) {
    this.run?.free();
    this.run = run;
    renderTable(/** @type {HTMLTableElement} */ (this.$('results')), run.table(lang()));
    this.renderGlossary(run.glossary(lang()));
    this.$('verdict').textContent = run.verdict(lang());
    this.renderChartSwitch();
    const drawMs = this.chart.draw();
    this.$('timing').textContent = t('shell.timing', { run: ms.toFixed(1), draw: drawMs.toFixed(1) });
    this.renderReport();
    this.renderColumnsToggle();
    this.$('caption-title').textContent = this.embedTitle();
    document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
    this.hooks.shown('classic');
  }

  /** Whether the chart shows cost per second: asked for (view state) and some strategy has a cost model. */
  costShown() {
    return !!this.view.cost && !!this.run?.hasCost();
  }

  /** Sets the switch from the view state; the cost side is off without a cost model. */
  renderChartSwitch() {
    setCostSwitch(this.$('chart-switch'), !!this.run?.hasCost(), this.costShown());
  }

  /**
   * The article's figures and checks under every attribution convention, side by side.
   * @param {{figures: Table, checks: Table}} tables
   */
  renderAttribution({ figures, checks }) {
    const current = this.cfg.attribution ?? this.defaults.enums.attribution[0];
    renderTable(/** @type {HTMLTableElement} */ (this.$('attribution-figures')), figures);
    renderTable(/** @type {HTMLTableElement} */ (this.$('attribution-checks')), checks);
    // The columns of the convention in use are marked, so the table above reads against them.
    for (const s of ['attribution-figures', 'attribution-checks']) {
      const table = /** @type {HTMLTableElement} */ (this.$(s));
      const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
      for (const row of table.rows) {
        heads.forEach((head, k) => {
          row.cells[k]?.classList.toggle('current', head === current || head.endsWith(` ${current}`));
        });
      }
    }
  }

  /** The legend: a checkbox per strategy to hide or show it (view state, in the link). */
  renderLegend() {
    if (!this.run) return;
    const hidden = new Set(this.view.hidden);
    const items = this.run.names().map((name, i) => {
      const box = el('input', { type: 'checkbox', 'data-series': String(i) });
      box.checked = !hidden.has(i);
      box.addEventListener('change', () => {
        const next = new Set(this.view.hidden);
        if (box.checked) next.delete(i);
        else next.add(i);
        this.view.hidden = [...next].sort((a, b) => a - b);
        this.hooks.changed(false, true);
        this.chart.draw();
      });
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = this.colors[i % this.colors.length];
      return el('label', {}, box, swatch, el('span', { text: name }));
    });
    this.$('legend').replaceChildren(...items);
  }

  /**
   * The engine's definitions of the table's columns, under the table and on its headers.
   * @param {GlossaryEntry[]} entries
   */
  renderGlossary(entries) {
    renderGlossary(this.$('glossary-list'), this.$('results').querySelectorAll('thead th'), entries, (i) =>
      this.id(`def-${i}`),
    );
  }

  /**
   * The article's reproduction checks as PASS / FAIL / n/a with their numbers (n/a, with the
   * engine's reason, once the strategies are no longer the article's).
   * @param {Verdict[]} verdicts
   */
  renderVerdicts(verdicts) {
    this.$('verdicts').replaceChildren(
      ...verdicts.map((v) => {
        const label = v.pass === true ? t('verdict.pass') : v.pass === false ? t('verdict.fail') : t('verdict.na');
        const kind = v.pass === true ? 'pass' : v.pass === false ? 'fail' : 'na';
        return el(
          'li',
          { class: kind },
          el('span', { class: `badge ${kind}`, text: label }),
          el('span', { class: 'v-name', text: v.name }),
          el('span', { class: 'v-detail', text: v.detail }),
        );
      }),
    );
  }

  bindExports() {
    const ex = this.exports;
    this.$('export-md').addEventListener('click', () => {
      // Many seeds: the ensemble's table, "median [p5–p95]" cells.
      const ensemble = this.seeds.bands();
      if (ensemble) ex.download('retry-storm-results-ensemble.md', ensemble.markdown(), 'text/markdown');
      else if (this.run) ex.download('retry-storm-results.md', this.run.markdown(lang()), 'text/markdown');
    });
    this.$('export-csv').addEventListener('click', () => {
      if (this.run) ex.download('retry-storm-per-second.csv', this.run.csv(), 'text/csv');
    });
    this.$('export-png').addEventListener('click', () =>
      ex.png(
        /** @type {HTMLCanvasElement} */ (this.$('chart')),
        this.costShown()
          ? 'retry-storm-cost-chart.png'
          : this.seeds.bands()
            ? 'retry-storm-chart-bands.png'
            : 'retry-storm-chart.png',
      ),
    );
    this.$('export-json').addEventListener('click', () => {
      ex.download('retry-storm-scenario.json', `${JSON.stringify(this.cfg, null, 2)}\n`, 'application/json');
    });
  }

  /**
   * Every bundled scenario in one list, the classic ones first; a cluster preset switches
   * to the cluster model. The list shows the preset loaded, and its prompt once the
   * scenario is edited, so the same preset can be chosen again; arrow keys on the closed
   * list load the next or the previous one.
   */
  renderPresets() {
    const select = /** @type {HTMLSelectElement} */ (this.$('presets'));
    /** @param {Preset} p */
    const option = (p) =>
      el('option', {
        value: p.id,
        'data-preset': p.id,
        text: p.title,
        title: p.model === 'classic' ? p.description : t('classic.clusterPreset', { description: p.description }),
      });
    /** @param {'classic' | 'cluster'} model */
    const group = (model) =>
      el(
        'optgroup',
        { label: t(`shell.${model}`) },
        ...this.hooks.presets.filter((p) => p.model === model).map(option),
      );
    select.replaceChildren(
      el('option', { value: '', text: t('classic.presetPick') }),
      group('classic'),
      group('cluster'),
    );
    select.value = this.presetId ?? '';
    select.onchange = () => {
      const p = this.hooks.presets.find((x) => x.id === select.value);
      if (p) this.hooks.loadPreset(p);
    };
  }
}
