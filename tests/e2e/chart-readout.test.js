// End-to-end tests of the charts' readout in headless Chromium: a cursor line marks the
// bucket read out, for the keyboard and the mouse alike, and the readout box stays on
// the screen at 360 px wherever a reader taps (both models). Screenshots go to
// ARTIFACTS (chart-readout-*.png) to be looked at.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });

before(() => h.start());
after(() => h.stop());

/**
 * Opens the page (classic, or cluster by its model switch) at `width` and waits for its first run.
 * @param {{model?: 'classic' | 'cluster', width?: number, height?: number}} options
 */
async function open({ model = 'classic', width = 1280, height = 900 } = {}) {
  const page = await h.page(`${h.url}?lang=en`);
  await page.setViewportSize({ width, height });
  await e2e.waitRunCount(page, 'runs', 1);
  if (model === 'cluster') {
    await page.click('input[name="model"][value="cluster"]');
    await e2e.waitRunCount(page, 'clusterRuns', 1);
  }
  return page;
}

/**
 * The bounding box of a visible element, or null when it is hidden.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
function shown(page, selector) {
  return page.$eval(selector, (e) => {
    if (/** @type {HTMLElement} */ (e).hidden) return null;
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
}

test('the keyboard and the mouse readouts draw a cursor line on the bucket read out', async () => {
  const page = await open();
  const canvas = /** @type {{x: number, y: number, width: number, height: number}} */ (
    await page.locator('#classic-chart').boundingBox()
  );
  const cursor = '#classic-chart-block .chart-cursor';
  assert.equal(await shown(page, cursor), null, 'no line before a readout');
  await page.focus('#classic-chart');
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  assert.match(String(await page.textContent('#classic-readout .readout-title')), /^second 8\b/);
  const at8 = await shown(page, cursor);
  assert.ok(at8, 'the keyboard readout has its line');
  // Over the plot only: inside the canvas, and above the legend's rows under the plot.
  assert.ok(at8.left > canvas.x && at8.left < canvas.x + canvas.width, `${at8.left} in the canvas`);
  assert.ok(at8.top >= canvas.y && at8.bottom <= canvas.y + canvas.height - 40, `${at8.top}–${at8.bottom}`);
  await page
    .locator('#classic-chart-block')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'chart-readout-cursor-1280.png') });
  // One key further, the line moves one second right.
  await page.keyboard.press('ArrowRight');
  const at9 = /** @type {{left: number}} */ (await shown(page, cursor));
  assert.ok(at9.left > at8.left, `${at9.left} right of ${at8.left}`);
  // The mouse over the keyboard's line reads out the same second, with its line there.
  await page.mouse.move(at8.left, canvas.y + canvas.height / 3);
  assert.match(String(await page.textContent('#classic-readout .readout-title')), /^second 8\b/);
  const byMouse = /** @type {{left: number}} */ (await shown(page, cursor));
  assert.ok(Math.abs(byMouse.left - at8.left) <= 1, `${byMouse.left} at ${at8.left}`);
  await page.keyboard.press('Escape');
  assert.equal(await shown(page, cursor), null, 'Escape hides the line with the readout');
  assert.deepEqual(page.errors, []);
  await page.close();
});

for (const model of /** @type {const} */ (['classic', 'cluster'])) {
  test(`at 360 px a tap anywhere on the ${model} chart keeps its readout on the screen`, async () => {
    const page = await open({ model, width: 360, height: 740 });
    const chart = `#${model}-chart`;
    await page.locator(chart).scrollIntoViewIfNeeded();
    const box = /** @type {{x: number, y: number, width: number, height: number}} */ (
      await page.locator(chart).boundingBox()
    );
    for (const f of [0.26, 0.35, 0.45, 0.55, 0.7, 0.95]) {
      await page.mouse.move(box.x + f * box.width, box.y + 80);
      const r = await shown(page, `#${model}-readout`);
      assert.ok(r, `a readout at ${f} of the width`);
      assert.ok(r.left >= 0 && r.right <= 360, `the readout at ${f}: ${r.left}–${r.right} on a 360 px screen`);
      // Its text wraps inside it rather than running out of the box.
      const spill = await page.$eval(`#${model}-readout`, (e) => e.scrollWidth - e.clientWidth);
      assert.ok(spill <= 0, `the readout's text at ${f} runs ${spill} px out of it`);
      if (f === 0.45) {
        await page.screenshot({ path: path.join(e2e.ARTIFACTS, `chart-readout-${model}-360.png`) });
      }
    }
    // Nothing sticks out to the right either (no sideways scroll on the phone).
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
