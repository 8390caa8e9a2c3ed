// The "seeds" control and the ensemble's results, for either model: with N = 1 (the
// default) nothing changes; with N > 1 the scenario runs over N seeds on the worker
// pool (lib/pool.js), and this shows, streaming as the seeds finish: progress and
// Cancel, the counted verdicts ("PASS on 997 of 1000 seeds", "recovered in 12 of 40
// seeds"), the results table with "median [p5–p95]" cells, a distribution plot per
// metric (click a seed's dot to open that single run), and the Markdown and CSV exports.
// The model's main chart draws the result's bands (`bands()`): each series' median line
// over its p5–p95 band, redrawn (`onResult`) as the seeds stream in.
// Every number and text of the results comes from the engine (the wasm Plan). The pool's
// fold summarises in a worker and sends what this shows (the spreads, the counts, the
// distributed metric's per-seed values), from which the page's PlanResult draws; the
// estimate and the per-seed CSV come from there too, so the main thread stays free.

import { chartTheme } from '../lib/chartview.js';
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { AskFirst } from '../lib/longwork.js';
import { Pool } from '../lib/pool.js';
import { renderTable } from '../lib/table.js';
import { urlFor } from '../lib/urlstate.js';

/** @typedef {import('../lib/jobs.js').Wasm} Wasm */
/** @typedef {import('../../retrystorm-web.js').Plan} Plan */
/** @typedef {import('../../retrystorm-web.js').PlanResult} PlanResult */
/** @typedef {import('../lib/pool.js').Answer} Answer */
/** @typedef {{seeds?: number, seed_list?: unknown[]}} SweepDef */

export class SeedsPanel {
  /**
   * @param {Wasm} wasm
   * @param {object} options
   * @param {'classic' | 'cluster'} options.model
   * @param {HTMLElement} options.controls where the seeds control goes (editor only)
   * @param {HTMLElement} options.output where the ensemble's results go
   * @param {import('../lib/exports.js').Exports} options.exports
   * @param {(ensemble: boolean) => void} options.onMode the app hides its single-run table while an ensemble shows
   * @param {(commit: boolean) => void} options.onChange the settings changed (the link follows)
   * @param {() => void} options.onResult the result changed (or went): the main chart redraws with `bands()`
   */
  constructor(wasm, { model, controls, output, exports, onMode, onChange, onResult }) {
    this.wasm = wasm;
    this.model = model;
    this.exports = exports;
    this.onMode = onMode;
    this.onChange = onChange;
    this.onResult = onResult;
    this.pool = new Pool(wasm);
    /** Where the page says how the ensemble stands (running, done, cancelled, error), for tests. */
    this.stateKey = `${model}Ensemble`;
    /** @type {SweepDef | null} the ensemble settings as typed (null: one seed) */
    this.def = null;
    /** @type {SweepDef | null} the last settings the engine accepted: what the link carries */
    this.linkDef = null;
    /** @type {Plan | null} */
    this.plan = null;
    /** The pool's run of the plan on screen (its fold answers for it). */
    this.runId = 0;
    /** The latest update: an older one that waited for its estimate gives way. */
    this.ticket = 0;
    /** @type {PlanResult | null} the page's copy of the result so far */
    this.result = null;
    /** @type {unknown} the scenario of the plan on screen */
    this.scenario = null;
    /** The metric the reader chose for the distribution ('': the fold's first choice). */
    this.metric = '';
    /** The metric whose per-seed values `result` carries (the one drawn). */
    this.shownMetric = '';
    /** The (scenario, settings) of the plan on screen, as JSON text. */
    this.key = '';
    this.input = el('input', { class: 'seeds-n', inputmode: 'numeric', value: '1', 'aria-label': t('seeds.label') });
    this.input.addEventListener('input', () => this.edited(false));
    this.input.addEventListener('change', () => this.edited(true));
    this.error = el('span', { class: 'seeds-error problem', role: 'alert' });
    this.status = el('span', { class: 'seeds-status', role: 'status' });
    this.cancelButton = el('button', { type: 'button', class: 'seeds-cancel', text: t('seeds.cancel'), hidden: true });
    this.cancelButton.addEventListener('click', () => this.pool.cancel());
    controls.append(
      el(
        'div',
        { class: 'seeds-control' },
        el('label', {}, `${t('seeds.label')} `, this.input),
        el('span', { class: 'hint', text: t('seeds.hint') }),
        this.error,
        this.status,
        this.cancelButton,
      ),
    );
    this.recovery = el('p', { class: 'seeds-recovery' });
    this.verdicts = el('ul', { class: 'verdicts seeds-verdicts' });
    this.tables = el('div', { class: 'seeds-tables' });
    this.select = el('select', { class: 'seeds-metric', 'aria-label': t('seeds.metric') });
    this.select.addEventListener('change', () => {
      this.metric = this.select.value;
      this.refresh();
    });
    this.canvas = el('canvas', { class: 'seeds-dist', 'aria-label': t('seeds.distAria') });
    this.canvas.addEventListener('click', (e) => this.openSeed(e));
    this.canvas.addEventListener('mousemove', (e) => {
      this.canvas.style.cursor = this.seedAt(e) ? 'pointer' : '';
    });
    const md = el('button', { type: 'button', class: 'seeds-md', text: t('seeds.exportMd') });
    md.addEventListener('click', () => {
      if (this.result)
        this.exports.download(`retry-storm-${model}-ensemble.md`, this.result.markdown(), 'text/markdown');
    });
    const csv = el('button', { type: 'button', class: 'seeds-csv', text: t('seeds.exportCsv') });
    csv.addEventListener('click', async () => {
      // Every per-seed value: the fold's, which has them all.
      if (!this.result) return;
      const a = await this.pool.ask({ fold: 'csv', run: this.runId }).catch(() => null);
      if (a?.run === this.runId && a.blob)
        this.exports.download(`retry-storm-${model}-per-seed.csv`, a.blob, 'text/csv');
    });
    this.out = el(
      'section',
      { class: 'seeds-out', hidden: true },
      el('h3', { text: t('seeds.title') }),
      this.recovery,
      this.verdicts,
      this.tables,
      el(
        'div',
        { class: 'seeds-dist-head editor-only' },
        el('label', {}, `${t('seeds.metric')} `, this.select),
        el('span', { class: 'hint', text: t('seeds.distHint') }),
      ),
      el('div', { class: 'editor-only' }, this.canvas),
      el('div', { class: 'row-actions editor-only' }, md, csv),
    );
    // A long ensemble asks first (lib/longwork.js): its notice where the results go.
    this.ask = new AskFirst('ensemble', model);
    output.append(this.ask.node, this.out);
    addEventListener('resize', () => this.drawDistribution());
  }

