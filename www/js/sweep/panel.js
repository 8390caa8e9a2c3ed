// The sweep panel, for either model: vary one or two numeric fields of the scenario
// (the list, each field by its label with its allowed range, from the engine: sweepFields), run
// every point over N seeds on the worker pool (lib/pool.js) with progress and Cancel,
// and show, streaming as points complete: one parameter as a line per strategy or tier
// with its p5–p95 band, two as a heatmap with a colour legend; the Pareto scatter of two
// metrics with the front and the recommended point; the recommendation under the
// goal and thresholds (chosen in words, choices.js; the CLI's syntax as an option). A click
// on any point opens that point's single scenario as its own link. The bundled sweeps
// (presets) load their scenario and definition; one with a comparison (the cluster's
// metastability map) runs the same sweep on the scenario pinned as A, side by side.
// Every number, text of a result and chart comes from the engine; this only lays out.
// The estimate and the summaries of the points are made in the pool's fold (a worker),
// which sends what the charts and exports read; the page's Plan turns it into an outcome.

import { ChartView } from '../lib/chartview.js';
import { banner, el } from '../lib/dom.js';
import { parseInteger, parseNumber } from '../lib/fields.js';
import { applyTexts, lang, t } from '../lib/i18n.js';
import { AskFirst, longest, nextTask } from '../lib/longwork.js';
import { Pool } from '../lib/pool.js';
import { urlFor } from '../lib/urlstate.js';
import { SweepChoices } from './choices.js';

/** @typedef {import('../lib/jobs.js').Wasm} Wasm */
/** @typedef {import('../../retrystorm-web.js').Plan} Plan */
/** @typedef {import('../../retrystorm-web.js').SweepOutcome} SweepOutcome */
/** @typedef {{path: string, label: string, min: number, max: number, integer: boolean}} Field */
/** @typedef {{path: string, values?: unknown[], range?: {from: unknown, to: unknown, steps: unknown, scale?: string}}} Param */
/** @typedef {{params: Param[], seeds?: unknown, seed_list?: unknown[], plot?: string, objective?: unknown, constraints?: unknown[], pareto?: unknown}} SweepDef */
/** @typedef {{id: string, model: string, scenario: string, compare?: string, title: string, description: string, sweep: any}} SweepPreset */

/**
 * One sweep on screen: the B side (the scenario edited) or A (the pinned one).
 * @typedef {object} Side
 * @property {'b' | 'a'} key
 * @property {HTMLElement} box
 * @property {HTMLElement} caption
 * @property {HTMLElement} recommend
 * @property {HTMLCanvasElement} canvas
 * @property {ChartView} view
 * @property {Plan | null} plan
 * @property {SweepOutcome | null} outcome
 */

/**
 * A form control with its label (the label's text from the page's catalogue).
 * @param {string} key
 * @param {Node} control
 */
const label = (key, control) => el('label', {}, el('span', { 'data-i18n': key }), ' ', control);

/** Default seeds per point when the reader starts a sweep from the form. */
const DEFAULT_SEEDS = 20;

