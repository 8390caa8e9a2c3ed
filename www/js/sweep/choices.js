// The sweep's goal and thresholds, chosen from lists in words ("maximise S6 · delivery";
// "S6 · overload at most 2 s in 95% of the seeds"): the metrics, goals, comparisons and
// shares come from the engine (sweepMetrics, sweepChoiceWords), and the engine turns
// the choices into the definition (withSweepForm) and back (sweepForm). The CLI's text
// syntax stays under "as the CLI writes it", for what the lists cannot say (another
// statistic, the Pareto axes); while that part is open its texts are the definition.

import { el } from '../lib/dom.js';
import { applyTexts, lang, t } from '../lib/i18n.js';

/** @typedef {import('../lib/jobs.js').Wasm} Wasm */
/** @typedef {{metric: string, label: string, unit: string, symbol: string}} Metric */
/** @typedef {{value: string, label: string}} Choice */
/** @typedef {{metric: string, op: string, value: number, share: string}} Threshold */
/** @typedef {{objective?: {metric: string, goal: string}, constraints: Threshold[]}} Form */

/**
 * A `<select>` of `choices`, `value` chosen when it is one of them.
 * @param {string} cls
 * @param {Choice[]} choices
 * @param {string} [value]
 */
function select(cls, choices, value) {
  const s = el('select', { class: cls }, ...choices.map((c) => el('option', { value: c.value, text: c.label })));
  if (value !== undefined && choices.some((c) => c.value === value)) s.value = value;
  return s;
}

/** The goal, the thresholds and the CLI's syntax of a sweep form. */
export class SweepChoices {
  /**
   * @param {Wasm} wasm
   * @param {{label: (key: string, control: Node) => HTMLElement, onChange: () => void}} options
   */
  constructor(wasm, { label, onChange }) {
    this.wasm = wasm;
    this.onChange = onChange;
    /** @type {Metric[]} the metrics of the scenario on screen */
    this.metrics = [];
    this.words = wasm.sweepChoiceWords(lang());
    this.goal = el('select', { class: 'sweep-goal' });
    this.metric = el('select', { class: 'sweep-goal-metric', 'data-i18n-aria-label': 'sweep.goalMetric' });
    this.goal.addEventListener('change', () => this.showGoal());
    this.list = el('div', { class: 'sweep-thresholds' });
    const add = el('button', { type: 'button', class: 'sweep-add-threshold', 'data-i18n': 'sweep.addThreshold' });
    add.addEventListener('click', () => {
      const first = this.metrics[0];
      if (first) this.addThreshold({ metric: first.metric, op: '<=', value: 0, share: 'p95' });
    });
    this.objective = el('input', { class: 'sweep-objective', spellcheck: false, 'data-field': 'objective' });
    this.constraints = el('textarea', {
      class: 'sweep-constraints',
      rows: 2,
      spellcheck: false,
      'data-field': 'constraints',
    });
    this.pareto = el('input', { class: 'sweep-pareto', spellcheck: false, 'data-field': 'pareto' });
    /** While open, the texts (the CLI's syntax) are the definition's goal and thresholds. */
    this.advanced = /** @type {HTMLDetailsElement} */ (
      el(
        'details',
        { class: 'sweep-advanced' },
        el('summary', { 'data-i18n': 'sweep.advanced' }),
        el(
          'div',
          { class: 'sweep-choices' },
          label('sweep.objective', this.objective),
          label('sweep.constraints', this.constraints),
          label('sweep.paretoAxes', this.pareto),
          el('span', { class: 'hint', 'data-i18n': 'sweep.syntax' }),
        ),
      )
    );
    // Opening it shows the lists' choices in the CLI's syntax; closing it reads them back.
    this.advanced.addEventListener('toggle', () => this.toggled());
    this.box = el(
      'div',
      { class: 'sweep-trade-off' },
      el('div', { class: 'sweep-goal-row' }, label('sweep.goal', this.goal), this.metric),
      el('div', { class: 'sweep-thresholds-head' }, el('span', { 'data-i18n': 'sweep.thresholds' }), add),
      this.list,
      this.advanced,
    );
    this.fillGoals();
  }

  /** The goal's choices: none, or maximise / minimise. */
  fillGoals() {
    const keep = this.goal.value;
    this.words = this.wasm.sweepChoiceWords(lang());
    this.goal.replaceChildren(
      el('option', { value: '', text: t('sweep.noGoal') }),
      ...this.words.goals.map((/** @type {Choice} */ g) => el('option', { value: g.value, text: g.label })),
    );
    this.goal.value = keep;
    this.showGoal();
  }

  showGoal() {
    this.metric.hidden = !this.goal.value;
  }

  /**
   * The metrics of the scenario on screen, labelled in the page's language.
   * @param {Metric[]} metrics
   */
  setMetrics(metrics) {
    this.metrics = metrics;
    const form = this.read();
    this.fillMetric(this.metric, form.objective?.metric);
    this.show(form);
  }

