// Unit tests of where the chart's readout box goes (www/js/lib/place.js), in node: beside
// the cursor, and never past the viewport's edges, whatever the box's width.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EDGE, placeReadout } from '../../www/js/lib/place.js';

test('the box stands right of the cursor on the left half and left of it on the right half', () => {
  const area = /** @type {[number, number]} */ ([900, 380]);
  const view = /** @type {[number, number]} */ ([20, 1280]);
  const left = placeReadout({ x: 100, y: 50, box: [200, 120], area, view });
  assert.equal(left.left, 112);
  const right = placeReadout({ x: 700, y: 50, box: [200, 120], area, view });
  assert.equal(right.left, 700 - 200 - 12);
  // Kept inside the chart's height.
  assert.equal(placeReadout({ x: 100, y: 350, box: [200, 120], area, view }).top, 380 - 120);
});

test('on a phone a tap near either edge keeps the whole box on the screen', () => {
  // A 360 px viewport, the chart's box 16 px from its left edge and 328 px wide.
  const area = /** @type {[number, number]} */ ([328, 430]);
  const view = /** @type {[number, number]} */ ([16, 360]);
  for (const x of [0, 40, 120, 163, 164, 200, 300, 328]) {
    for (const w of [160, 240, 300]) {
      const { left } = placeReadout({ x, y: 10, box: [w, 150], area, view });
      const screenLeft = 16 + left;
      assert.ok(screenLeft >= EDGE, `x ${x}, width ${w}: left edge ${screenLeft}`);
      assert.ok(screenLeft + w <= 360 - EDGE, `x ${x}, width ${w}: right edge ${screenLeft + w}`);
    }
  }
  // Wider than the screen: its left edge stays on it.
  assert.equal(16 + placeReadout({ x: 300, y: 0, box: [500, 100], area, view }).left, EDGE);
});
