// The cluster model's editor: scenario and load fields, and the chain of tiers with
// each hop's client policy. Every field, default and allowed value comes from the
// engine (clusterDefaults(): one default object per kind, enums for selects); when a
// kind changes, its object is replaced by that kind's default, so only the fields of
// the chosen kind exist and are shown. Every input carries the scenario path it edits
// (data-field="tiers[1].client.budget.percent"), which is also the path the engine
// names in its validation messages, so each message lands at its field.

import { el } from '../lib/dom.js';
import { getPath, markProblems, parseInteger, parseNumber, randomSeed, setPath } from '../lib/fields.js';
import { fieldLabel, t, valueLabel } from '../lib/i18n.js';

/** @typedef {import('../lib/fields.js').Problem} Problem */

/**
 * @template T
 * @param {T} v
 * @returns {T}
 */
const clone = (v) => structuredClone(v);

// Keys rendered by their own widgets, never as plain scalar fields.
const SPECIAL = new Set([
  'kind',
  'client',
  'service',
  'think',
  'backoff',
  'jitter',
  'budget',
  'breaker',
  'bulkhead',
  'closed_loop',
  'schedule',
  'effect',
  'retry_on',
  'tiers',
  'faults',
  'load',
  'steady',
  'description',
  'routes',
  'route_sharing',
  'cost',
  'billed',
]);

export class ClusterEditor {
  /**
   * @param {import('./app.js').ClusterApp} app the cluster app: `cfg`, `defaults`, `changed({commit, structural})`
   * @param {HTMLElement} root where the editor renders
   */
  constructor(app, root) {
    this.app = app;
    this.root = root;
    /** @type {Set<string>} */
    this.badText = new Set();
    /** @param {boolean} commit */
    const onEdit = (commit) => (/** @type {Event} */ event) => {
      const input = /** @type {Element} */ (event.target).closest('[data-field]');
      if (!input || !this.root.contains(input)) return;
      this.read(/** @type {HTMLInputElement} */ (input), commit);
    };
    root.addEventListener('input', onEdit(false));
    root.addEventListener('change', onEdit(true));
    root.addEventListener('click', (event) => {
      const b = /** @type {HTMLButtonElement | null} */ (
        /** @type {Element} */ (event.target).closest('button[data-act]')
      );
      if (b) this.act(String(b.dataset.act), b.dataset);
    });
  }

  get d() {
    return this.app.defaults;
  }
  get cfg() {
    return this.app.cfg;
  }

  /**
   * Moves one input's value into the scenario.
   * @param {HTMLInputElement} input (or a select: the same properties are read)
   * @param {boolean} commit
   */
  read(input, commit) {
    const path = String(input.dataset.field);
    const kind = input.dataset.kind;
    let value;
    let structural = false;
    switch (kind) {
      case 'bool':
        value = input.checked;
        break;
      case 'enum':
      case 'text':
        value = input.value;
        break;
      case 'opt':
        value = input.value.trim() === '' ? null : parseNumber(input.value);
        break;
      case 'seed':
        value = parseInteger(input.value);
        break;
      case 'index': {
        // A route's target tier: the names in the client block below it change too.
        setPath(this.cfg, path, Number(input.value));
        this.render();
        this.app.changed({ commit: true, structural: true });
        return;
      }
      case 'sharing': {
        // `route_sharing` is absent while both are per route: made here when first ticked.
        const [tierPath, key] = path.split('.route_sharing.');
        const tier = getPath(this.cfg, tierPath);
        tier.route_sharing = { ...(tier.route_sharing ?? {}), [key]: input.checked };
        this.app.changed({ commit, structural: false });
        return;
      }
      case 'list':
        value = input.value
          .split(/[\s,;]+/)
          .filter(Boolean)
          .map(parseNumber);
        break;
      case 'retry': {
        /** @type {HTMLInputElement[]} */
        const boxes = [...this.root.querySelectorAll(`input[data-kind="retry"][data-field="${CSS.escape(path)}"]`)].map(
          (b) => /** @type {HTMLInputElement} */ (b),
        );
        value = boxes.filter((b) => b.checked).map((b) => b.dataset.value);
        break;
      }
      case 'kind': {
        // Replace the object with the chosen kind's defaults, keeping its scope.
        const parent = path.replace(/\.kind$/, '');
        /** @type {any[]} */
        const list = this.d[String(input.dataset.list)];
        const old = getPath(this.cfg, parent) || {};
        const next = clone(list.find((/** @type {any} */ x) => x.kind === input.value));
        if ('scope' in next && old.scope) next.scope = old.scope;
        setPath(this.cfg, parent, next);
        this.badText.clear();
        this.render();
        this.app.changed({ commit: true, structural: true });
        return;
      }
      case 'toggle': {
        setPath(this.cfg, path, input.checked ? clone(this.d[String(input.dataset.default)]) : null);
        this.render();
        this.app.changed({ commit: true, structural: true });
        return;
      }
      default:
        value = parseNumber(input.value);
    }
    if (kind === 'num' || kind === 'opt' || kind === 'list') {
      const bad = Array.isArray(value) ? value.some((v) => typeof v === 'string') : typeof value === 'string';
      if (bad) this.badText.add(path);
      else this.badText.delete(path);
    }
    setPath(this.cfg, path, value);
    if (path.endsWith('.name') && commit) structural = true; // names appear in the timeline
    this.app.changed({ commit, structural });
  }