export class SweepPanel {
  /**
   * @param {Wasm} wasm
   * @param {object} options
   * @param {'classic' | 'cluster'} options.model
   * @param {HTMLElement} options.root where the panel goes
   * @param {import('../lib/exports.js').Exports} options.exports
   * @param {() => unknown} options.scenario the scenario on screen (for the field list)
   * @param {(def: SweepDef | null) => void} options.onDefine a sweep was defined (or cleared): the app re-runs
   * @param {(preset: SweepPreset, scenario: unknown, compare: unknown) => void} options.onPreset loads a preset's scenarios
   * @param {(commit: boolean) => void} options.onChange the settings changed (the link follows)
   * @param {(name: string) => any} options.bundled a bundled scenario by id
   */
  constructor(wasm, { model, root, exports, scenario, onDefine, onPreset, onChange, bundled }) {
    this.wasm = wasm;
    this.model = model;
    this.exports = exports;
    this.scenario = scenario;
    this.onDefine = onDefine;
    this.onPreset = onPreset;
    this.onChange = onChange;
    this.bundled = bundled;
    this.pool = new Pool(wasm);
    // A long sweep asks first (lib/longwork.js): its notice above the sweep's results.
    this.ask = new AskFirst('sweep', model);
    /** When the running sweep started (performance.now()). */
    this.t0 = 0;
    /** The definition came from a link (or a preset), not from the form. */
    this.fromLink = false;
    /** Where the page says how the sweep stands (running, done, cancelled, error), for tests. */
    this.stateKey = `${model}Sweep`;
    /** @type {SweepDef | null} the definition running or shown (null: no sweep) */
    this.def = null;
    /** @type {string} what the last run was of, so an unchanged scenario does not run again */
    this.runKey = '';
    /** @type {Field[]} */
    this.fields = [];
    /** @type {unknown} the scenario whose fields and metrics the form lists */
    this.scenarioShown = undefined;
    this.presets = /** @type {SweepPreset[]} */ (wasm.sweepPresets(lang())).filter((p) => p.model === model);
    // The form and the output.
    this.presetSelect = el('select', { class: 'sweep-preset', 'data-i18n-aria-label': 'sweep.preset' });
    this.presetDesc = el('p', { class: 'hint sweep-preset-desc' });
    const loadPreset = el('button', { type: 'button', class: 'sweep-load', 'data-i18n': 'sweep.loadPreset' });
    loadPreset.addEventListener('click', () => this.loadPreset(this.presetSelect.value));
    this.presetSelect.addEventListener('change', () => this.describePreset());
    /** @type {{field: HTMLSelectElement, mode: HTMLSelectElement, list: HTMLInputElement, from: HTMLInputElement, to: HTMLInputElement, steps: HTMLInputElement, range: HTMLElement, row: HTMLElement}[]} */
    this.rows = [0, 1].map((i) => this.paramRow(i));
    this.seedsInput = el('input', { class: 'sweep-seeds', inputmode: 'numeric', value: String(DEFAULT_SEEDS) });
    this.choices = new SweepChoices(wasm, { label, onChange: () => {} });
    const runButton = el('button', { type: 'button', class: 'sweep-run', 'data-i18n': 'sweep.run' });
    runButton.addEventListener('click', () => this.submit());
    this.cancelButton = el('button', {
      type: 'button',
      class: 'sweep-cancel',
      'data-i18n': 'sweep.cancel',
      hidden: true,
    });
    this.cancelButton.addEventListener('click', () => this.pool.cancel());
    const clear = el('button', { type: 'button', class: 'sweep-clear', 'data-i18n': 'sweep.clear' });
    clear.addEventListener('click', () => this.define(null, true));
    this.error = el('p', { class: 'sweep-error problem', role: 'alert' });
    this.status = el('span', { class: 'sweep-status', role: 'status' });
    this.plotSelect = el('select', { class: 'sweep-plot', 'data-i18n-aria-label': 'sweep.plot' });
    this.plotSelect.addEventListener('change', () => {
      if (!this.def) return;
      this.def = { ...this.def, plot: this.plotSelect.value };
      this.onChange(true);
      this.redraw();
    });
    /** @type {Side[]} */
    this.sides = ['b', 'a'].map((key) => this.side(/** @type {'b' | 'a'} */ (key)));
    const pareto = this.buildPareto();
    this.paretoCanvas = pareto.canvas;
    this.paretoBox = pareto.box;
    this.paretoView = pareto.view;
    this.out = el(
      'div',
      { class: 'sweep-out', hidden: true },
      el(
        'div',
        { class: 'sweep-plot-head editor-only' },
        label('sweep.plot', this.plotSelect),
        el('span', { class: 'hint', 'data-i18n': 'sweep.clickHint' }),
      ),
      el('div', { class: 'sweep-sides' }, ...this.sides.map((s) => s.box)),
      this.paretoBox,
      el(
        'div',
        { class: 'row-actions editor-only' },
        this.exportButton('sweep.exportCsv', 'csv'),
        this.exportButton('sweep.exportJsonl', 'jsonl'),
        this.exportButton('sweep.exportText', 'text'),
      ),
    );
    this.section = el(
      'section',
      { class: 'sweep-panel' },
      el('h3', { 'data-i18n': 'sweep.title' }),
      el(
        'div',
        { class: 'sweep-form editor-only' },
        el('p', { class: 'hint', 'data-i18n': 'sweep.intro' }),
        el('div', { class: 'sweep-presets' }, label('sweep.preset', this.presetSelect), loadPreset),
        this.presetDesc,
        ...this.rows.map((r) => r.row),
        el('div', { class: 'sweep-choices' }, label('sweep.seeds', this.seedsInput)),
        this.choices.box,
        el('div', { class: 'row-actions' }, runButton, this.cancelButton, clear, this.status),
        this.error,
      ),
      this.ask.node,
      this.out,
    );
    root.append(this.section);
    this.relabel();
    addEventListener('resize', () => this.redraw());
  }

