// The classic model's editor: the scenario panel and the strategies table. It only moves
// values between inputs and the scenario object; ranges, defaults and messages come from
// the engine (classicValidate(), classicDefaults()).

import { el } from '../lib/dom.js';
import { getPath, markProblems, parseInteger, parseNumber, randomSeed, setPath } from '../lib/fields.js';
import { t } from '../lib/i18n.js';

/** @typedef {import('../lib/fields.js').Problem} Problem */
/** @typedef {import('./app.js').ClassicApp} ClassicApp */

const OPTIONAL = new Set(['breaker_trip_failures', 'breaker_open_s']);

/**
 * Reads one input into the scenario; returns false when its text is not a whole number.
 * @param {any} cfg
 * @param {HTMLInputElement | HTMLSelectElement} input
 */
function readInput(cfg, input) {
  const field = /** @type {string} */ (input.dataset.field);
  const key = field.split('.').pop();
  let value;
  if (input.dataset.decimal !== undefined) value = parseNumber(input.value);
  else if (input instanceof HTMLInputElement && input.type === 'checkbox') value = input.checked;
  else if (input instanceof HTMLSelectElement || key === 'name') value = input.value;
  else if (key && OPTIONAL.has(key) && field.startsWith('strategies') && input.value.trim() === '') value = undefined;
  else value = parseInteger(input.value);
  setPath(cfg, field, value);
  return typeof value !== 'string' || key === 'name' || input instanceof HTMLSelectElement;
}

/** The keys that move the focus inside the strategies grid. */
const GRID_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

/**
 * The control of `cell` that takes the focus, or null.
 * @param {Element | undefined} cell
 * @returns {HTMLElement | null}
 */
function controlIn(cell) {
  return /** @type {HTMLElement | null} */ (cell?.querySelector('input, select, button') ?? null);
}

/**
 * Where an arrow key moves the focus from `control` in the strategies grid: up and down to
 * the same column of the row above or below (a select keeps them: they change its value),
 * left and right to the next control in the row once the caret is at the text's end.
 * @param {KeyboardEvent} event
 * @param {HTMLElement} control
 * @returns {HTMLElement | null}
 */
function gridTarget(event, control) {
  const cell = control.closest('td');
  const row = cell?.closest('tr');
  if (!cell || !row) return null;
  const text = control instanceof HTMLInputElement && control.type !== 'checkbox' ? control : null;
  if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
    if (control instanceof HTMLSelectElement) return null;
    const rows = [...(row.parentElement?.children ?? [])];
    const step = event.key === 'ArrowUp' ? -1 : 1;
    for (let r = rows.indexOf(row) + step; r >= 0 && r < rows.length; r += step) {
      const target = controlIn(/** @type {HTMLTableRowElement} */ (rows[r]).cells[cell.cellIndex]);
      if (target) return target;
    }
    return null;
  }
  const left = event.key === 'ArrowLeft';
  // Inside a text, the arrows move the caret until it reaches the end it moves towards
  // (a text selected whole, as on arrival, is at both ends).
  if (text) {
    const [from, to, end] = [text.selectionStart, text.selectionEnd, text.value.length];
    const whole = from === 0 && to === end;
    if (!whole && (from !== to || from !== (left ? 0 : end))) return null;
  }
  const controls = [...row.querySelectorAll('input, select, button')];
  const next = controls[controls.indexOf(control) + (left ? -1 : 1)];
  return next instanceof HTMLElement ? next : null;
}

/**
 * The billed kinds ticked in a cost model's `billed` group, in the engine's order.
 * @param {Element} group the element holding `data-field="strategies[i].cost.billed"`
 * @returns {string[]}
 */
function billedOf(group) {
  return [...group.querySelectorAll('input[data-billed]')]
    .filter((box) => /** @type {HTMLInputElement} */ (box).checked)
    .map((box) => String(/** @type {HTMLInputElement} */ (box).dataset.billed));
}