  /**
   * Buttons: tiers (add, remove, move: the engine's rules, which keep each hop's policy
   * in place and renumber the faults), schedule segments, a new seed.
   * @param {string} act
   * @param {DOMStringMap} data
   */
  act(act, data) {
    const cfg = this.cfg;
    const wasm = this.app.wasm;
    const i = Number(data.index);
    try {
      if (act === 'tier-add') this.app.cfg = wasm.clusterAddTier(cfg);
      else if (act === 'tier-del') this.app.cfg = wasm.clusterRemoveTier(cfg, i);
      else if (act === 'tier-up') this.app.cfg = wasm.clusterMoveTier(cfg, i, i - 1);
      else if (act === 'tier-down') this.app.cfg = wasm.clusterMoveTier(cfg, i, i + 1);
      else if (act === 'route-add') this.app.cfg = wasm.clusterAddRoute(cfg, i);
      else if (act === 'route-del') this.app.cfg = wasm.clusterRemoveRoute(cfg, i, Number(data.route));
      else if (act === 'seg-add') cfg.load.schedule.push(clone(this.d.segment));
      else if (act === 'seg-del') cfg.load.schedule.splice(i, 1);
      else if (act === 'seed') cfg.seed = randomSeed();
      else return;
    } catch (e) {
      // The buttons only offer edits the engine accepts (a tier that exists, never the
      // last one); anything else leaves the scenario as it is.
      console.warn(e);
      return;
    }
    this.badText.clear();
    this.render();
    this.app.changed({ commit: true, structural: true });
  }

  // ---- widgets ----

  /**
   * A labelled text input for the value at `path`.
   * @param {string} path
   * @param {unknown} value
   * @param {string} kind how read() parses it: num, opt, list, text, seed
   * @param {string} [text] the label
   */
  input(path, value, kind, text = fieldLabel(String(path.split('.').pop()))) {
    /** @type {Record<string, string>} */
    const attrs = { 'data-field': path, 'data-kind': kind, spellcheck: 'false', autocomplete: 'off' };
    if (kind !== 'text') attrs.inputmode = 'decimal';
    const input = el('input', attrs);
    input.value = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
    if (kind === 'opt') input.placeholder = t('cluster.ed.none');
    return el('label', { class: 'cf' }, el('span', { text }), input);
  }

  /**
   * A labelled checkbox.
   * @param {string} path
   * @param {unknown} value
   * @param {string} [text]
   */
  check(path, value, text = fieldLabel(String(path.split('.').pop()))) {
    const box = el('input', { type: 'checkbox', 'data-field': path, 'data-kind': 'bool' });
    box.checked = !!value;
    return el('label', { class: 'cf check' }, box, el('span', { text }));
  }

  /**
   * A labelled select.
   * @param {string} path
   * @param {string} value
   * @param {string[]} options
   * @param {string} [kind] enum (a value) or kind (the kind of an object, whose defaults are in `list`)
   * @param {string | null} [list] the name of the defaults list of a kind select
   * @param {string} [text]
   */
  select(
    path,
    value,
    options,
    kind = 'enum',
    list = null,
    text = fieldLabel(path.split('.').slice(-2)[kind === 'kind' ? 0 : 1] || path),
  ) {
    /** @type {Record<string, string>} */
    const attrs = { 'data-field': path, 'data-kind': kind };
    if (list) attrs['data-list'] = list;
    const sel = el('select', attrs, ...options.map((o) => el('option', { value: o, text: valueLabel(o) })));
    sel.value = value;
    return el('label', { class: 'cf' }, el('span', { text }), sel);
  }

