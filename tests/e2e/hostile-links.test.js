// Hostile share links, a few hundred of them in one page: links the page itself makes
// (both models, ensembles, sweeps, an A/B pin), mutated deterministically from a fixed
// seed (cut short, characters flipped, bad base64, other versions, huge numbers, deep
// nesting, control characters and markup in names, unknown fields, wrong types, missing
// fields, far too long). For each one: no page error; a refusal shows a named message
// (the reader's "looks cut off", with the technical message naming the field in its
// details); an accepted link shows no such banner; markup in a name never runs; and the
// main thread never freezes (no long task over a generous bound while the links load).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

// The mutations come from this seed: the same links on every run.
const SEED = 20261203;
// Links opened by a full page load (the boot path), then by history (the popstate path).
const LOADS = 12;
const LINKS = 300;
// A frozen main thread, not a slow one: a generous bound, never a timing benchmark. The
// issue's 200 ms is not a bound a test can hold here: the page's boot (the wasm's first
// calls, both apps built, the first table and chart drawn) is one task of 200–530 ms on a
// shared 2-core machine, and opening a cluster sweep's link plans and estimates it (the
// estimate runs a prefix of a few of its points) and draws the single run, each a task of
// a few hundred ms there; many times that when every core is shared. (Planning no longer
// runs the base scenario: the metric names come from its structure.) So the bound is the
// larger of LONG_TASK_MS and REFERENCE_TIMES the planning and estimate of the
// metastability map, timed on the same page, which scale with the machine's load; the
// page's long tasks are measured by tests/e2e/bench-longtasks.js (docs/performance.md).
const LONG_TASK_MS = 2000;
const REFERENCE_TIMES = 4;
// What a name may hold: markup that would run if the page ever parsed it as HTML.
const MARKUP = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '"><svg onload="window.__pwned = \'svg\'">',
  "javascript:window.__pwned='href'",
];
const CONTROL = ['\u0000', '\u0007', '\u001b[31m', '\u202e', '\r\n', '\ufeff', '\ud800'];

/**
 * A small seeded generator (mulberry32): floats in [0, 1).
 * @param {number} seed
 */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Mutations of a link's text `v<N>.<base64url of JSON>`, each `(text, pick) => text`.
 * @type {Record<string, (link: {version: string, json: string}, r: () => number) => string>}
 */