  /** The ensemble settings for the share link (null: one seed, the single run). */
  linkState() {
    return this.linkDef;
  }

  /**
   * Restores the settings of a link (null: one seed).
   * @param {SweepDef | null | undefined} def
   */
  restore(def) {
    this.def = def ?? null;
    this.linkDef = this.def;
    this.input.value = String(this.def?.seeds ?? this.def?.seed_list?.length ?? 1);
    this.error.textContent = '';
  }

  /** True when the settings ask for more than one seed. */
  active() {
    return this.def !== null;
  }

  /** The ensemble the main chart draws as bands: its result so far, while one shows (else null). */
  bands() {
    return this.def && !this.out.hidden ? this.result : null;
  }

  /** @param {boolean} commit */
  edited(commit) {
    const text = this.input.value.trim();
    const n = Number(text);
    // The engine judges the count (Plan's "seeds" error); only the blank field and one
    // seed mean "no ensemble" here.
    this.def = text === '' || n === 1 ? null : { seeds: /^\d+$/.test(text) ? n : /** @type {any} */ (text) };
    if (!this.def) this.linkDef = null;
    this.onChange(commit);
  }

  /**
   * Runs the ensemble of `scenario` (a valid scenario) when the settings ask for one;
   * with one seed, hides the ensemble's results and gives the page back to the single run.
   * @param {unknown} scenario
   */
  async update(scenario) {
    // The same settings again (a field's change on blur repeats its input's): the ensemble
    // running or shown stands, so its result (the chart's bands, the exports) stays.
    const key = JSON.stringify([scenario, this.def]);
    const state = document.body.dataset[this.stateKey];
    if (this.def && key === this.key && (state === 'running' || state === 'done')) return;
    this.pool.cancel();
    // Whatever was on screen is being replaced: the same settings again are new work.
    this.key = '';
    const ticket = ++this.ticket;
    this.error.textContent = '';
    if (!this.def) {
      this.ask.clear();
      this.setMode(false);
      return;
    }
    /** @type {Plan} */
    let plan;
    try {
      plan = new this.wasm.Plan(this.model, scenario, this.def);
    } catch (e) {
      const err = /** @type {Error & {field?: string}} */ (e);
      this.error.textContent = err.message;
      this.error.dataset.field = err.field ?? '';
      this.ask.clear();
      this.setMode(false);
      return;
    }
    this.linkDef = this.def;
    const def = this.def;
    // Work under way from here, its estimate first (an embed is not ready until it ends).
    document.body.dataset[this.stateKey] = 'running';
    // The estimate runs in the pool's fold (a cluster scenario's estimate runs its prefix).
    const allowed = await this.ask.check(
      key,
      (l) => this.pool.estimate(this.model, scenario, def, l),
      () => this.update(scenario),
      () => ticket !== this.ticket,
    );
    if (!allowed) {
      plan.free();
      if (allowed === null) return;
      // Nothing starts: the single run's results show until the reader says to run it.
      this.key = '';
      this.setMode(false);
      return;
    }
    this.key = key;
    this.plan?.free();
    this.plan = plan;
    // The last result is another scenario's: the chart draws no bands until this one's come.
    this.result?.free();
    this.result = null;
    this.scenario = scenario;
    this.setMode(true);
    const total = plan.items();
    const t0 = performance.now();
    this.cancelButton.hidden = false;
    this.status.textContent = t('seeds.progress', { done: 0, total });
    document.body.dataset[this.stateKey] = 'running';
    const running = this.pool.run(plan, this.model, scenario, def, {
      progress: (done) => {
        if (this.plan === plan) this.status.textContent = t('seeds.progress', { done, total });
      },
      want: () => ({ fold: 'ensemble', metric: this.metric }),
      show: (a) => {
        if (this.plan === plan) this.show(a);
      },
    });
    this.runId = this.pool.runId;
    try {
      await running;
      this.status.textContent = t('seeds.done', { total, s: ((performance.now() - t0) / 1000).toFixed(2) });
      document.body.dataset[this.stateKey] = 'done';
    } catch (e) {
      if (this.plan !== plan) return;
      const err = /** @type {{cancelled?: boolean, done?: number, message?: string}} */ (e);
      this.status.textContent = err.cancelled
        ? t('seeds.cancelled', { done: err.done ?? 0, total })
        : String(err.message);
      document.body.dataset[this.stateKey] = err.cancelled ? 'cancelled' : 'error';
    } finally {
      if (this.plan === plan) this.cancelButton.hidden = true;
    }
  }