  /**
   * The tier a fault strikes, chosen by number and name: numbered from 1, as the tier
   * cards and the routes' targets number them (the value is the tier's index).
   * @param {string} path
   * @param {number} k
   */
  tierSelect(path, k) {
    /** @type {any[]} */
    const tiers = this.cfg.tiers;
    const options = tiers.map((tier, j) => el('option', { value: String(j), text: `${j + 1} ${tier.name}` }));
    const sel = el('select', { 'data-field': path, 'data-kind': 'index' }, ...options);
    /** @type {HTMLSelectElement} */ (sel).value = String(k);
    return el('label', { class: 'cf' }, el('span', { text: fieldLabel('tier') }), sel);
  }

  /**
   * The scalar fields of `obj` (at `path`) in the order of its template `tpl`.
   * @param {string} path
   * @param {any} obj
   * @param {any} tpl
   * @returns {HTMLElement[]}
   */
  scalars(path, obj, tpl) {
    const out = [];
    for (const key of Object.keys(tpl)) {
      if (SPECIAL.has(key)) continue;
      const p = path ? `${path}.${key}` : key;
      const dv = tpl[key];
      const v = obj[key] === undefined ? dv : obj[key];
      const enums = this.d.enums[key];
      if (key === 'seed') out.push(this.seedField(p, v));
      else if (key === 'tier' && path.startsWith('faults[')) out.push(this.tierSelect(p, Number(v)));
      else if (enums) out.push(this.select(p, v, enums, 'enum', null, fieldLabel(key)));
      else if (typeof dv === 'boolean') out.push(this.check(p, v));
      else if (dv === null) out.push(this.input(p, v, 'opt'));
      else if (typeof dv === 'string') out.push(this.input(p, v, 'text'));
      else if (Array.isArray(dv)) out.push(this.input(p, v, 'list'));
      else out.push(this.input(p, v, 'num'));
    }
    return out;
  }

  /**
   * @param {string} path
   * @param {unknown} v
   */
  seedField(path, v) {
    const f = this.input(path, v, 'seed', t('classic.f.seed'));
    f.append(
      el('button', {
        type: 'button',
        'data-act': 'seed',
        title: t('cluster.ed.newSeedTitle'),
        text: t('classic.randomSeed'),
      }),
    );
    f.classList.add('seed');
    return f;
  }

  /**
   * A kind select plus the fields of the current kind.
   * @param {string} path
   * @param {any} obj
   * @param {string} listName
   * @param {string} title
   */
  kinded(path, obj, listName, title) {
    /** @type {{kind: string}[]} */
    const list = this.d[listName];
    const cur = obj || list[0];
    const tpl = list.find((x) => x.kind === cur.kind) || list[0];
    const box = el(
      'div',
      { class: 'kinded' },
      this.select(
        `${path}.kind`,
        cur.kind,
        list.map((x) => x.kind),
        'kind',
        listName,
        title,
      ),
    );
    box.append(...this.scalars(path, cur, tpl));
    return box;
  }

  /**
   * An optional object (closed loop, bulkhead): a switch, and its fields when on.
   * @param {string} path
   * @param {unknown} obj
   * @param {string} defName
   * @param {string} title
   * @param {() => HTMLElement[]} fieldsOf
   */
  optional(path, obj, defName, title, fieldsOf) {
    const box = el('input', { type: 'checkbox', 'data-field': path, 'data-kind': 'toggle', 'data-default': defName });
    box.checked = !!obj;
    const wrap = el('div', { class: 'optional' }, el('label', { class: 'cf check' }, box, el('span', { text: title })));
    if (obj) wrap.append(el('div', { class: 'fields' }, ...fieldsOf()));
    return wrap;
  }

  /**
   * @param {string} path
   * @param {string[]} list
   */
  retryOn(path, list) {
    return this.checkGroup(path, list, this.d.enums.retry_on, t('cluster.ed.retryOn'));
  }

  /**
   * A set of values (`retry_on`, a cost model's `billed`) as a checkbox per allowed value.
   * @param {string} path
   * @param {string[]} list the values ticked
   * @param {string[]} options every allowed value, in the engine's order
   * @param {string} legend
   */
  checkGroup(path, list, options, legend) {
    const boxes = options.map((k) => {
      const b = el('input', { type: 'checkbox', 'data-field': path, 'data-kind': 'retry', 'data-value': k });
      b.checked = (list || []).includes(k);
      return el('label', { class: 'check' }, b, el('span', { text: valueLabel(k) }));
    });
    return el('fieldset', { class: 'cf retry-on', 'data-field-group': path }, el('legend', { text: legend }), ...boxes);
  }

  // ---- sections ----

