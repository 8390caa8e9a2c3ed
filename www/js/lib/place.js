// Where a chart's hover or keyboard readout box goes: beside the cursor (right of it on
// the chart's left half, left of it on the right half), then moved back inside the
// viewport, so on a phone a tap near either edge never pushes the box off the screen.
// Pure arithmetic, no DOM: the unit tests call it in node.

/** The space kept between the box and the viewport's edges, CSS pixels. */
export const EDGE = 4;

/**
 * The box's position in its container's coordinates (CSS pixels).
 * @param {{x: number, y: number, box: [number, number], area: [number, number], view: [number, number]}} at
 *   x, y: the cursor in the container; box: the box's width and height; area: the chart's
 *   width and height; view: the container's left edge in the viewport and the viewport's width
 * @returns {{left: number, top: number}}
 */
export function placeReadout({ x, y, box, area, view }) {
  const [w, h] = box;
  const [aw, ah] = area;
  const [viewLeft, viewWidth] = view;
  const beside = x > aw / 2 ? x - w - 12 : x + 12;
  // Inside the viewport; a box wider than the viewport keeps its left edge on screen.
  const min = EDGE - viewLeft;
  const max = viewWidth - viewLeft - w - EDGE;
  const left = Math.max(min, Math.min(beside, max));
  const top = Math.max(0, Math.min(y, ah - h));
  return { left, top };
}
