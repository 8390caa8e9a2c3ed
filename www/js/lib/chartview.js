// Chart view plumbing for both models: draws through a callback that returns the
// chart handle of a wasm chart (plotters-canvas), redraws when the canvas changes size
// or the device pixel ratio changes (a move between screens), and shows the hover
// readout the handle formats ({title, rows: [{label, value, color, alarm}]}), as text.
// Keyboard: the canvas takes focus and the arrow keys (Home, End, Page Up/Down) step the
// readout through the buckets (seconds), each shown exactly as the mouse over it shows
// it (the handle reads both at the bucket through one function). A cursor line marks the
// bucket read out, for the mouse and the keyboard alike. Text alternative: a
// "data table" disclosure under the chart holds the engine's CSV export as a table.

import { el } from './dom.js';
import { applyTexts, lang, onLangChange, t } from './i18n.js';
import { placeReadout } from './place.js';
import { parseCsv, renderTable } from './table.js';

/** @typedef {import('../../retrystorm-web.js').ChartHandle} Handle */

/**
 * The charts' theme: the link's `theme=` (boot.js puts it on <html>), else the reader's
 * `prefers-color-scheme`, as the page's own colours follow it (style.css).
 * @returns {'light' | 'dark'}
 */
export function chartTheme() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export class ChartView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} readout the hover box
   * @param {(canvas: HTMLCanvasElement, options: {theme: 'light' | 'dark', lang: 'en' | 'zh'}) => Handle | null} draw
   *   draws the current data with the page's chart options: its theme and its language, in which the engine
   *   writes every text of the chart (null: nothing to draw)
   * @param {() => string | null} csv the engine's CSV of what the chart shows (null: no run yet)
   */
  constructor(canvas, readout, draw, csv) {
    this.canvas = canvas;
    this.readout = readout;
    this.drawFn = draw;
    this.csv = csv;
    /** @type {Handle | null} */
    this.handle = null;
    this.frame = 0;
    this.lastWidth = 0;
    /** The bucket the keyboard's readout stands on. */
    this.pos = 0;
    // The cursor line, beside the readout in the chart's box (which places both).
    this.cursor = el('div', { class: 'chart-cursor', hidden: true, 'aria-hidden': 'true' });
    readout.before(this.cursor);
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => {
      if (document.activeElement !== canvas) this.hide();
    });
    canvas.tabIndex = 0;
    // Read out as it moves (keyboard and screen reader users hear each bucket).
    readout.setAttribute('aria-live', 'polite');
    canvas.addEventListener('focus', () => this.step(0));
    canvas.addEventListener('blur', () => this.hide());
    canvas.addEventListener('keydown', (e) => this.key(e));
    // The data table, one click away under the chart; filled when opened.
    this.tableEl = el('table', { class: 'results chart-data-table' });
    this.details = el(
      'details',
      { class: 'chart-data' },
      el('summary', { text: t('chart.dataTable'), 'data-i18n': 'chart.dataTable' }),
      el(
        'div',
        {
          class: 'scroll',
          tabindex: '0',
          role: 'region',
          'aria-label': t('chart.dataTable'),
          'data-i18n-aria-label': 'chart.dataTable',
        },
        this.tableEl,
      ),
    );
    this.details.addEventListener('toggle', () => this.renderData());
    (canvas.parentElement ?? canvas).after(this.details);
    applyTexts(this.details);
    // Redraw on any size change (window resize, iframe resize, layout), once per frame.
    new ResizeObserver(() => {
      if (this.canvas.clientWidth !== this.lastWidth && this.handle) this.schedule();
    }).observe(canvas);
    this.watchDpr();
    // The reader's colour scheme changing redraws in the other theme (unless the link chose).
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.schedule());
    // The chart's texts are the engine's, in the page's language: a switch redraws them.
    onLangChange(() => {
      if (this.handle) this.schedule();
    });
  }

  watchDpr() {
    const mq = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    mq.addEventListener(
      'change',
      () => {
        this.schedule();
        this.watchDpr();
      },
      { once: true },
    );
  }

  /** Redraws at the next frame. */
  schedule() {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.draw());
  }

  /** Draws now; returns the time it took, ms. */
  draw() {
    const t0 = performance.now();
    this.lastWidth = this.canvas.clientWidth;
    const handle = this.drawFn(this.canvas, { theme: chartTheme(), lang: lang() });
    if (!handle) return 0;
    this.handle?.free();
    this.handle = handle;
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn || 0) + 1);
    this.renderData();
    if (document.activeElement === this.canvas) this.step(0);
    return performance.now() - t0;
  }

  /** The data table from the engine's CSV, when it is open (a closed one waits). */
  renderData() {
    if (!this.details.open) return;
    const text = this.csv();
    if (text !== null) renderTable(this.tableEl, parseCsv(text));
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const n = this.handle?.positions() ?? 0;
    /** @type {Record<string, number>} */
    const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    if (e.key in moves) this.step(moves[e.key]);
    else if (e.key === 'Home') this.step(-n);
    else if (e.key === 'End') this.step(n);
    else if (e.key === 'Escape') this.hide();
    else return;
    e.preventDefault();
  }

  /**
   * Moves the keyboard's readout by `delta` buckets (0: shows it where it stands).
   * @param {number} delta
   */
  step(delta) {
    const h = this.handle;
    if (!h) return;
    const n = h.positions();
    this.pos = Math.max(0, Math.min(n - 1, this.pos + delta));
    const r = h.readoutAt(this.pos);
    if (!r) {
      this.hide();
      return;
    }
    // A chart of points (a sweep's heatmap) places the readout at the point's height too.
    const y = 'positionY' in h ? /** @type {{positionY(i: number): number}} */ (h).positionY(this.pos) : 0;
    const x = h.positionX(this.pos);
    this.show(r, x, y, x);
  }

  /** @param {MouseEvent} event */
  hover(event) {
    if (!this.handle) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const r = this.handle.readout(x, y);
    if (!r) {
      this.hide();
      return;
    }
    this.pos = r.bucket;
    // The line stands on the bucket's middle, where the keyboard's stands too.
    this.show(r, x, y, this.handle.positionX(r.bucket));
  }

  /** Hides the readout and its cursor line. */
  hide() {
    this.readout.hidden = true;
    this.cursor.hidden = true;
  }

  /**
   * Shows a readout beside CSS position (x, y) of the canvas, and the cursor line at
   * `lineX` when the chart has a time axis (a handle with a cursor span).
   * @param {import('../../retrystorm-web.js').Readout} r
   * @param {number} x
   * @param {number} y
   * @param {number} [lineX]
   */
  show(r, x, y, lineX) {
    const rect = this.canvas.getBoundingClientRect();
    const rows = r.rows.map((row) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = row.color;
      return el(
        'div',
        { class: row.alarm ? 'over' : '' },
        swatch,
        el('span', { text: row.label }),
        el('b', { text: row.value }),
      );
    });
    this.readout.replaceChildren(el('div', { class: 'readout-title', text: r.title }), ...rows);
    this.readout.hidden = false;
    // Measured at the container's left edge, where it has its whole width (further
    // right an absolute box shrinks and wraps its rows to the space left).
    this.readout.style.left = '0px';
    this.readout.style.width = '';
    const width = this.readout.offsetWidth;
    // That width kept where it goes (box-sizing: border-box, so it is the whole box).
    this.readout.style.width = `${width}px`;
    // Beside the cursor and inside the viewport (a tap near a phone's edge included).
    const box = this.readout.offsetParent?.getBoundingClientRect() ?? rect;
    const at = placeReadout({
      x: x + rect.left - box.left,
      y: y + rect.top - box.top,
      box: [width, this.readout.offsetHeight],
      area: [rect.width, rect.height],
      view: [box.left, document.documentElement.clientWidth],
    });
    this.readout.style.left = `${at.left}px`;
    this.readout.style.top = `${at.top}px`;
    const h = this.handle;
    if (lineX === undefined || !h || !('cursorSpan' in h)) {
      this.cursor.hidden = true;
      return;
    }
    // The canvas's border and its place in the box shift the line as they shift the chart.
    const [top, bottom] = h.cursorSpan();
    const dx = rect.left - box.left + this.canvas.clientLeft;
    const dy = rect.top - box.top + this.canvas.clientTop;
    this.cursor.style.left = `${Math.round(lineX + dx)}px`;
    this.cursor.style.top = `${Math.round(top + dy)}px`;
    this.cursor.style.height = `${Math.max(0, Math.min(bottom, this.canvas.clientHeight) - top)}px`;
    this.cursor.hidden = false;
  }
}
