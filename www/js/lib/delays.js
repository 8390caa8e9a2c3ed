// The delay preview: how long a client waits before each retry for the chosen backoff and
// jitter, over many sampled requests drawn by the engine's own code (delayPreview() in
// the wasm). One row per retry: a line from the shortest to the longest wait, a box over
// the middle half, a tick at the median. Both models' editors use it.

import { el } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('../../retrystorm-web.js').RetryDelays} RetryDelays */

const SVG = 'http://www.w3.org/2000/svg';
// Requests sampled per preview, and their seed: fixed, so the preview of a setting is
// always the same picture.
export const PREVIEW_SAMPLES = 2000;
export const PREVIEW_SEED = 1;
const ROW = 18;
const LEFT = 34;
const WIDTH = 360;

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** @param {number} ms */
const fmt = (ms) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;

/**
 * Draws the preview of `delays` into `box` under `caption`; an empty list says that this
 * setting never retries. The chart's text alternative lists every retry's spread.
 * @param {HTMLElement} box
 * @param {RetryDelays[]} delays
 * @param {string} caption
 */
export function renderDelays(box, delays, caption) {
  const head = el('figcaption', { text: caption });
  if (!delays.length) {
    box.replaceChildren(head, el('p', { class: 'hint', text: t('delays.noRetry') }));
    return;
  }
  const top = Math.max(1, ...delays.map((d) => d.max));
  const x = (/** @type {number} */ ms) => LEFT + (ms / top) * (WIDTH - LEFT - 8);
  const height = delays.length * ROW + 18;
  const summary = delays
    .map((d) => t('delays.row', { n: d.retry, min: fmt(d.min), median: fmt(d.median), max: fmt(d.max) }))
    .join('; ');
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    class: 'delay-svg',
    role: 'img',
    'aria-label': `${caption}: ${summary}`,
    'data-medians': delays.map((d) => d.median).join(','),
    'data-maxima': delays.map((d) => d.max).join(','),
    'data-minima': delays.map((d) => d.min).join(','),
  });
  delays.forEach((d, i) => {
    const y = i * ROW + ROW / 2 + 2;
    const label = svg('text', { x: 2, y: y + 4, class: 'delay-label' });
    label.textContent = `#${d.retry}`;
    chart.append(
      label,
      svg('line', { x1: x(d.min), x2: x(d.max), y1: y, y2: y, class: 'delay-range' }),
      svg('rect', { x: x(d.p25), y: y - 5, width: Math.max(1, x(d.p75) - x(d.p25)), height: 10, class: 'delay-box' }),
      svg('line', { x1: x(d.median), x2: x(d.median), y1: y - 7, y2: y + 7, class: 'delay-median' }),
    );
  });
  const axis = svg('text', { x: WIDTH - 4, y: height - 3, 'text-anchor': 'end', class: 'delay-label' });
  axis.textContent = fmt(top);
  const zero = svg('text', { x: LEFT, y: height - 3, class: 'delay-label' });
  zero.textContent = '0';
  chart.append(zero, axis);
  box.replaceChildren(head, chart);
}
