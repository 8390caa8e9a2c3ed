// Chart view plumbing for both models: draws through a callback that returns the
// chart handle of a wasm chart (plotters-canvas), redraws when the canvas changes size
// or the device pixel ratio changes (a move between screens), and shows the hover
// readout the handle formats ({title, rows: [{label, value, color, alarm}]}), as text.

import { el } from './dom.js';

/** @typedef {import('../../retrystorm-web.js').ChartHandle} Handle */

export class ChartView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} readout the hover box
   * @param {(canvas: HTMLCanvasElement) => Handle | null} draw draws the current data (null: nothing to draw)
   */
  constructor(canvas, readout, draw) {
    this.canvas = canvas;
    this.readout = readout;
    this.drawFn = draw;
    /** @type {Handle | null} */
    this.handle = null;
    this.frame = 0;
    this.lastWidth = 0;
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => {
      this.readout.hidden = true;
    });
    // Redraw on any size change (window resize, iframe resize, layout), once per frame.
    new ResizeObserver(() => {
      if (this.canvas.clientWidth !== this.lastWidth && this.handle) this.schedule();
    }).observe(canvas);
    this.watchDpr();
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
    const handle = this.drawFn(this.canvas);
    if (!handle) return 0;
    this.handle?.free();
    this.handle = handle;
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn || 0) + 1);
    return performance.now() - t0;
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