export class ClassicEditor {
  /**
   * @param {ClassicApp} app owns `cfg` and reacts through app.changed()
   * @param {HTMLElement} root the classic model's part of the page: its field marks stay in it
   */
  constructor(app, root) {
    this.app = app;
    this.root = root;
    this.form = /** @type {HTMLFormElement} */ (this.app.$('scenario-form'));
    this.tbody = /** @type {HTMLTableSectionElement} */ (this.app.$('strategies').querySelector('tbody'));
    // Fields whose text is not a number: a type error from the engine is shown there.
    /** @type {Set<string>} */
    this.badText = new Set();
    /** @param {boolean} commit */
    const onEdit = (commit) => (/** @type {Event} */ event) => {
      const input = /** @type {HTMLInputElement | null} */ (
        /** @type {Element} */ (event.target).closest('[data-field]')
      );
      if (!input?.dataset.field) return;
      if (input.dataset.billedGroup !== undefined) {
        setPath(this.app.cfg, input.dataset.field, billedOf(input));
        this.app.changed({ commit });
        return;
      }
      if (readInput(this.app.cfg, input)) this.badText.delete(input.dataset.field);
      else this.badText.add(input.dataset.field);
      this.app.changed({ commit });
    };
    for (const node of [this.form, this.tbody]) {
      node.addEventListener('input', onEdit(false));
      node.addEventListener('change', onEdit(true));
    }
    // Arrow keys move between the grid's cells, as in a spreadsheet.
    this.tbody.addEventListener('keydown', (event) => {
      if (!GRID_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const control = /** @type {Element} */ (event.target).closest('input, select, button');
      const target = control instanceof HTMLElement ? gridTarget(event, control) : null;
      if (!target) return;
      event.preventDefault();
      target.focus();
      if (target instanceof HTMLInputElement && target.type !== 'checkbox') target.select();
    });
    this.tbody.addEventListener('click', (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (
        /** @type {Element} */ (event.target).closest('button[data-act]')
      );
      if (button) this.rowAction(String(button.dataset.act), Number(button.dataset.row));
    });
    // A strategy's cost model is switched on with the engine's default cost, off by removal.
    this.tbody.addEventListener('change', (event) => {
      const box = /** @type {HTMLInputElement} */ (event.target);
      if (box.dataset?.costToggle === undefined) return;
      const s = this.app.cfg.strategies[Number(box.dataset.costToggle)];
      if (box.checked) s.cost = structuredClone(this.app.defaults.cost);
      else delete s.cost;
      this.structureChanged();
    });
    this.app.$('add-strategy').addEventListener('click', () => this.addStrategy());
    this.app.$('reset-strategies').addEventListener('click', () => {
      this.app.cfg.strategies = structuredClone(this.app.defaults.scenario.strategies);
      this.structureChanged();
    });
    this.app.$('random-seed').addEventListener('click', () => {
      this.app.cfg.seed = randomSeed();
      this.render();
      this.app.changed({ commit: true });
    });
  }

  /**
   * The row under strategy `i` holding its cost model's fields.
   * @param {any} cost the strategy's cost model
   * @param {number} i
   */
  costRow(cost, i) {
    /** @param {string} key */
    const f = (key) => `strategies[${i}].cost.${key}`;
    /**
     * @param {string} key
     * @param {boolean} decimal
     */
    const field = (key, decimal) =>
      el(
        'label',
        {},
        t(`cost.${key}`),
        ' ',
        el('input', {
          'data-field': f(key),
          'data-decimal': decimal ? '' : undefined,
          value: String(cost[key]),
          inputmode: decimal ? 'decimal' : 'numeric',
          'aria-label': t('cost.aria', { field: t(`cost.${key}`), row: i + 1 }),
        }),
      );
    const billed = el(
      'span',
      { class: 'billed', 'data-field': f('billed'), 'data-billed-group': '' },
      t('cost.billed'),
      ...this.app.defaults.enums.billed.map((/** @type {string} */ kind) => {
        const box = el('input', { type: 'checkbox', 'data-billed': kind });
        box.checked = (cost.billed ?? []).includes(kind);
        return el('label', {}, box, ' ', t(`cost.billed.${kind}`));
      }),
    );
    return el(
      'tr',
      { class: 'cost-row' },
      el('td', {}),
      el(
        'td',
        { colspan: '11' },
        el(
          'div',
          { class: 'cost-fields' },
          field('input_tokens', false),
          field('output_tokens', false),
          field('input_price_per_1k', true),
          field('output_price_per_1k', true),
          billed,
        ),
      ),
    );
  }

  addStrategy() {
    const strategies = this.app.cfg.strategies;
    // A new row starts as a copy of the last row (or the engine's last default), renamed.
    const defaults = this.app.defaults.scenario.strategies;
    const base = structuredClone(strategies[strategies.length - 1] || defaults[defaults.length - 1]);
    base.name = t('classic.newName', { n: strategies.length + 1 });
    strategies.push(base);
    this.structureChanged();
  }

  /**
   * Puts a strategy row at `path` (a row's index, or `new`: after the last), as the paste
   * box's "Use it" does with a library's policy.
   * @param {string} path
   * @param {Record<string, unknown>} row
   */
  useRow(path, row) {
    const s = this.app.cfg.strategies;
    if (path === 'new') s.push(row);
    else s[Number(path)] = row;
    this.structureChanged();
  }

  /**
   * @param {string} act
   * @param {number} i
   */
  rowAction(act, i) {
    const s = this.app.cfg.strategies;
    if (act === 'dup')
      s.splice(i + 1, 0, { ...structuredClone(s[i]), name: t('classic.copyName', { name: s[i].name }) });
    else if (act === 'del') s.splice(i, 1);
    else if (act === 'up' && i > 0) [s[i - 1], s[i]] = [s[i], s[i - 1]];
    else if (act === 'down' && i < s.length - 1) [s[i + 1], s[i]] = [s[i], s[i + 1]];
    else return;
    this.structureChanged();
  }

  structureChanged() {
    // Row indices moved: any raw-text marks refer to old rows.
    this.badText.clear();
    this.render();
    this.app.changed({ commit: true });
  }

  /** Fills every input from app.cfg (after a preset, a link, back/forward or a row change). */
  render() {
    const cfg = this.app.cfg;
    for (const input of this.form.querySelectorAll('input[data-field]')) {
      const node = /** @type {HTMLInputElement} */ (input);
      const v = getPath(cfg, String(node.dataset.field));
      node.value = v === undefined ? '' : String(v);
    }
    // Absent, the attribution is the engine's default: the first it lists (the article's).
    /** @type {HTMLSelectElement} */ (this.app.$('attribution')).value =
      cfg.attribution ?? this.app.defaults.enums.attribution[0];
    this.tbody.replaceChildren(
      .../** @type {any[]} */ (cfg.strategies).flatMap((s, i) =>
        s.cost ? [this.row(s, i, cfg), this.costRow(s.cost, i)] : [this.row(s, i, cfg)],
      ),
    );
  }

  /**
   * @param {any} s the strategy
   * @param {number} i its row
   * @param {any} cfg the scenario
   */
  row(s, i, cfg) {
    /** @param {string} key */
    const f = (key) => `strategies[${i}].${key}`;
    /**
     * @param {string} key
     * @param {string} [placeholder]
     */
    const num = (key, placeholder) =>
      el(
        'td',
        {},
        el('input', {
          'data-field': f(key),
          value: s[key] === undefined ? '' : String(s[key]),
          inputmode: 'numeric',
          placeholder,
          'aria-label': t('classic.cellLabel', { field: t(`classic.key.${key}`), row: i + 1 }),
        }),
      );
    const jitter = el(
      'select',
      {
        'data-field': f('jitter'),
        'aria-label': t('classic.cellLabel', { field: t('classic.key.jitter'), row: i + 1 }),
      },
      el('option', { value: 'none', text: t('jitter.none') }),
      el('option', { value: 'full', text: t('jitter.full') }),
    );
    jitter.value = s.jitter;
    const breaker = el('input', {
      type: 'checkbox',
      'data-field': f('breaker'),
      'aria-label': t('classic.cellLabel', { field: t('classic.key.breaker'), row: i + 1 }),
    });
    breaker.checked = !!s.breaker;
    /**
     * @param {string} name
     * @param {string} label
     * @param {string} title
     */
    const act = (name, label, title) =>
      el('button', {
        type: 'button',
        'data-act': name,
        'data-row': String(i),
        title,
        'aria-label': t('classic.actLabel', { act: title, row: i + 1 }),
        text: label,
      });
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = this.app.colors[i % this.app.colors.length];
    return el(
      'tr',
      {},
      el('td', {}, swatch),
      el(
        'td',
        {},
        el('input', {
          'data-field': f('name'),
          value: s.name,
          class: 'name',
          spellcheck: 'false',
          'aria-label': t('classic.cellLabel', { field: t('classic.key.name'), row: i + 1 }),
        }),
      ),
      num('max_retry'),
      num('base_ms'),
      el('td', {}, jitter),
      num('budget_pct'),
      num('deadline_ms'),
      el('td', { class: 'center' }, breaker),
      // The placeholder shows the scenario-wide value this row inherits when left empty.
      num('breaker_trip_failures', String(cfg.breaker_trip_failures)),
      num('breaker_open_s', String(cfg.breaker_open_s)),
      el(
        'td',
        { class: 'center' },
        el('input', {
          type: 'checkbox',
          'data-cost-toggle': String(i),
          checked: !!s.cost,
          'aria-label': t('cost.toggle', { row: i + 1 }),
        }),
      ),
      el(
        'td',
        { class: 'acts' },
        act('up', '↑', t('classic.act.up')),
        act('down', '↓', t('classic.act.down')),
        act('dup', t('classic.act.dupShort'), t('classic.act.dup')),
        act('del', '✕', t('classic.act.del')),
      ),
    );
  }

  /**
   * Marks every field the engine complained about, with its message; lists the rest.
   * @param {Problem[]} problems
   */
  showProblems(problems) {
    const unplaced = markProblems(this.root, problems, this.badText);
    this.app
      .$('scenario-problems')
      .replaceChildren(
        ...problems.map((p) => el('li', { class: unplaced.includes(p) ? '' : 'placed', text: p.message })),
      );
  }
}
