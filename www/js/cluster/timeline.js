// The load and fault timeline: an SVG with the load's shape on top (base rate and the
// schedule's ramps and spikes) and one row per tier holding its faults as bars on the
// run's time axis. Bars (faults and schedule segments) are dragged to move them and by
// their edges to resize them, with pointer events (mouse, pen, touch); a click selects
// a fault for the form below; "+" on a row, or a double click in it, adds a fault there.
// All text goes in through textContent, from the catalogues (t()).

import { t, valueLabel } from '../lib/i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const GUTTER = 118; // row labels, CSS px
const RIGHT = 12;
const LOAD_H = 46;
const ROW_H = 30;
const AXIS_H = 22;
const EDGE = 7; // px of a bar's ends that resize instead of move
const SNAP_MS = 100;
const MIN_W = 14; // px: the narrowest bar drawn

/**
 * @typedef {{type: string, i: number, g: SVGGElement, mode: string, x0: number, s: number, end: number, moved: boolean}} Drag
 */

/**
 * An SVG element with attributes and optional text.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 * @returns {any} the element (an SVGElement of the tag's kind)
 */
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The element matching `selector` at or above the event's target.
 * @param {Event} e
 * @param {string} selector
 * @returns {SVGGElement | null}
 */
const hit = (e, selector) => /** @type {SVGGElement | null} */ (/** @type {Element} */ (e.target).closest(selector));

/**
 * A finite number, else `fallback` (the editor may hold text while the user types).
 * @param {unknown} v
 * @returns {number}
 */
