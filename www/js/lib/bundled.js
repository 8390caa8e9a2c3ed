// Which bundled scenario (preset) a scenario is, whatever the order of its keys: a link
// to a preset shows the preset's description, and an embed of it is captioned with its
// title in the page's language.

/** @typedef {import('../../retrystorm-web.js').Preset} Preset */

/**
 * JSON with every object's keys sorted, to compare two scenarios whatever their key order.
 * @param {unknown} v
 */
export const sortedJson = (v) =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );

/**
 * The preset of `model` whose scenario is `cfg`, if any.
 * @param {Preset[]} presets
 * @param {'classic' | 'cluster'} model
 * @param {unknown} cfg
 * @param {(scenario: unknown) => unknown} [normalize] how the app holds a scenario (the cluster's defaults filled in)
 * @returns {Preset | undefined}
 */
export function bundledMatch(presets, model, cfg, normalize = (s) => s) {
  const key = sortedJson(cfg);
  return presets.find((p) => p.model === model && sortedJson(normalize(p.scenario)) === key);
}