  render() {
    const cfg = this.cfg;
    const d = this.d;
    const top = el(
      'details',
      { class: 'panel', open: true },
      el('summary', { text: t('cluster.ed.scenario') }),
      el(
        'div',
        { class: 'grid' },
        ...this.scalars('', cfg, d.scenario),
        // (The fields a scenario leaves out while off come after, at their off values.)
        ...this.scalars('load', cfg.load, { ...d.scenario.load, ...d.off.load }),
      ),
      this.schedule(),
      this.optional('load.closed_loop', cfg.load.closed_loop, 'closed_loop', t('cluster.ed.closedLoop'), () => [
        el('div', { class: 'grid' }, ...this.scalars('load.closed_loop', cfg.load.closed_loop, d.closed_loop)),
        this.kinded('load.closed_loop.think', cfg.load.closed_loop.think, 'dist', t('cluster.ed.think')),
      ]),
    );
    const tiers = el(
      'div',
      { class: 'tiers' },
      ...cfg.tiers.map((/** @type {any} */ tier, /** @type {number} */ k) => this.tierCard(tier, k)),
      el('button', { type: 'button', 'data-act': 'tier-add', class: 'add-tier', text: t('cluster.ed.addTier') }),
    );
    const steady = el(
      'details',
      { class: 'panel' },
      el('summary', { text: t('cluster.ed.steady') }),
      el('div', { class: 'grid' }, ...this.scalars('steady', cfg.steady, { ...d.scenario.steady, ...d.off.steady })),
    );
    this.root.replaceChildren(top, el('h3', { text: t('cluster.ed.tiers') }), tiers, steady);
  }

  schedule() {
    const segs = this.cfg.load.schedule;
    const rows = segs.map((/** @type {any} */ s, /** @type {number} */ i) =>
      el(
        'div',
        { class: 'segment' },
        ...this.scalars(`load.schedule[${i}]`, s, this.d.segment),
        el('button', {
          type: 'button',
          'data-act': 'seg-del',
          'data-index': String(i),
          title: t('cluster.ed.segDel'),
          text: '✕',
        }),
      ),
    );
    return el(
      'div',
      { class: 'schedule' },
      el('div', { class: 'sub', text: t('cluster.ed.schedule') }),
      ...rows,
      el('button', { type: 'button', 'data-act': 'seg-add', text: t('cluster.ed.segAdd') }),
    );
  }

  /**
   * @param {any} tier the tier
   * @param {number} k its position
   */
  tierCard(tier, k) {
    const d = this.d;
    const n = this.cfg.tiers.length;
    const p = `tiers[${k}]`;
    /**
     * @param {string} act
     * @param {string} text
     * @param {string} title
     */
    const btn = (act, text, title, disabled = false) =>
      el('button', {
        type: 'button',
        'data-act': act,
        'data-index': String(k),
        title,
        'aria-label': t('cluster.ed.tierAct', { act: title, n: k + 1 }),
        text,
        disabled,
      });
    const head = el(
      'div',
      { class: 'tier-head' },
      el('span', { class: 'tier-no', text: `${k + 1}` }),
      this.input(`${p}.name`, tier.name, 'text', t('cluster.ed.name')),
      btn('tier-up', '↑', t('classic.act.up'), k === 0),
      btn('tier-down', '↓', t('classic.act.down'), k === n - 1),
      btn('tier-del', '✕', t('cluster.ed.remove'), n <= 1),
      // Where a message about the whole tier lands (in a tree: nothing calls it).
      el('span', { class: 'tier-msg', 'data-field': p }),
    );
    const card = el(
      'div',
      // (The arrow between two tiers is the second one's ::before, worded by this attribute.)
      { class: 'tier', 'data-tier': String(k), 'data-called': t('cluster.ed.called') },
      head,
      el(
        'div',
        { class: 'grid' },
        ...this.scalars(p, tier, d.tier).filter((f) => !f.querySelector(`[data-field="${p}.name"]`)),
      ),
      this.kinded(`${p}.service`, tier.service, 'dist', t('cluster.ed.service')),
    );
    if (tier.client) card.append(this.clientBlock(`${p}.client`, tier.client, this.cfg.tiers[k + 1]));
    card.append(this.routesBlock(tier, k));
    return card;
  }