const num = (v, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export class Timeline {
  /**
   * @param {HTMLElement} root container
   * @param {{wasm: import('../lib/jobs.js').Wasm, cfg: () => any, onEdit: (commit: boolean) => void,
   *          onSelect: (i: number|null) => void, addFault: (tier: number, startMs: number) => void}} hooks
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    /** @type {number | null} the selected fault */
    this.selected = null;
    /** @type {Set<number>} faults the engine complained about */
    this.invalid = new Set();
    /** @type {Drag | null} */
    this.drag = null;
    this.width = 0;
    /** The container's width when the ResizeObserver last looked (0: not laid out yet). */
    this.seen = 0;
    this.duration = 1;
    this.plotW = 50;
    /** @type {SVGSVGElement} */
    this.svg = svg('svg');
    // The width is read here, where the layout is fresh: reading it in `render` would
    // lay the whole page out in the middle of the task that built it (most of what
    // opening a cluster link cost on the main thread).
    new ResizeObserver(() => {
      const width = this.root.clientWidth;
      if (width === this.seen) return;
      this.seen = width;
      this.render();
    }).observe(root);
  }

  get cfg() {
    return this.hooks.cfg();
  }

  /**
   * Data ms → x pixel.
   * @param {number} ms
   */
  x(ms) {
    return GUTTER + (ms / this.duration) * this.plotW;
  }

  render() {
    const cfg = this.cfg;
    // Not laid out yet (or hidden): the ResizeObserver draws it once it is.
    if (!cfg || !this.seen) return;
    this.width = this.seen;
    this.duration = Math.max(1, num(cfg.duration_ms, 1));
    this.plotW = Math.max(50, this.width - GUTTER - RIGHT);
    const tiers = Array.isArray(cfg.tiers) ? cfg.tiers : [];
    const height = LOAD_H + tiers.length * ROW_H + AXIS_H;
    const root = svg('svg', {
      width: this.width,
      height,
      class: 'timeline-svg',
      role: 'group',
      'aria-label': t('cluster.tl.label'),
    });
    // Rows and labels.
    root.append(svg('rect', { x: GUTTER, y: 0, width: this.plotW, height: LOAD_H - 4, class: 'row load-row' }));
    root.append(svg('text', { x: 4, y: 16, class: 'row-label' }, t('cluster.tl.load')));
    root.append(
      svg('text', { x: 4, y: 32, class: 'row-sub' }, t('cluster.tl.base', { rate: num(cfg.load?.rate_per_s) })),
    );
    tiers.forEach((/** @type {any} */ tier, /** @type {number} */ k) => {
      const y = LOAD_H + k * ROW_H;
      root.append(
        svg('rect', {
          x: GUTTER,
          y: y + 2,
          width: this.plotW,
          height: ROW_H - 4,
          class: 'row tier-row',
          'data-row': k,
        }),
      );
      const full = String(tier.name ?? '');
      const name = svg(
        'text',
        { x: 22, y: y + ROW_H / 2 + 4, class: 'row-label' },
        full.length > 13 ? `${full.slice(0, 12)}…` : full,
      );
      name.append(svg('title', {}, full));
      root.append(name);
      const add = svg('g', { class: 'add-fault', 'data-add': k, role: 'button', tabindex: 0 });
      add.append(
        svg('title', {}, t('cluster.tl.addFault', { name: full })),
        svg('rect', { x: 2, y: y + 7, width: 16, height: 16, rx: 3 }),
        svg('text', { x: 10, y: y + 19, 'text-anchor': 'middle' }, '+'),
      );
      root.append(add);
    });
    // Load shape: the engine's rate over time (none while the load does not parse).
    const samples = 240;
    const rates = this.loadShape(cfg.load, samples);
    if (rates) {
      const max = Math.max(1, ...rates);
      /** @param {number} r */
      const yOf = (r) => LOAD_H - 6 - (r / max) * (LOAD_H - 14);
      const pts = rates.map((r, i) => `${this.x((i / samples) * this.duration).toFixed(1)},${yOf(r).toFixed(1)}`);
      root.append(svg('polyline', { points: pts.join(' '), class: 'load-line' }));
    }
    if (Array.isArray(cfg.load?.schedule)) {
      cfg.load.schedule.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
        const text = `${num(s.rate_per_s)}${s.to_rate_per_s != null ? `→${s.to_rate_per_s}` : ''}/s`;
        root.append(this.bar('segment', i, num(s.start_ms), num(s.end_ms) - num(s.start_ms), 4, LOAD_H - 12, text));
      });
    }
    // Faults.
    (Array.isArray(cfg.faults) ? cfg.faults : []).forEach((/** @type {any} */ f, /** @type {number} */ i) => {
      const k = num(f.tier, -1);
      if (k < 0 || k >= tiers.length) return;
      const y = LOAD_H + k * ROW_H + 5;
      const kind = f.effect?.kind;
      root.append(
        this.bar(
          'fault',
          i,
          num(f.start_ms),
          num(f.duration_ms),
          y,
          ROW_H - 10,
          typeof kind === 'string' ? valueLabel(kind) : '?',
        ),
      );
    });
    // Axis.
    const axisY = LOAD_H + tiers.length * ROW_H + 2;
    root.append(svg('line', { x1: GUTTER, x2: GUTTER + this.plotW, y1: axisY, y2: axisY, class: 'axis' }));
    const step = niceStep(this.duration / 10);
    for (let ms = 0; ms <= this.duration + 1e-9; ms += step) {
      const x = this.x(ms);
      root.append(svg('line', { x1: x, x2: x, y1: axisY, y2: axisY + 4, class: 'axis' }));
      root.append(
        svg('text', { x, y: axisY + 16, 'text-anchor': 'middle', class: 'tick' }, `${+(ms / 1000).toFixed(1)}s`),
      );
    }
    root.addEventListener('pointerdown', (/** @type {PointerEvent} */ e) => this.down(e));
    root.addEventListener('pointermove', (/** @type {PointerEvent} */ e) => this.move(e));
    root.addEventListener('pointerup', (/** @type {PointerEvent} */ e) => this.up(e));
    root.addEventListener('pointercancel', () => {
      this.drag = null;
    });
    root.addEventListener('dblclick', (/** @type {MouseEvent} */ e) => {
      const row = hit(e, '[data-row]');
      if (row) this.hooks.addFault(Number(row.dataset.row), this.snap(this.toMs(e)));
    });
    root.addEventListener('click', (/** @type {MouseEvent} */ e) => {
      const add = hit(e, '[data-add]');
      if (add) this.hooks.addFault(Number(add.dataset.add), this.snap(this.duration / 3));
    });
    root.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      const add = hit(e, '[data-add]');
      if (add && (e.key === 'Enter' || e.key === ' '))
        this.hooks.addFault(Number(add.dataset.add), this.snap(this.duration / 3));
      const g = hit(e, 'g.bar');
      if (g) this.key(e, String(g.dataset.type), Number(g.dataset.index));
    });
    this.svg = root;
    this.root.replaceChildren(root);
  }

  /**
   * The load's rate at `samples + 1` times over the run, or null while it does not parse.
   * @param {unknown} load
   * @param {number} samples
   * @returns {number[] | null}
   */
  loadShape(load, samples) {
    try {
      return [...this.hooks.wasm.clusterLoadShape(load, this.duration, samples)];
    } catch {
      return null;
    }
  }

  /**
   * A draggable bar: a fault or a schedule segment.
   * @param {string} type fault or segment
   * @param {number} i its index
   * @param {number} start ms
   * @param {number} dur ms
   * @param {number} y px
   * @param {number} h px
   * @param {string} text its label
   */
  bar(type, i, start, dur, y, h, text) {
    const x0 = this.x(start);
    // Short faults (a 1.4 s pause in a 90 s run) stay wide enough to grab.
    const w = Math.max(MIN_W, this.x(start + dur) - x0);
    const sel = type === 'fault' && this.selected === i;
    const bad = type === 'fault' && this.invalid.has(i);
    const g = svg('g', {
      class: `bar ${type}${sel ? ' selected' : ''}${bad ? ' bad' : ''}`,
      'data-type': type,
      'data-index': i,
      transform: `translate(${x0.toFixed(2)},${y})`,
      tabindex: 0,
      role: 'button',
      'aria-label': t(`cluster.tl.${type}Aria`, {
        what: text,
        from: (start / 1000).toFixed(1),
        to: ((start + dur) / 1000).toFixed(1),
      }),
    });
    g.append(svg('rect', { class: 'body', x: 0, y: 0, width: w, height: h, rx: 3 }));
    // The label grabs like the bar (a short fault's label runs past its bar), under the
    // resizing ends, which stay on top.
    g.append(svg('text', { x: 4, y: h / 2 + 4, class: 'bar-label' }, text));
    g.append(svg('rect', { class: 'edge', 'data-edge': 'start', x: 0, y: 0, width: Math.min(EDGE, w / 3), height: h }));
    g.append(
      svg('rect', {
        class: 'edge',
        'data-edge': 'end',
        x: w - Math.min(EDGE, w / 3),
        y: 0,
        width: Math.min(EDGE, w / 3),
        height: h,
      }),
    );
    g.append(
      svg(
        'title',
        {},
        t('cluster.tl.barTitle', {
          what: text,
          from: (start / 1000).toFixed(1),
          to: ((start + dur) / 1000).toFixed(1),
        }),
      ),
    );
    return g;
  }

  /**
   * Keyboard: Enter selects a fault; arrows move by 100 ms (1 s with Alt); Shift+arrows resize.
   * @param {KeyboardEvent} e
   * @param {string} type
   * @param {number} i
   */
  key(e, type, i) {
    if ((e.key === 'Enter' || e.key === ' ') && type === 'fault') {
      e.preventDefault();
      this.hooks.onSelect(i);
      return;
    }
    const dir = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!dir) return;
    e.preventDefault();
    const step = dir * (e.altKey ? 1000 : SNAP_MS);
    const it = this.item(type, i);
    const [s, end] = this.span(type, it);
    if (e.shiftKey) this.setSpan(type, it, s, Math.max(s + SNAP_MS, end + step));
    else if (s + step >= 0) this.setSpan(type, it, s + step, end + step);
    this.render();
    this.hooks.onEdit(true); // (which may render again)
    /** @type {SVGGElement | null} */ (
      this.svg.querySelector(`g.bar[data-type="${type}"][data-index="${i}"]`)
    )?.focus();
  }

  /** @param {MouseEvent} e */
  toMs(e) {
    const rect = this.svg.getBoundingClientRect();
    return ((e.clientX - rect.left - GUTTER) / this.plotW) * this.duration;
  }

  /** @param {number} ms */
  snap(ms) {
    return Math.max(0, Math.round(ms / SNAP_MS) * SNAP_MS);
  }

  /**
   * @param {string} type
   * @param {number} i
   * @returns {any}
   */
  item(type, i) {
    return type === 'fault' ? this.cfg.faults[i] : this.cfg.load.schedule[i];
  }

  /**
   * [start, end] of a bar's item, ms.
   * @param {string} type
   * @param {any} it
   * @returns {[number, number]}
   */
  span(type, it) {
    return type === 'fault'
      ? [num(it.start_ms), num(it.start_ms) + num(it.duration_ms)]
      : [num(it.start_ms), num(it.end_ms)];
  }

  /**
   * @param {string} type
   * @param {any} it
   * @param {number} s
   * @param {number} e
   */
  setSpan(type, it, s, e) {
    it.start_ms = s;
    if (type === 'fault') it.duration_ms = e - s;
    else it.end_ms = e;
  }

  /** @param {PointerEvent} e */
  down(e) {
    const g = hit(e, 'g.bar');
    if (!g || e.button !== 0) return;
    e.preventDefault();
    const type = String(g.dataset.type);
    const i = Number(g.dataset.index);
    const it = this.item(type, i);
    const [s, end] = this.span(type, it);
    const mode = /** @type {SVGElement} */ (e.target).dataset.edge || 'move';
    this.drag = { type, i, g, mode, x0: e.clientX, s, end, moved: false };
    this.svg.setPointerCapture(e.pointerId);
  }

  /** @param {PointerEvent} e */
  move(e) {
    const d = this.drag;
    if (!d) return;
    const dms = ((e.clientX - d.x0) / this.plotW) * this.duration;
    if (!d.moved && Math.abs(e.clientX - d.x0) < 3) return;
    d.moved = true;
    let s = d.s;
    let end = d.end;
    if (d.mode === 'move') {
      const len = d.end - d.s;
      s = Math.min(this.snap(d.s + dms), Math.max(0, this.snap(this.duration - len)));
      end = s + len;
    } else if (d.mode === 'start') {
      s = Math.min(this.snap(d.s + dms), d.end - SNAP_MS);
    } else {
      end = Math.max(this.snap(d.end + dms), d.s + SNAP_MS);
    }
    this.setSpan(d.type, this.item(d.type, d.i), s, end);
    // Move the bar itself, without rebuilding the SVG under the pointer.
    const x0 = this.x(s);
    const w = Math.max(MIN_W, this.x(end) - x0);
    const y = d.g.transform.baseVal.consolidate()?.matrix.f ?? 0;
    d.g.setAttribute('transform', `translate(${x0.toFixed(2)},${y})`);
    d.g.querySelector('.body')?.setAttribute('width', String(w));
    const ew = String(Math.min(EDGE, w / 3));
    const edges = d.g.querySelectorAll('.edge');
    edges[0].setAttribute('width', ew);
    edges[1].setAttribute('x', String(w - Number(ew)));
    edges[1].setAttribute('width', ew);
    this.hooks.onEdit(false);
  }

  /** @param {PointerEvent} e */
  up(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (this.svg.hasPointerCapture(e.pointerId)) this.svg.releasePointerCapture(e.pointerId);
    if (d.moved) {
      this.render();
      this.hooks.onEdit(true);
    } else if (d.type === 'fault') {
      this.hooks.onSelect(d.i);
    }
  }
}

/** A round step (1, 2 or 5 × 10^n) near `raw`. */
/** @param {number} raw */
function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}
