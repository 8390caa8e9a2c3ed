// The classic model's editor: the scenario panel and the strategies table.
// It only moves values between inputs and the scenario object; ranges, defaults and
// messages come from the engine (validate(), defaultScenario()).

import { el, $ } from './dom.js';

/** Reads `a.b[2].c` from an object. */
export function getPath(obj, path) {
  return path.split('.').reduce((o, key) => {
    if (o === undefined || o === null) return undefined;
    const m = /^(\w+)\[(\d+)\]$/.exec(key);
    return m ? (o[m[1]] || [])[Number(m[2])] : o[key];
  }, obj);
}

/** Writes `a.b[2].c` in an object (`undefined` deletes the key). */
export function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  keys.forEach((key, i) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(key);
    const last = i === keys.length - 1;
    if (m) {
      o = o[m[1]][Number(m[2])];
    } else if (last) {
      if (value === undefined) delete o[key];
      else o[key] = value;
    } else {
      o = o[key];
    }
  });
}

/**
 * Turns an input's text into the value the engine reads: an exact integer as a number,
 * anything else (a seed beyond 2^53, a typo) as the text itself, so the engine reports it.
 */
export function parseInteger(text) {
  const t = String(text).trim();
  if (/^-?\d+$/.test(t)) {
    const n = Number(t);
    if (Number.isSafeInteger(n)) return n;
  }
  return t;
}

const OPTIONAL = new Set(['breaker_trip_failures', 'breaker_open_s']);

/** Reads one input into the scenario; returns false when its text is not a whole number. */
function readInput(cfg, input) {
  const field = input.dataset.field;
  const key = field.split('.').pop();
  let value;
  if (input.type === 'checkbox') value = input.checked;
  else if (input.tagName === 'SELECT' || key === 'name') value = input.value;
  else if (OPTIONAL.has(key) && field.startsWith('strategies') && input.value.trim() === '') value = undefined;
  else value = parseInteger(input.value);
  setPath(cfg, field, value);
  return typeof value !== 'string' || key === 'name' || input.tagName === 'SELECT';
}

/** Binds the editor to `app` (which owns `cfg` and reacts through app.changed()). */
export class ClassicEditor {
  constructor(app) {
    this.app = app;
    this.form = $('scenario-form');
    this.tbody = $('strategies').querySelector('tbody');
    // Fields whose text is not a number: a type error from the engine is shown there.
    this.badText = new Set();
    const onEdit = (commit) => (event) => {
      const input = event.target.closest('[data-field]');
      if (!input) return;
      if (readInput(this.app.cfg, input)) this.badText.delete(input.dataset.field);
      else this.badText.add(input.dataset.field);
      this.app.changed({ commit });
    };
    for (const root of [this.form, this.tbody]) {
      root.addEventListener('input', onEdit(false));
      root.addEventListener('change', onEdit(true));
    }
    this.tbody.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-act]');
      if (button) this.rowAction(button.dataset.act, Number(button.dataset.row));
    });
    $('add-strategy').addEventListener('click', () => this.addStrategy());
    $('reset-strategies').addEventListener('click', () => {
      this.app.cfg.strategies = structuredClone(this.app.wasm.defaultScenario().strategies);
      this.structureChanged();
    });
    $('random-seed').addEventListener('click', () => {
      // 48 random bits: a fresh, still readable seed; any i64 can be typed in.
      const words = crypto.getRandomValues(new Uint32Array(2));
      this.app.cfg.seed = (words[0] & 0xffff) * 2 ** 32 + words[1];
      this.render();
      this.app.changed({ commit: true });
    });
  }

  addStrategy() {
    const strategies = this.app.cfg.strategies;
    // A new row starts as a copy of the engine's last default strategy, renamed.
    const defaults = this.app.wasm.defaultScenario().strategies;
    const base = structuredClone(strategies[strategies.length - 1] || defaults[defaults.length - 1]);
    base.name = `S${strategies.length + 1} new`;
    strategies.push(base);
    this.structureChanged();
  }

  rowAction(act, i) {
    const s = this.app.cfg.strategies;
    if (act === 'dup') s.splice(i + 1, 0, { ...structuredClone(s[i]), name: `${s[i].name} copy` });
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
    this.app.changed({ commit: true, structural: true });
  }

  /** Fills every input from app.cfg (after a preset, a link, back/forward or a row change). */
  render() {
    const cfg = this.app.cfg;
    for (const input of this.form.querySelectorAll('[data-field]')) {
      const v = getPath(cfg, input.dataset.field);
      input.value = v === undefined ? '' : String(v);
    }
    this.tbody.replaceChildren(...cfg.strategies.map((s, i) => this.row(s, i, cfg)));
  }

  row(s, i, cfg) {
    const f = (key) => `strategies[${i}].${key}`;
    const num = (key, placeholder) =>
      el('td', {}, el('input', { 'data-field': f(key), value: s[key] === undefined ? '' : String(s[key]),
        inputmode: 'numeric', placeholder, 'aria-label': `${key} of row ${i + 1}` }));
    const jitter = el('select', { 'data-field': f('jitter'), 'aria-label': `jitter of row ${i + 1}` },
      el('option', { value: 'none', text: 'none' }), el('option', { value: 'full', text: 'full' }));
    jitter.value = s.jitter;
    const breaker = el('input', { type: 'checkbox', 'data-field': f('breaker'), 'aria-label': `breaker of row ${i + 1}` });
    breaker.checked = !!s.breaker;
    const act = (name, label, title) =>
      el('button', { type: 'button', 'data-act': name, 'data-row': String(i), title, 'aria-label': `${title} row ${i + 1}`, text: label });
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = this.app.colors[i % this.app.colors.length];
    return el('tr', {},
      el('td', {}, swatch),
      el('td', {}, el('input', { 'data-field': f('name'), value: s.name, class: 'name', spellcheck: 'false',
        'aria-label': `name of row ${i + 1}` })),
      num('max_retry'), num('base_ms'), el('td', {}, jitter), num('budget_pct'), num('deadline_ms'),
      el('td', { class: 'center' }, breaker),
      // The placeholder shows the scenario-wide value this row inherits when left empty.
      num('breaker_trip_failures', String(cfg.breaker_trip_failures)),
      num('breaker_open_s', String(cfg.breaker_open_s)),
      el('td', { class: 'acts' }, act('up', '↑', 'Move up'), act('down', '↓', 'Move down'),
        act('dup', 'dup', 'Duplicate'), act('del', '✕', 'Delete')));
  }

  /** Marks every field the engine complained about, with its message; clears the rest. */
  showProblems(problems) {
    for (const node of document.querySelectorAll('.field-msg')) node.remove();
    for (const node of document.querySelectorAll('[aria-invalid="true"]')) {
      node.removeAttribute('aria-invalid');
      node.classList.remove('invalid');
    }
    const list = $('scenario-problems');
    list.replaceChildren();
    for (const p of problems) {
      // A type error (text in a number field) has no field path: place it where the bad text is.
      const fields = p.field ? [p.field] : [...this.badText];
      let placed = false;
      for (const field of fields) {
        const input = document.querySelector(`[data-field="${CSS.escape(field)}"]`);
        if (!input) continue;
        input.classList.add('invalid');
        input.setAttribute('aria-invalid', 'true');
        input.parentElement.append(el('small', { class: 'field-msg', text: p.message }));
        placed = true;
      }
      list.append(el('li', { class: placed ? 'placed' : '', text: p.message }));
    }
  }
}