const MUTATIONS = {
  truncate: ({ version, json }, r) => {
    const s = encode(version, json);
    return s.slice(0, Math.floor(r() * s.length));
  },
  flip: ({ version, json }, r) => {
    const s = encode(version, json);
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let out = s;
    const n = 1 + Math.floor(r() * 3);
    for (let k = 0; k < n; k++) {
      const i = 3 + Math.floor(r() * (out.length - 3));
      out = out.slice(0, i) + chars[Math.floor(r() * chars.length)] + out.slice(i + 1);
    }
    return out;
  },
  badBase64: ({ version, json }, r) => {
    const s = encode(version, json);
    const bad = ['!', '=', '==', '%', '+', '/', ' ', '.', '\u00e9', '\u{1f4a5}', '%00', '\\'];
    const i = 3 + Math.floor(r() * (s.length - 3));
    return s.slice(0, i) + bad[Math.floor(r() * bad.length)] + s.slice(i);
  },
  version: ({ json }, r) => {
    const v = ['v0', 'v99', 'vx', 'v', '', 'v1.v1', 'V1', 'v-1', 'v18446744073709551617'];
    return `${v[Math.floor(r() * v.length)]}.${Buffer.from(json).toString('base64url')}`;
  },
  hugeNumber: ({ version, json }, r) => {
    const huge = ['1e400', '-1e400', '1e308', '-1', '18446744073709551616', '9007199254740993', '1.5', '-0', '0'];
    return encode(
      version,
      replaceNth(json, /(?<=:)-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/g, r, () => pick(huge, r)),
    );
  },
  deepNesting: ({ version, json }, r) => {
    const depth = pick([64, 200, 5000], r);
    return encode(
      version,
      replaceNth(json, /(?<=:)-?\d+(?:\.\d+)?/g, r, () => `${'['.repeat(depth)}1${']'.repeat(depth)}`),
    );
  },
  markupName: ({ version, json }, r) => {
    const name = pick(MARKUP, r);
    return encode(
      version,
      json.replace(/"name":"[^"]*"/g, () => `"name":${JSON.stringify(name)}`),
    );
  },
  controlName: ({ version, json }, r) => {
    const c = pick(CONTROL, r);
    // Half escaped (valid JSON), half raw (invalid JSON).
    const text = r() < 0.5 ? JSON.stringify(`a${c}b`) : `"a${c}b"`;
    return encode(
      version,
      replaceNth(json, /"name":"[^"]*"/g, r, () => `"name":${text}`),
    );
  },
  unknownField: ({ version, json }, r) =>
    encode(
      version,
      replaceNth(json, /\{/g, r, () => `{"bogus_${Math.floor(r() * 100)}":${pick(['1', '"x"', '{}'], r)},`),
    ),
  wrongType: ({ version, json }, r) =>
    encode(
      version,
      replaceNth(json, /(?<=:)(?:-?\d+(?:\.\d+)?|"[^"]*"|true|false)/g, r, () =>
        pick(['"x"', 'null', '{}', '[]', 'true', '""'], r),
      ),
    ),
  missingField: ({ version, json }, r) =>
    encode(
      version,
      replaceNth(json, /"\w+":(?:-?\d+(?:\.\d+)?|"[^"]*"|true|false|null),/g, r, () => ''),
    ),
  otherModel: ({ version, json }, r) =>
    encode(
      version,
      json.replace(/"model":"\w+"/, `"model":${JSON.stringify(pick(['quantum', '', 'CLASSIC', '<b>x</b>'], r))}`),
    ),
  tooLong: ({ version, json }) => encode(version, `${json.slice(0, -1)},"pad":"${'x'.repeat(60_000)}"}`),
  notJson: ({ version }, r) => encode(version, pick(['', 'null', '[]', '"s"', '{', '{"model":', '\u0000'], r)),
};

/**
 * @template T
 * @param {T[]} list
 * @param {() => number} r
 * @returns {T}
 */
function pick(list, r) {
  return list[Math.floor(r() * list.length)];
}

/**
 * `text` with one match of `re` (a global regex), chosen by `r`, replaced by `make()`.
 * @param {string} text
 * @param {RegExp} re
 * @param {() => number} r
 * @param {() => string} make
 */
function replaceNth(text, re, r, make) {
  const matches = [...text.matchAll(re)];
  if (!matches.length) return text;
  const m = pick(matches, r);
  const at = /** @type {number} */ (m.index);
  return text.slice(0, at) + make() + text.slice(at + m[0].length);
}

/**
 * @param {string} version
 * @param {string} json
 */
function encode(version, json) {
  return `${version}.${Buffer.from(json, 'utf8').toString('base64url')}`;
}

/**
 * The page's own links: the classic default, an ensemble, every bundled sweep (with its
 * A/B comparison), every cluster scenario, and a cluster A/B pin.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
function pageLinks(page) {
  return page.evaluate(() => {
    const w = window.wasmBindings;
    const scenarios = w.bundledScenarios('en');
    /** @param {string} id */
    const scenario = (id) => scenarios.find((/** @type {any} */ p) => p.id === id)?.scenario;
    const view = { hidden: /** @type {number[]} */ ([]) };
    const classic = w.classicDefaults().scenario;
    const links = [
      w.encodeState({ model: 'classic', classic, view }),
      w.encodeState({ model: 'classic', classic, classic_sweep: { seeds: 30 }, view: { hidden: [1] } }),
    ];
    for (const s of w.sweepPresets('en')) {
      const state = { model: s.model, [s.model]: scenario(s.scenario), [`${s.model}_sweep`]: s.sweep, view };
      if (s.compare) state.cluster_a = scenario(s.compare);
      links.push(w.encodeState(state));
    }
    const clusters = scenarios.filter((/** @type {any} */ p) => p.model === 'cluster');
    for (const p of clusters) links.push(w.encodeState({ model: 'cluster', classic, cluster: p.scenario, view }));
    links.push(
      w.encodeState({ model: 'cluster', cluster: clusters[0].scenario, cluster_a: clusters[1].scenario, view }),
    );
    return links;
  });
}

/**
 * Mutated links, `n` of them, from `bases`, deterministically from SEED.
 * @param {string[]} bases
 * @param {number} n
 */
function hostileLinks(bases, n) {
  const r = rng(SEED);
  const names = Object.keys(MUTATIONS);
  /** @type {{kind: string, text: string}[]} */
  const out = [];
  for (let i = 0; i < n; i++) {
    const base = pick(bases, r);
    const dot = base.indexOf('.');
    const link = { version: base.slice(0, dot), json: Buffer.from(base.slice(dot + 1), 'base64url').toString('utf8') };
    // Every mutation in turn, so each is tried about equally often.
    const kind = names[i % names.length];
    out.push({ kind, text: MUTATIONS[kind](link, r) });
  }
  return out;
}

/**
 * What the engine says of `text` and what the page shows for it once it is the
 * address: the refusal (null: accepted) and the banner's text and details.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 * @param {boolean} viaHistory open it by history (pushState and popstate) rather than as loaded
 */
function openLink(page, text, viaHistory) {
  return page.evaluate(
    ([s, history]) => {
      const w = window.wasmBindings;
      /** @type {{field: string, message: string} | null} */
      let refusal = null;
      try {
        w.decodeState(s, 'en');
      } catch (e) {
        const err = /** @type {any} */ (e);
        refusal = { field: String(err.field ?? ''), message: String(err.message ?? '') };
      }
      if (history) {
        const url = new URL(location.href);
        url.searchParams.set('s', s);
        window.history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      }
      const b = /** @type {HTMLElement} */ (document.getElementById('banner'));
      return {
        refusal,
        banner: b.hidden ? null : String(b.textContent),
        detail: b.querySelector('code')?.textContent ?? null,
      };
    },
    /** @type {const} */ ([text, viaHistory]),
  );
}

