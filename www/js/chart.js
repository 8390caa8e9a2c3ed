// Chart glue: draws the engine's output with the wasm chart (plotters-canvas), shows
// the hover readout from the chart handle, keeps an HTML legend to hide/show
// strategies, and redraws when the canvas changes size.

import { el, $ } from './dom.js';

export class ChartView {
  /**
   * @param {object} wasm bindings (drawChart)
   * @param {() => number[]} getHidden hidden strategy indices (view state)
   * @param {(hidden: number[]) => void} setHidden called when the legend toggles one
   */
  constructor(wasm, getHidden, setHidden) {
    this.wasm = wasm;
    this.canvas = $('chart');
    this.readout = $('readout');
    this.getHidden = getHidden;
    this.setHidden = setHidden;
    this.output = null;
    this.handle = null;
    this.frame = 0;
    this.lastWidth = 0;
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.readout.hidden = true; });
    // Redraw on any size change (window resize, iframe resize, layout), once per frame.
    new ResizeObserver(() => {
      const w = this.canvas.clientWidth;
      if (w !== this.lastWidth && this.output) this.schedule();
    }).observe(this.canvas);
    // A move between screens can change devicePixelRatio without a resize.
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

  /** Draws `output` now; returns the time it took in ms. */
  show(output) {
    this.output = output;
    return this.draw();
  }

  draw() {
    if (!this.output) return 0;
    const t0 = performance.now();
    if (this.handle) this.handle.free();
    this.lastWidth = this.canvas.clientWidth;
    this.handle = this.wasm.drawChart(this.canvas, this.output, { hidden: this.getHidden() });
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn || 0) + 1);
    this.renderLegend();
    return performance.now() - t0;
  }

  renderLegend() {
    const hidden = new Set(this.getHidden());
    const colors = this.handle.colors();
    const items = this.output.results.map((r, i) => {
      const box = el('input', { type: 'checkbox', 'data-series': String(i) });
      box.checked = !hidden.has(i);
      box.addEventListener('change', () => {
        const next = new Set(this.getHidden());
        if (box.checked) next.delete(i);
        else next.add(i);
        this.setHidden([...next].sort((a, b) => a - b));
        this.draw();
      });
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = colors[i];
      return el('label', {}, box, swatch, el('span', { text: r.name }));
    });
    $('legend').replaceChildren(...items);
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
    const rows = r.values.filter((v) => !v.hidden).map((v) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = v.color;
      const over = v.attempts > r.capacity;
      return el('div', { class: over ? 'over' : '' }, swatch, el('span', { text: v.name }), el('b', { text: String(v.attempts) }));
    });
    this.readout.replaceChildren(
      el('div', { class: 'readout-title', text: `second ${r.second} · capacity ${r.capacity}` }), ...rows);
    this.readout.hidden = false;
    // Keep the box inside the chart: flip to the left of the cursor on the right half.
    const left = x > rect.width / 2 ? x - this.readout.offsetWidth - 12 : x + 12;
    this.readout.style.left = `${Math.max(0, left)}px`;
    this.readout.style.top = `${Math.max(0, Math.min(y, rect.height - this.readout.offsetHeight))}px`;
  }
}