  /** @param {boolean} on */
  setMode(on) {
    this.out.hidden = !on;
    this.onMode(on);
    this.onResult();
    if (!on) {
      this.status.textContent = '';
      this.cancelButton.hidden = true;
      delete document.body.dataset[this.stateKey];
    }
  }

  /**
   * Shows the fold's summary of the result so far (what crosses: the page's copy).
   * @param {Answer} a
   */
  show(a) {
    if (!a.flat || a.run !== this.runId) return;
    const result = this.wasm.PlanResult.fromFlat(a.flat, Boolean(a.complete));
    this.result?.free();
    this.result = result;
    this.shownMetric = a.metric ?? '';
    this.tables.replaceChildren(
      ...result.tables().map((data) => {
        const table = el('table', { class: 'results seeds-table' });
        renderTable(table, data);
        return el('div', { class: 'scroll' }, table);
      }),
    );
    this.recovery.textContent = result.recoveryLine() ?? '';
    this.recovery.hidden = !this.recovery.textContent;
    this.verdicts.replaceChildren(
      ...result.verdicts().map((v) => {
        const kind = v.of === 0 ? 'na' : v.pass === v.of ? 'pass' : v.pass === 0 ? 'fail' : 'mixed';
        return el(
          'li',
          { class: kind },
          el('span', { class: 'v-name', text: v.name }),
          el('span', { class: 'v-detail', text: v.text }),
        );
      }),
    );
    const metrics = result.metrics();
    if (!metrics.includes(this.metric)) this.metric = this.shownMetric;
    if (this.select.options.length !== metrics.length || this.select.value !== this.metric) {
      this.select.replaceChildren(
        ...metrics.map((m) => el('option', { value: m, text: m, selected: m === this.metric })),
      );
    }
    this.drawDistribution();
    this.onResult();
  }

  /** Asks the fold for the result with the chosen metric's per-seed values, and shows it. */
  async refresh() {
    if (!this.result) return;
    const plan = this.plan;
    const a = await this.pool.ask({ fold: 'ensemble', run: this.runId, metric: this.metric }).catch(() => null);
    if (a && this.plan === plan) this.show(a);
  }

  drawDistribution() {
    if (!this.result || this.out.hidden || !this.shownMetric) return;
    this.canvas.style.height = `${this.result.distributionHeight(this.shownMetric)}px`;
    this.result.drawDistribution(this.canvas, this.shownMetric, { theme: chartTheme() });
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn || 0) + 1);
  }

  /**
   * The seed under the pointer, if any.
   * @param {MouseEvent} e
   */
  seedAt(e) {
    if (!this.result) return undefined;
    const r = this.canvas.getBoundingClientRect();
    return this.result.seedAt(this.shownMetric, r.width, e.clientX - r.left, e.clientY - r.top);
  }

  /**
   * Opens the single run of the clicked seed in a new tab: its own link.
   * @param {MouseEvent} e
   */
  openSeed(e) {
    const seed = this.seedAt(e);
    if (seed === undefined || !this.scenario) return;
    const href = this.seedLink(seed);
    this.canvas.dataset.lastSeedLink = href;
    window.open(href, '_blank', 'noopener');
  }

  /**
   * The link of one seed's single run of the scenario on screen.
   * @param {string} seed
   */
  seedLink(seed) {
    const scenario = { .../** @type {object} */ (this.scenario), seed };
    return urlFor(this.wasm.encodeState({ model: this.model, [this.model]: scenario }));
  }
}