/**
 * Starts counting the main thread's long tasks (`window.__longTasks`).
 * @param {import('playwright-core').Page} page
 */
function watchLongTasks(page) {
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
}

/**
 * How long planning and estimating the metastability map takes on this page now (ms):
 * the reference for the long-task bound, measured as the machine is loaded while the
 * test runs.
 * @param {import('playwright-core').Page} page
 */
function referenceTask(page) {
  return page.evaluate(() => {
    const w = window.wasmBindings;
    const s = w.sweepPresets('en').find((/** @type {any} */ p) => p.id === 'metastability-map');
    const scenario = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === s.scenario)?.scenario;
    const t0 = performance.now();
    const plan = new w.Plan('cluster', scenario, s.sweep);
    plan.estimate(2, 'en');
    plan.free();
    return performance.now() - t0;
  });
}

/**
 * The long tasks counted so far on the page loaded (ms).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<number[]>}
 */
function longTasksOf(page) {
  return page.evaluate(() => /** @type {any} */ (window).__longTasks ?? []);
}

test('a few hundred mutated links: named refusals, no page error, no markup runs, no frozen main thread', async () => {
  const page = await h.page(`${h.url}?lang=en&workers=2`);
  await e2e.waitRunCount(page, 'runs', 1);
  const reference = [await referenceTask(page)];
  const bases = await pageLinks(page);
  assert.ok(bases.length >= 8, `${bases.length} links of the page's own`);
  const links = hostileLinks(bases, LINKS);
  /** @type {Record<string, {refused: number, accepted: number}>} */
  const tally = {};
  /** @type {number[]} */
  const longTasks = [];
  let opened = 0;
  for (const [i, { kind, text }] of links.entries()) {
    const viaHistory = i >= LOADS;
    if (!viaHistory) {
      if (i > 0) longTasks.push(...(await longTasksOf(page)));
      await page.goto(`${h.url}?lang=en&workers=2&s=${encodeURIComponent(text)}`);
      await page.waitForFunction(() => 'playground' in window, undefined, { timeout: 30_000 });
      await watchLongTasks(page);
    }
    const seen = await openLink(page, text, viaHistory);
    opened++;
    const what = `link ${i} (${kind}): ${JSON.stringify(text.slice(0, 120))}`;
    tally[kind] ??= { refused: 0, accepted: 0 };
    if (seen.refusal) {
      tally[kind].refused++;
      // The reader's words, and the technical message naming the field in the details.
      assert.ok(seen.banner, `${what}: refused (${seen.refusal.message}) with no message`);
      assert.match(seen.banner, /looks cut off|newer version/, what);
      assert.match(seen.refusal.field, /^link\b/, what);
      assert.equal(seen.detail, seen.refusal.message, what);
      assert.ok(seen.refusal.message.includes(seen.refusal.field), `${what}: ${seen.refusal.message}`);
    } else {
      tally[kind].accepted++;
      // An accepted link shows no refusal (a sweep the page cannot plan says so by name).
      assert.ok(seen.banner === null || /sweep cannot run/.test(seen.banner), `${what}: ${seen.banner}`);
    }
  }
  // Let whatever the last links started (runs, images, their error events) settle.
  await page.waitForTimeout(1500);
  longTasks.push(...(await longTasksOf(page)));
  reference.push(await referenceTask(page));
  assert.equal(opened, LINKS);
  const kinds = Object.entries(tally);
  console.log(
    `hostile links by mutation: ${JSON.stringify(tally)}; long tasks (ms): ${JSON.stringify(longTasks)}; reference (ms): ${reference.map(Math.round)}`,
  );
  // The links are hostile enough to be refused often, and the mutations that keep the
  // JSON valid (markup in names, some huge numbers) are accepted and shown.
  assert.ok(kinds.reduce((n, [, c]) => n + c.refused, 0) > LINKS / 2, JSON.stringify(tally));
  assert.ok(tally.markupName.accepted > 0, JSON.stringify(tally));
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__pwned), undefined, 'markup in a name ran');
  assert.deepEqual(page.errors, []);
  const longest = Math.max(0, ...longTasks);
  const bound = Math.max(LONG_TASK_MS, REFERENCE_TIMES * Math.max(...reference));
  assert.ok(longest < bound, `a main-thread task of ${longest} ms (bound ${Math.round(bound)} ms)`);
  // Still responsive: the page answers and a plain link still loads its scenario.
  const again = await openLink(page, bases[0], true);
  assert.equal(again.refusal, null);
  assert.equal(again.banner, null);
  await page.close();
});