  /**
   * The form's row for the sweep's first or second setting: which setting, and its values
   * as a range (from, to, steps; linear or logarithmic) or a list.
   * @param {number} i
   */
  paramRow(i) {
    const field = el('select', { class: 'sweep-field', 'data-field': `params[${i}].path` });
    const mode = el(
      'select',
      { class: 'sweep-mode' },
      el('option', { value: 'linear', 'data-i18n': 'sweep.linear' }),
      el('option', { value: 'log', 'data-i18n': 'sweep.log' }),
      el('option', { value: 'list', 'data-i18n': 'sweep.list' }),
    );
    const list = el('input', { class: 'sweep-list', 'data-field': `params[${i}].values`, hidden: true });
    const from = el('input', { class: 'sweep-from', inputmode: 'decimal', 'data-field': `params[${i}].range.from` });
    const to = el('input', { class: 'sweep-to', inputmode: 'decimal', 'data-field': `params[${i}].range.to` });
    const steps = el('input', {
      class: 'sweep-steps',
      inputmode: 'numeric',
      value: '10',
      'data-field': `params[${i}].range.steps`,
    });
    const range = el(
      'span',
      { class: 'sweep-range' },
      label('sweep.from', from),
      label('sweep.to', to),
      label('sweep.steps', steps),
    );
    mode.addEventListener('change', () => {
      list.hidden = mode.value !== 'list';
      range.hidden = mode.value === 'list';
    });
    field.addEventListener('change', () => this.fillRange(i));
    const row = el(
      'div',
      { class: 'sweep-param' },
      label(i === 0 ? 'sweep.param1' : 'sweep.param2', field),
      label('sweep.values', mode),
      list,
      range,
    );
    return { field, mode, list, from, to, steps, range, row };
  }

  /** The Pareto chart of the sweep's two objectives, with its readout and click-to-load. */
  buildPareto() {
    const canvas = el('canvas', {
      class: 'sweep-pareto-chart',
      role: 'img',
      'data-i18n-aria-label': 'sweep.paretoAria',
    });
    const paretoReadout = el('div', { class: 'readout', hidden: true });
    const box = el(
      'div',
      { class: 'sweep-pareto-box' },
      el('h4', { 'data-i18n': 'sweep.paretoTitle' }),
      el('div', { class: 'chart-wrap' }, canvas, paretoReadout),
    );
    const view = new ChartView(
      canvas,
      paretoReadout,
      (c, options) => {
        const o = this.sides[0].outcome;
        return o?.hasPareto() ? /** @type {any} */ (o.drawPareto(c, options)) : null;
      },
      () => this.sides[0].outcome?.csv() ?? null,
    );
    this.clickable(canvas, view, () => this.sides[0].plan);
    return { canvas, box, view };
  }

  /**
   * A button that downloads the sweep's outcome in one format.
   * @param {string} key its label's catalogue key
   * @param {'csv' | 'jsonl' | 'text'} kind
   */
  exportButton(key, kind) {
    const b = el('button', { type: 'button', class: `sweep-export-${kind}`, 'data-i18n': key });
    b.addEventListener('click', () => {
      const o = this.sides[0].outcome;
      if (!o) return;
      const ext = kind === 'text' ? 'txt' : kind;
      const type = kind === 'csv' ? 'text/csv' : kind === 'jsonl' ? 'application/jsonl' : 'text/plain';
      this.exports.download(`retry-storm-${this.model}-sweep.${ext}`, o[kind](), type);
    });
    return b;
  }

