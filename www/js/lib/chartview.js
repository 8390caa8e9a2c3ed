// Chart view plumbing for both models: draws through a callback that returns the
// chart handle of a wasm chart (plotters-canvas), redraws when the canvas changes size
// or the device pixel ratio changes (a move between screens), and shows the hover
// readout the handle formats ({title, rows: [{label, value, color, alarm}]}), as text.
// Keyboard: the canvas takes focus and the arrow keys (Home, End, Page Up/Down) step the
// readout through the buckets (seconds), each shown exactly as the mouse over it shows
// it (the handle reads both at the bucket through one function). Text alternative: a
// "data table" disclosure under the chart holds the engine's CSV export as a table.

import { el } from './dom.js';
import { applyTexts, lang, onLangChange, t } from './i18n.js';
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
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => {
      if (document.activeElement !== canvas) this.readout.hidden = true;
    });
    canvas.tabIndex = 0;
    // Read out as it moves (keyboard and screen reader users hear each bucket).
    readout.setAttribute('aria-live', 'polite');
    canvas.addEventListener('focus', () => this.step(0));
    canvas.addEventListener('blur', () => {
      this.readout.hidden = true;
    });
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
    else if (e.key === 'Escape') this.readout.hidden = true;
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
      this.readout.hidden = true;
      return;
    }
    // A chart of points (a sweep's heatmap) places the readout at the point's height too.
    const y = 'positionY' in h ? /** @type {{positionY(i: number): number}} */ (h).positionY(this.pos) : 0;
    this.show(r, h.positionX(this.pos), y);
  }

  /** @param {MouseEvent} event */
  hover(event) {
    if (!this.handle) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const r = this.handle.readout(x, y);
    if (!r) {
      this.readout.hidden = true;
      return;
    }
    this.pos = r.bucket;
    this.show(r, x, y);
  }

  /**
   * Shows a readout beside CSS position (x, y) of the canvas.
   * @param {import('../../retrystorm-web.js').Readout} r
   * @param {number} x
   * @param {number} y
   */
  show(r, x, y) {
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
    // Keep the box inside the chart: flip to the left of the cursor on the right half.
    const left = x > rect.width / 2 ? x - this.readout.offsetWidth - 12 : x + 12;
    this.readout.style.left = `${Math.max(0, left)}px`;
    this.readout.style.top = `${Math.max(0, Math.min(y, rect.height - this.readout.offsetHeight))}px`;
  }
}