  /**
   * Fills a metric list, keeping `value` (listed as it is when the scenario has no such metric).
   * @param {HTMLSelectElement} s
   * @param {string} [value]
   */
  fillMetric(s, value) {
    const options = this.metrics.map((m) => el('option', { value: m.metric, text: m.label }));
    if (value && !this.metrics.some((m) => m.metric === value)) options.push(el('option', { value, text: value }));
    s.replaceChildren(...options);
    if (value) s.value = value;
  }

  /**
   * Adds a threshold's row.
   * @param {Threshold} c
   */
  addThreshold(c) {
    const metric = el('select', { class: 'sweep-threshold-metric', 'data-i18n-aria-label': 'sweep.thresholdMetric' });
    this.fillMetric(metric, c.metric);
    const op = select('sweep-threshold-op', this.words.ops, c.op);
    const value = el('input', { class: 'sweep-threshold-value', inputmode: 'decimal', value: String(c.value) });
    const symbol = el('span', { class: 'sweep-threshold-symbol' });
    const share = select('sweep-threshold-share', this.words.shares, c.share);
    const remove = el('button', {
      type: 'button',
      class: 'sweep-remove-threshold',
      text: '×',
      'data-i18n-aria-label': 'sweep.removeThreshold',
    });
    const row = el('div', { class: 'sweep-threshold' }, metric, op, value, symbol, share, remove);
    const unit = () => {
      symbol.textContent = this.metrics.find((m) => m.metric === metric.value)?.symbol ?? '';
    };
    metric.addEventListener('change', unit);
    remove.addEventListener('click', () => {
      row.remove();
      this.onChange();
    });
    unit();
    applyTexts(row);
    this.list.append(row);
  }

  /**
   * The lists' choices.
   * @returns {Form}
   */
  read() {
    /** @type {Form} */
    const form = { constraints: [] };
    if (this.goal.value && this.metric.value) form.objective = { metric: this.metric.value, goal: this.goal.value };
    for (const row of this.list.querySelectorAll('.sweep-threshold')) {
      const q = (/** @type {string} */ c) => /** @type {HTMLInputElement} */ (row.querySelector(c)).value;
      form.constraints.push({
        metric: q('.sweep-threshold-metric'),
        op: q('.sweep-threshold-op'),
        // An unreadable number goes to the engine as it is, which names the threshold.
        value: /** @type {number} */ (/** @type {unknown} */ (Number(q('.sweep-threshold-value').trim() || 'x'))),
        share: q('.sweep-threshold-share'),
      });
    }
    return form;
  }

  /**
   * Shows `form` in the lists.
   * @param {Form} form
   */
  show(form) {
    this.goal.value = form.objective?.goal ?? '';
    this.fillMetric(this.metric, form.objective?.metric);
    this.showGoal();
    this.list.replaceChildren();
    for (const c of form.constraints) this.addThreshold(c);
  }

  /**
   * Shows a definition's goal, thresholds and Pareto axes: in the lists when they can say
   * them, else under the CLI's syntax, opened.
   * @param {any} def
   */
  fill(def) {
    const texts = this.wasm.sweepChoices(def);
    this.objective.value = texts.objective;
    this.constraints.value = texts.constraints.join('\n');
    this.pareto.value = texts.pareto;
    const form = this.wasm.sweepForm(def);
    if (form) this.show(form);
    this.advanced.open = !form;
  }

  /**
   * `def` with the goal, the thresholds and the Pareto axes chosen here (parsed and
   * checked by the engine, which names the control of a bad one).
   * @param {any} def
   */
  apply(def) {
    const texts = {
      objective: this.objective.value,
      constraints: this.constraints.value.split('\n'),
      pareto: this.pareto.value,
    };
    if (this.advanced.open) return this.wasm.withSweepChoices(def, texts);
    const axes = this.wasm.withSweepChoices(def, { objective: '', constraints: [], pareto: texts.pareto });
    return this.wasm.withSweepForm(axes, this.read());
  }

  /** The CLI's syntax opened (written from the lists) or closed (read back into them). */
  toggled() {
    try {
      const def = { params: [] };
      if (this.advanced.open) {
        const texts = this.wasm.sweepChoices(this.wasm.withSweepForm(def, this.read()));
        this.objective.value = texts.objective;
        this.constraints.value = texts.constraints.join('\n');
      } else {
        const form = this.wasm.sweepForm(
          this.wasm.withSweepChoices(def, {
            objective: this.objective.value,
            constraints: this.constraints.value.split('\n'),
            pareto: '',
          }),
        );
        // What the lists cannot say keeps the texts open.
        if (form) this.show(form);
        else this.advanced.open = true;
      }
    } catch {
      // A text that does not parse stays as typed; running names it.
    }
  }

  /** Redraws the words built here in the page's language. */
  relabel() {
    applyTexts(this.box);
    const form = this.read();
    this.fillGoals();
    this.show(form);
    this.objective.placeholder = t('sweep.objectivePh');
    this.pareto.placeholder = t('sweep.paretoPh');
  }
}