  /**
   * One side's chart box.
   * @param {'b' | 'a'} key
   * @returns {Side}
   */
  side(key) {
    const canvas = el('canvas', { class: `sweep-chart sweep-chart-${key}`, role: 'img' });
    const readout = el('div', { class: 'readout', hidden: true });
    const caption = el('h4', { class: 'sweep-caption' });
    const recommend = el('p', { class: 'sweep-recommend' });
    const box = el(
      'div',
      { class: `sweep-side sweep-side-${key}`, hidden: key === 'a' },
      caption,
      recommend,
      el('div', { class: 'chart-wrap' }, canvas, readout),
    );
    /** @type {Side} */
    const side = { key, box, caption, recommend, canvas, view: /** @type {any} */ (null), plan: null, outcome: null };
    side.view = new ChartView(
      canvas,
      readout,
      (c, options) => (side.outcome ? /** @type {any} */ (side.outcome.draw(c, this.plotMetric(), options)) : null),
      () => side.outcome?.csv() ?? null,
    );
    this.clickable(canvas, side.view, () => side.plan);
    return side;
  }

  /**
   * A click (or Enter) on a point of `canvas` opens that point's scenario.
   * @param {HTMLCanvasElement} canvas
   * @param {ChartView} view
   * @param {() => Plan | null} plan
   */
  clickable(canvas, view, plan) {
    const handle = () =>
      /** @type {import('../../retrystorm-web.js').SweepHandle | null} */ (/** @type {unknown} */ (view.handle));
    canvas.addEventListener('click', (e) => {
      const r = canvas.getBoundingClientRect();
      const i = handle()?.pointAt(e.clientX - r.left, e.clientY - r.top);
      if (i !== undefined) this.openPoint(canvas, plan(), i);
    });
    canvas.addEventListener('mousemove', (e) => {
      const r = canvas.getBoundingClientRect();
      canvas.style.cursor = handle()?.pointAt(e.clientX - r.left, e.clientY - r.top) !== undefined ? 'pointer' : '';
    });
    canvas.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const i = handle()?.pointOf(view.pos);
      if (i !== undefined) this.openPoint(canvas, plan(), i);
    });
  }

  /**
   * Opens point `i`'s single scenario in a new tab: its own link.
   * @param {HTMLCanvasElement} canvas
   * @param {Plan | null} plan
   * @param {number} i
   */
  openPoint(canvas, plan, i) {
    if (!plan) return;
    const scenario = plan.pointScenario(i);
    const href = urlFor(this.wasm.encodeState({ model: this.model, [this.model]: scenario }));
    canvas.dataset.lastPointLink = href;
    window.open(href, '_blank', 'noopener');
  }

  /** Redraws the texts built here in the page's language. */
  relabel() {
    applyTexts(this.section);
    this.presets = /** @type {SweepPreset[]} */ (this.wasm.sweepPresets(lang())).filter((p) => p.model === this.model);
    const chosen = this.presetSelect.value;
    this.presetSelect.replaceChildren(...this.presets.map((p) => el('option', { value: p.id, text: p.title })));
    if (chosen) this.presetSelect.value = chosen;
    this.describePreset();
    this.choices.relabel();
    // The fields' and metrics' labels, in the new language.
    if (this.scenarioShown !== undefined) this.setScenario(this.scenarioShown);
    else for (const r of this.rows) this.fillFields(r.field, r === this.rows[1]);
    this.sides[1].caption.textContent = t('sweep.sideA');
    this.sides[0].caption.textContent = this.sides[1].box.hidden ? '' : t('sweep.sideB');
    this.showOutcomes();
  }

  describePreset() {
    this.presetDesc.textContent = this.presets.find((p) => p.id === this.presetSelect.value)?.description ?? '';
  }

  /**
   * The field list of the scenario on screen, each with its allowed range (the engine's).
   * @param {HTMLSelectElement} select
   * @param {boolean} optional the second parameter may be none
   */
  fillFields(select, optional) {
    const keep = select.value;
    const options = this.fields.map((f) =>
      el('option', { value: f.path, text: `${f.label}  [${f.min} … ${f.max}]${f.integer ? '' : ' ~'}` }),
    );
    if (optional) options.unshift(el('option', { value: '', text: t('sweep.none') }));
    select.replaceChildren(...options);
    if (keep && this.fields.some((f) => f.path === keep)) select.value = keep;
  }

  /**
   * Puts the chosen field's allowed range in the range inputs.
   * @param {number} i
   */
  fillRange(i) {
    const r = this.rows[i];
    const f = this.fields.find((x) => x.path === r.field.value);
    if (!f) return;
    r.from.value = String(f.min);
    r.to.value = String(Math.min(f.max, f.min === 0 ? 100 : f.min * 10));
  }

  /**
   * Reads the scenario's fields (the app calls this whenever a valid scenario shows).
   * @param {unknown} scenario
   */
  setScenario(scenario) {
    this.scenarioShown = scenario;
    try {
      this.fields = this.wasm.sweepFields(this.model, scenario, lang());
      this.choices.setMetrics(this.wasm.sweepMetrics(this.model, scenario, lang()));
    } catch {
      return;
    }
    this.fillFields(this.rows[0].field, false);
    this.fillFields(this.rows[1].field, true);
    if (!this.rows[0].from.value) this.fillRange(0);
  }

  /** The definition the form describes, with the trade-off controls parsed by the engine. */
  formDef() {
    /** @type {Param[]} */
    const params = [];
    for (const r of this.rows) {
      if (!r.field.value) continue;
      if (r.mode.value === 'list') {
        params.push({ path: r.field.value, values: r.list.value.split(',').map((v) => parseNumber(v)) });
      } else {
        params.push({
          path: r.field.value,
          range: {
            from: parseNumber(r.from.value),
            to: parseNumber(r.to.value),
            steps: parseInteger(r.steps.value),
            scale: r.mode.value,
          },
        });
      }
    }
    /** @type {SweepDef} */
    const def = { params, seeds: parseInteger(this.seedsInput.value) };
    if (this.def?.plot) def.plot = this.def.plot;
    return /** @type {SweepDef} */ (this.choices.apply(def));
  }

  /** "Run sweep": the form's definition, checked by the engine when it plans. */
  submit() {
    this.error.textContent = '';
    this.fromLink = false;
    try {
      this.define(this.formDef(), true);
    } catch (e) {
      this.fail(/** @type {Error & {field?: string}} */ (e));
    }
  }

  /**
   * Shows an error naming its field, at the field when it is one of the form's.
   * @param {Error & {field?: string}} err
   */
  fail(err) {
    this.error.textContent = err.message;
    this.error.dataset.field = err.field ?? '';
    // A link's sweep that cannot run: the page shows its scenario, and says why in the banner too.
    if (this.fromLink) banner(t('sweep.badLink', { message: err.message }));
  }

  /**
   * Sets the definition (null: no sweep) and asks the app to run it.
   * @param {SweepDef | null} def
   * @param {boolean} commit
   */
  define(def, commit) {
    this.def = def;
    this.runKey = '';
    if (!def) this.hide();
    this.onDefine(def);
    this.onChange(commit);
  }

  /**
   * Loads a bundled sweep: its scenario (and the one it compares with), its definition.
   * @param {string} id
   */
  loadPreset(id) {
    const p = this.presets.find((x) => x.id === id);
    if (!p) return;
    this.restore(p.sweep);
    this.onPreset(p, this.bundled(p.scenario), p.compare ? this.bundled(p.compare) : null);
  }

  /** The definition for the share link (null: no sweep). */
  linkState() {
    return this.def;
  }

  /**
   * Restores a link's definition when it is a sweep (it has parameters); anything else
   * (none, or an ensemble's `{seeds}`) is not this panel's.
   * @param {any} def
   * @returns {boolean} whether the definition is a sweep
   */
  restore(def) {
    this.error.textContent = '';
    const sweep = def && Array.isArray(def.params) && def.params.length > 0;
    this.fromLink = Boolean(sweep);
    this.def = sweep ? def : null;
    this.runKey = '';
    if (!sweep) {
      this.hide();
      return false;
    }
    this.fillForm(def);
    return true;
  }

  /**
   * Fills the form from a definition (a link's or a preset's).
   * @param {SweepDef} def
   */
  fillForm(def) {
    this.rows.forEach((r, i) => {
      const p = def.params[i];
      if (!p) {
        r.field.value = '';
        return;
      }
      if (![...r.field.options].some((o) => o.value === p.path))
        r.field.append(el('option', { value: p.path, text: p.path }));
      r.field.value = p.path;
      const mode = p.values ? 'list' : p.range?.scale === 'log' ? 'log' : 'linear';
      r.mode.value = mode;
      r.mode.dispatchEvent(new Event('change'));
      r.list.value = (p.values ?? []).join(', ');
      r.from.value = String(p.range?.from ?? '');
      r.to.value = String(p.range?.to ?? '');
      r.steps.value = String(p.range?.steps ?? '');
    });
    this.seedsInput.value = String(def.seeds ?? def.seed_list?.length ?? 1);
    try {
      this.choices.fill(def);
    } catch {
      // The plan names the problem when it runs.
    }
  }

  /** True when a sweep is defined. */
  active() {
    return this.def !== null;
  }

  hide() {
    this.pool.cancel();
    this.ask.clear();
    this.out.hidden = true;
    this.status.textContent = '';
    this.cancelButton.hidden = true;
    delete document.body.dataset[this.stateKey];
  }

  /** The metric the charts show: the definition's `plot`, else its objective's, else the first. */
  plotMetric() {
    return this.def?.plot || this.plotSelect.value || '';
  }

  /**
   * Runs the sweep on `scenario` (valid) and, when given, on `compare` (the scenario
   * pinned as A), one after the other on the pool; nothing when no sweep is defined or
   * the same one already ran.
   * @param {unknown} scenario
   * @param {unknown} [compare]
   */
  async update(scenario, compare = null) {
    this.setScenario(scenario);
    if (!this.def) return;
    const key = JSON.stringify([scenario, compare, this.def]);
    if (key === this.runKey) return;
    this.runKey = key;
    this.pool.cancel();
    this.error.textContent = '';
    // Work under way from here, planning and estimate first (an embed is not ready until it ends).
    document.body.dataset[this.stateKey] = 'running';
    const def = this.def;
    /** @type {[Side, unknown][]} */
    const jobs = [[this.sides[0], scenario]];
    if (compare) jobs.push([this.sides[1], compare]);
    /** @type {Plan[]} */
    const plans = [];
    // Planning a large cluster sweep takes a while: the page gets the main thread back
    // between the plans and while the estimate is made, and a newer request wins.
    const stale = () => this.runKey !== key || this.def !== def;
    try {
      for (const [, sc] of jobs) {
        if (plans.length) await nextTask();
        if (stale()) break;
        plans.push(new this.wasm.Plan(this.model, sc, def));
      }
    } catch (e) {
      for (const p of plans) p.free();
      this.ask.clear();
      this.fail(/** @type {Error & {field?: string}} */ (e));
      this.out.hidden = true;
      document.body.dataset[this.stateKey] = 'error';
      return;
    }
    // Both sides run one after the other: the notice gives the longer one's figures,
    // estimated in the pool's fold (a cluster sweep's estimate runs prefixes of points).
    const estimate = (/** @type {string} */ l) =>
      Promise.all(jobs.map(([, sc]) => this.pool.estimate(this.model, sc, def, l))).then(longest);
    const again = () => {
      this.runKey = '';
      this.update(scenario, compare);
    };
    const allowed = await this.ask.check(key, estimate, again, stale);
    if (!allowed) {
      for (const p of plans) p.free();
      if (allowed === null) return;
      // Nothing starts; what is on screen (the last sweep's points, if any) stays.
      this.cancelButton.hidden = true;
      this.status.textContent = '';
      delete document.body.dataset[this.stateKey];
      return;
    }
    for (const s of this.sides) {
      s.plan?.free();
      s.outcome?.free();
      s.plan = null;
      s.outcome = null;
    }
    jobs.forEach(([s], i) => {
      s.plan = plans[i];
    });
    this.sides[1].box.hidden = !compare;
    this.sides[0].caption.textContent = compare ? t('sweep.sideB') : '';
    this.out.hidden = false;
    this.cancelButton.hidden = false;
    document.body.dataset[this.stateKey] = 'running';
    const total = plans.reduce((n, p) => n + p.items(), 0);
    const t0 = performance.now();
    this.t0 = t0;
    delete document.body.dataset[`${this.stateKey}FirstMs`];
    let before = 0;
    try {
      for (const [side, sc] of jobs) {
        const plan = /** @type {Plan} */ (side.plan);
        this.status.textContent = t('sweep.progress', { done: before, total });
        const seeds = plan.seeds();
        await this.pool.run(plan, this.model, sc, def, {
          progress: (done) => {
            if (side.plan === plan) this.status.textContent = t('sweep.progress', { done: before + done, total });
          },
          // Only when a point more is complete: the seeds of a point in progress change nothing drawn.
          want: (done) => (Math.floor(done / seeds) > (side.outcome?.done() ?? 0) ? { fold: 'sweep' } : null),
          show: (a) => {
            if (side.plan === plan && a.flat) this.take(side, plan.sweepFrom(a.flat));
          },
        });
        before += plan.items();
      }
      this.status.textContent = t('sweep.done', { total, s: ((performance.now() - t0) / 1000).toFixed(2) });
      // For the benchmark (docs/performance.md): the whole sweep's time.
      document.body.dataset[`${this.stateKey}Ms`] = String(Math.round(performance.now() - t0));
      document.body.dataset[this.stateKey] = 'done';
    } catch (e) {
      if (this.def !== def) return;
      const err = /** @type {{cancelled?: boolean, message?: string}} */ (e);
      this.status.textContent = err.cancelled ? t('sweep.cancelled') : String(err.message);
      document.body.dataset[this.stateKey] = err.cancelled ? 'cancelled' : 'error';
    } finally {
      if (this.def === def) this.cancelButton.hidden = true;
    }
  }

  /**
   * Shows a side's points so far and redraws it.
   * @param {Side} side
   * @param {SweepOutcome} o
   */
  take(side, o) {
    side.outcome?.free();
    side.outcome = o;
    this.showOutcomes();
    // For the benchmark: the time to the first point on screen.
    const first = `${this.stateKey}FirstMs`;
    if (!document.body.dataset[first]) document.body.dataset[first] = String(Math.round(performance.now() - this.t0));
  }

  /** The plot choices, the recommendations and the charts of the sides with results. */
  showOutcomes() {
    const first = this.sides[0].outcome;
    if (!first) return;
    const metrics = first.metrics();
    if (this.plotSelect.options.length !== metrics.length) {
      this.plotSelect.replaceChildren(...metrics.map((m) => el('option', { value: m, text: m })));
    }
    const plot = this.plotMetric();
    const bare = plot.replace(/^\w+\((.*)\)$/, '$1');
    if (metrics.includes(bare)) this.plotSelect.value = bare;
    for (const s of this.sides) {
      if (!s.outcome) continue;
      s.canvas.setAttribute('aria-label', t('sweep.chartAria', { metric: plot }));
      this.recommend(s);
      s.view.schedule();
    }
    this.paretoBox.hidden = !first.hasPareto();
    if (!this.paretoBox.hidden) this.paretoView.schedule();
  }

  /**
   * The side's recommendation, worded in the page's language from the engine's parts.
   * @param {Side} side
   */
  recommend(side) {
    const r = side.outcome?.recommendation();
    const o = side.outcome;
    if (!r || !o) {
      side.recommend.textContent = '';
      return;
    }
    const partial = o.done() < o.total() ? ` ${t('sweep.partial', { done: o.done(), total: o.total() })}` : '';
    const goal = t(r.goal === 'max' ? 'sweep.maximise' : 'sweep.minimise');
    const subject = r.subject.length ? t('sweep.subject', { list: r.subject.join(t('sweep.and')) }) : '';
    side.recommend.textContent =
      r.point === undefined || r.point === null
        ? t('sweep.noneFeasible', { goal, metric: r.metric, subject }) + partial
        : `${t('sweep.recommended', { at: r.at, goal, metric: r.metric, value: r.value, subject })} ${t('sweep.caveat', { seeds: r.seeds })}${partial}`;
    side.recommend.dataset.at = r.at;
  }

  redraw() {
    if (this.out.hidden) return;
    for (const s of this.sides) if (s.outcome) s.view.schedule();
    if (!this.paretoBox.hidden) this.paretoView.schedule();
  }
}
