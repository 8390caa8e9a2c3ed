// Cluster chart glue: draws a run with the wasm chart (plotters-canvas, drawClusterChart),
// sizes the canvas for the scenario's panels, shows the hover readout the chart handle
// formats, and redraws on resize and when the device pixel ratio changes.

import { el } from '../dom.js';

export class ClusterChart {
  /**
   * @param {object} wasm bindings
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} readout hover box
   */
  constructor(wasm, canvas, readout) {
    this.wasm = wasm;
    this.canvas = canvas;
    this.readout = readout;
    this.data = null; // {cfg, result, compare}
    this.handle = null;
    this.frame = 0;
    this.lastWidth = 0;
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => { this.readout.hidden = true; });
    new ResizeObserver(() => {
      if (this.canvas.clientWidth !== this.lastWidth && this.data) this.schedule();
    }).observe(canvas);
    this.watchDpr();
  }

  watchDpr() {
    const mq = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    mq.addEventListener('change', () => { this.schedule(); this.watchDpr(); }, { once: true });
  }

  schedule() {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.draw());
  }

  /** Draws `result` (a run of `cfg`), with the pinned run `compare` or null; returns ms taken. */
  show(cfg, result, compare) {
    this.data = { cfg, result, compare };
    return this.draw();
  }

  draw() {
    if (!this.data) return 0;
    const t0 = performance.now();
    const { cfg, result, compare } = this.data;
    this.canvas.style.height = `${this.wasm.clusterChartHeight(cfg)}px`;
    if (this.handle) this.handle.free();
    this.lastWidth = this.canvas.clientWidth;
    this.handle = this.wasm.drawClusterChart(this.canvas, cfg, result, compare ?? null, {});
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn || 0) + 1);
    return performance.now() - t0;
  }

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
      return el('div', { class: row.alarm ? 'over' : '' }, swatch, el('span', { text: row.label }), el('b', { text: row.value }));
    });
    this.readout.replaceChildren(el('div', { class: 'readout-title', text: r.title }), ...rows);
    this.readout.hidden = false;
    const left = x > rect.width / 2 ? x - this.readout.offsetWidth - 12 : x + 12;
    this.readout.style.left = `${Math.max(0, left)}px`;
    this.readout.style.top = `${Math.max(0, Math.min(y, rect.height - this.readout.offsetHeight))}px`;
  }
}