  /**
   * A tier's routes: add and remove by the engine's rules, target, weight, the route's
   * own client policy (in the client form) and their sharing.
   * @param {any} tier
   * @param {number} k its position
   */
  routesBlock(tier, k) {
    const tiers = this.cfg.tiers;
    const p = `tiers[${k}]`;
    /** @type {any[]} */
    const routes = tier.routes ?? [];
    const items = routes.map((route, i) => {
      const rp = `${p}.routes[${i}]`;
      // The targets a route may have: the later tiers.
      const options = [];
      for (let j = k + 1; j < tiers.length; j++) {
        options.push(el('option', { value: String(j), text: `${j + 1} ${tiers[j].name}` }));
      }
      const to = el('select', { 'data-field': `${rp}.to`, 'data-kind': 'index' }, ...options);
      to.value = String(route.to);
      return el(
        'div',
        { class: 'route', 'data-route': String(i) },
        el(
          'div',
          { class: 'route-head' },
          el('span', { class: 'sub', text: t('routes.route', { n: i + 1 }) }),
          el('label', { class: 'cf' }, el('span', { text: t('routes.to') }), to),
          this.input(`${rp}.weight`, route.weight, 'num', t('routes.weight')),
          el('button', {
            type: 'button',
            'data-act': 'route-del',
            'data-index': String(k),
            'data-route': String(i),
            title: t('routes.remove'),
            'aria-label': t('routes.removeAria', { n: i + 1, tier: k + 1 }),
            text: '✕',
          }),
        ),
        this.clientBlock(`${rp}.client`, route.client, tiers[route.to]),
      );
    });
    /** @param {string} key */
    const sharing = (key) => {
      const box = el('input', { type: 'checkbox', 'data-field': `${p}.route_sharing.${key}`, 'data-kind': 'sharing' });
      box.checked = !!tier.route_sharing?.[key];
      return el('label', { class: 'cf check' }, box, el('span', { text: t(`routes.share.${key}`) }));
    };
    return el(
      'div',
      { class: 'routes' },
      routes.length ? el('div', { class: 'sub', text: t('routes.heading') }) : null,
      ...items,
      routes.length ? el('div', { class: 'route-sharing grid' }, sharing('budget'), sharing('breaker')) : null,
      el('button', {
        type: 'button',
        'data-act': 'route-add',
        'data-index': String(k),
        title: t('routes.addTitle'),
        text: t('routes.add'),
      }),
    );
  }

  /**
   * @param {string} p the client's path
   * @param {any} c the client policy
   * @param {any} next the tier it calls
   */
  clientBlock(p, c, next) {
    const d = this.d;
    const block = el(
      'div',
      { class: 'client' },
      el('div', { class: 'sub', text: t('cluster.ed.calls', { name: next ? next.name : t('cluster.ed.nextTier') }) }),
      el('div', { class: 'grid' }, ...this.scalars(p, c, d.client)),
      this.retryOn(`${p}.retry_on`, c.retry_on),
      this.kinded(`${p}.backoff`, c.backoff, 'backoff', t('cluster.ed.backoff')),
      this.kinded(`${p}.jitter`, c.jitter, 'jitter', t('cluster.ed.jitter')),
      // The delay preview of this policy's backoff and jitter, drawn by the app (app.renderDelays).
      el('figure', { class: 'delay-preview', 'data-delay-client': p }),
      this.kinded(`${p}.budget`, c.budget, 'budget', t('cluster.ed.budget')),
      this.kinded(`${p}.breaker`, c.breaker, 'breaker', t('cluster.ed.breaker')),
      this.optional(`${p}.bulkhead`, c.bulkhead, 'bulkhead', t('cluster.ed.bulkhead'), () =>
        this.scalars(`${p}.bulkhead`, c.bulkhead, d.bulkhead),
      ),
      // The network on both legs of this hop (off by default), each leg a distribution.
      this.optional(`${p}.network`, c.network, 'network', t('cluster.ed.network'), () =>
        ['request', 'response'].map((leg) =>
          this.kinded(`${p}.network.${leg}`, c.network[leg], 'dist', t(`cluster.ed.net.${leg}`)),
        ),
      ),
      // What each attempt on this hop costs (off by default).
      this.optional(`${p}.cost`, c.cost, 'cost', t('cost.model'), () => [
        el('div', { class: 'grid' }, ...this.scalars(`${p}.cost`, c.cost, d.cost)),
        this.checkGroup(`${p}.cost.billed`, c.cost.billed, d.enums.billed, t('cost.billed')),
      ]),
    );
    return block;
  }

  /**
   * Marks every field the engine complained about, with its message; returns the unplaced ones.
   * @param {Problem[]} problems
   */
  showProblems(problems) {
    return markProblems(this.root, problems, this.badText, candidates);
  }
}

/** Where a message for `field` may go: the field itself, then without list indices or `.len()`. */
/** @param {string} field */
function candidates(field) {
  const out = [field];
  const noLen = field.replace(/\.len\(\)$/, '');
  out.push(noLen, noLen.replace(/\[\d+\]$/, ''));
  if (/\.kind$/.test(field) === false) out.push(`${noLen}.kind`);
  return [...new Set(out)];
}
