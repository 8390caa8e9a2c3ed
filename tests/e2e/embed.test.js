// End-to-end tests of the embeds, as a blogger makes and pastes them: the embed dialog's
// snippet for every view of both models, pasted into a host page on another origin,
// without the script (a CMS that strips it: the fixed height must fit, < 40 px of blank
// and no scrolling inside the frame) and with it (the frame follows its content); every
// embed's caption (the scenario's title, a working "open in the playground" link) and no
// empty heading; the narrow classic table is the compact one; the dialog's keyboard use.
// Screenshots of host pages at 360 and 1,280 px land in tests/artifacts.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';
import { serve } from './static-server.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
/** The host pages' own site: another port, so another origin than the playground's. */
let hostDir = '';
/** @type {{server: import('node:http').Server, url: string} | null} */
let hostSite = null;

before(async () => {
  await h.start();
  hostDir = h.scratch('hosts');
  fs.mkdirSync(hostDir, { recursive: true });
  hostSite = await serve(hostDir);
});
after(async () => {
  hostSite?.server.close();
  await h.stop();
});

/** Blank below an embed's content that a reader sees as a gap. */
const MAX_BLANK_PX = 40;

/**
 * The link of a bundled cluster scenario, from the page's own encoder.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function clusterLink(page, id) {
  return page.evaluate((name) => {
    const w = window.wasmBindings;
    const cluster = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === name)?.scenario;
    return w.encodeState({ model: 'cluster', cluster, view: { hidden: [] } });
  }, id);
}

/**
 * Opens the playground at `query` and waits for the model's first run.
 * @param {string} query
 * @param {'runs' | 'clusterRuns'} [runs]
 */
async function open(query, runs = 'runs') {
  const page = await h.page(`${h.url}${query}`);
  await e2e.waitRunCount(page, runs, 1);
  return page;
}

/**
 * The snippet the embed dialog gives for a view and a width (px, or 0: full width), once
 * the preview has measured it and its page is still (two frames without a change).
 * @param {import('playwright-core').Page} page
 * @param {string} view
 * @param {number} width
 */
async function snippet(page, view, width) {
  if (!(await page.evaluate(() => /** @type {HTMLDialogElement} */ (document.getElementById('embed-dialog'))?.open))) {
    await page.click('#copy-embed');
  }
  await page.check(`input[name="embed-view"][value="${view}"]`);
  await page.check(`input[name="embed-width"][value="${width}"]`);
  for (let tries = 0; ; tries++) {
    await page.waitForFunction(() => !!document.getElementById('embed-dialog')?.dataset.height, null, {
      timeout: 60_000,
    });
    const still = await page.evaluate(async () => {
      const frame = /** @type {HTMLIFrameElement} */ (document.querySelector('#embed-dialog iframe'));
      const win = /** @type {Window} */ (frame.contentWindow);
      await new Promise((r) => win.requestAnimationFrame(() => win.requestAnimationFrame(r)));
      const content = Math.ceil(win.document.documentElement.getBoundingClientRect().height);
      return content === Number.parseFloat(frame.style.height);
    });
    if (still && (await page.evaluate(() => !!document.getElementById('embed-dialog')?.dataset.height))) break;
    assert.ok(tries < 50, 'the preview settles');
  }
  const data = await page.evaluate(() => ({ ...document.getElementById('embed-dialog')?.dataset }));
  return { code: await page.inputValue('#embed-code'), height: Number(data.height), width: Number(data.width) };
}

/**
 * A blog post holding `code` in a column `column` px wide (0: as wide as the page).
 * @param {string} name
 * @param {string} code
 * @param {number} column
 */
function hostPage(name, code, column) {
  const style = column ? `width:${column}px` : 'max-width:100%';
  fs.writeFileSync(
    path.join(hostDir, `${name}.html`),
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<style>body{margin:0;font:16px/1.5 Georgia,serif;color:#222}article{padding:0}p{margin:12px}</style></head>' +
      `<body><article style="${style}"><p>A post about retries. The figure below is live:</p>${code}` +
      '<p>The text of the post goes on under the figure.</p></article></body></html>',
  );
  return `${/** @type {{url: string}} */ (hostSite).url}${name}.html`;
}

/**
 * Opens a host page at a viewport width and returns it with the embed's frame once its
 * run is shown and any ensemble or sweep of its link is finished.
 * @param {string} url
 * @param {number} viewport
 * @param {'runs' | 'clusterRuns'} runs
 */
async function openHost(url, viewport, runs) {
  const host = await h.page(url);
  await host.setViewportSize({ width: viewport, height: 900 });
  const embedded = (/** @type {import('playwright-core').Frame} */ f) => f.url().includes('embed=');
  const frame =
    host.frames().find(embedded) ??
    (await host.waitForEvent('framenavigated', { predicate: embedded, timeout: 60_000 }));
  assert.ok(frame, 'the embed loads');
  await frame.waitForFunction((k) => Number(document.body.dataset[k] || 0) >= 1, runs, { timeout: 60_000 });
  // A link's ensemble or sweep finished too: its results are part of the figure.
  await frame.waitForFunction(() => !Object.values(document.body.dataset).includes('running'), null, {
    timeout: 120_000,
  });
  // The charts drawn at the frame's width (a redraw waits for the next frame).
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return { host, frame };
}

/**
 * What the frame's page measures: its content's height, its viewport's, and what scrolls.
 * @param {import('playwright-core').Frame} frame
 */
function fit(frame) {
  return frame.evaluate(() => {
    const root = document.documentElement;
    return {
      content: Math.ceil(root.getBoundingClientRect().height),
      viewport: root.clientHeight,
      scroll: root.scrollHeight,
      scrollX: root.scrollWidth > root.clientWidth,
    };
  });
}

/**
 * The caption and headings of an embed: the title and link shown, and every visible
 * heading with nothing after it in its section (an empty one says "").
 * @param {import('playwright-core').Frame} frame
 * @param {'classic' | 'cluster'} model
 */
function caption(frame, model) {
  return frame.evaluate((m) => {
    const shown = (/** @type {Element} */ e) => e.getClientRects().length > 0;
    const link = /** @type {HTMLAnchorElement} */ (document.getElementById(`${m}-open`));
    const empty = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter(shown)
      .filter((hd) => {
        // Something shown in its section besides it: text, a chart or a table.
        const rest = [...(hd.parentElement?.querySelectorAll('*') ?? [])].some(
          (e) =>
            !e.contains(hd) &&
            !hd.contains(e) &&
            shown(e) &&
            (!!e.textContent?.trim() || ['CANVAS', 'TABLE'].includes(e.tagName)),
        );
        return !hd.textContent?.trim() || !rest;
      })
      .map((hd) => hd.textContent ?? '');
    return {
      title: document.getElementById(`${m}-caption-title`)?.textContent ?? '',
      captionShown: shown(/** @type {Element} */ (document.getElementById(`${m}-caption`))),
      href: link.href,
      linkShown: shown(link),
      empty,
    };
  }, model);
}

/**
 * Pastes the snippet of a view into a host page without its script and with it, and
 * checks both. The host's viewport is a phone's for the 360 px snippet; its column is the
 * page's width, or `column` px.
 * @param {{model: 'classic' | 'cluster', view: string, width: number, code: string, title: string, column?: number}} c
 */
async function checkHosts({ model, view, width, code, title, column = 0 }) {
  const name = `${model}-${view}-${width || 'full'}`;
  const viewport = width === 360 ? 360 : 1280;
  const runs = model === 'cluster' ? 'clusterRuns' : 'runs';
  assert.match(code, /\n<script>.*retrystorm:height.*<\/script>$/);
  // Without the script (the CMS stripped it): the fixed height fits the content.
  const iframe = code.slice(0, code.indexOf('\n'));
  const bare = await openHost(hostPage(`${name}-bare`, iframe, column), viewport, runs);
  const size = await fit(bare.frame);
  const blank = size.viewport - size.content;
  assert.ok(blank >= 0 && blank < MAX_BLANK_PX, `${name}: ${blank} px of blank below the content`);
  assert.ok(size.scroll <= size.viewport, `${name}: nothing scrolls inside (${size.scroll} > ${size.viewport})`);
  assert.equal(size.scrollX, false, `${name}: nothing scrolls sideways`);
  const cap = await caption(bare.frame, model);
  assert.equal(cap.title, title, `${name}: the caption names the scenario`);
  assert.ok(cap.captionShown && cap.linkShown, `${name}: the caption is shown`);
  assert.deepEqual(cap.empty, [], `${name}: no empty heading`);
  assert.equal(new URL(cap.href).searchParams.get('embed'), null, cap.href);
  assert.ok(cap.href.startsWith(h.url), cap.href);
  assert.deepEqual(bare.host.errors, []);
  // With the script: the frame follows its content's height.
  const full = await openHost(hostPage(`${name}-script`, code, column), viewport, runs);
  const content = (await fit(full.frame)).content;
  await full.host.waitForFunction((want) => document.querySelector('iframe')?.style.height === `${want}px`, content);
  const resized = await fit(full.frame);
  assert.equal(resized.viewport, resized.content, `${name}: the script sizes the frame to its content`);
  assert.deepEqual(full.host.errors, []);
  return { bare, full, name };
}

/**
 * A preset's title in a language, from the engine.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {'en' | 'zh'} lang
 */
function presetTitle(page, id, lang) {
  return page.evaluate(
    ([name, l]) => window.wasmBindings.bundledScenarios(l).find((/** @type {any} */ p) => p.id === name)?.title,
    [id, lang],
  );
}

/** The classic views, their widths, and the host's viewport for each. */
const CLASSIC = [
  { view: 'both', width: 640 },
  { view: 'both', width: 360 },
  { view: 'chart', width: 640 },
  { view: 'table', width: 360 },
  { view: 'herd', width: 640 },
  { view: 'sweep', width: 640 },
  { view: 'breaker', width: 640 },
];

test('every classic view: the snippet fits without the script, and sizes itself with it', async () => {
  const page = await open('');
  const title = await presetTitle(page, 'article', 'en');
  for (const { view, width } of CLASSIC) {
    const { code, height } = await snippet(page, view, width);
    assert.match(code, new RegExp(`^<iframe data-retrystorm src="[^"]*embed=${view}&amp;lang=en" width="${width}" `));
    assert.match(code, new RegExp(` height="${height}" `));
    const { bare, full, name } = await checkHosts({ model: 'classic', view, width, code, title });
    if (['both', 'table'].includes(view)) {
      await bare.host.screenshot({ path: path.join(e2e.ARTIFACTS, `embed-host-${name}.png`), fullPage: true });
    }
    for (const p of [bare.host, full.host]) await p.close();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the full-width snippet fits a column as wide as the preview it was measured in', async () => {
  const page = await open('?lang=zh');
  const { code, width } = await snippet(page, 'both', 0);
  assert.match(code, / width="100%" /);
  assert.match(code, /lang=zh/);
  const title = await presetTitle(page, 'article', 'zh');
  const { bare, full } = await checkHosts({ model: 'classic', view: 'both', width: 0, code, title, column: width });
  await bare.host.screenshot({
    path: path.join(e2e.ARTIFACTS, 'embed-host-classic-both-full-zh-1280.png'),
    fullPage: true,
  });
  for (const p of [bare.host, full.host, page]) await p.close();
});

test('every cluster view: the verdict and charts without the long tables, fitting without the script', async () => {
  const first = await open('');
  const link = await clusterLink(first, 'cluster-gc-stampede-naive');
  const title = await presetTitle(first, 'cluster-gc-stampede-naive', 'en');
  await first.close();
  const page = await open(`?s=${encodeURIComponent(link)}`, 'clusterRuns');
  for (const [view, width] of /** @type {[string, number][]} */ ([
    ['chart', 640],
    ['chart', 360],
    ['both', 640],
    ['table', 640],
  ])) {
    const { code } = await snippet(page, view, width);
    const { bare, full, name } = await checkHosts({ model: 'cluster', view, width, code, title });
    const shown = await bare.frame.evaluate(() => {
      const visible = (/** @type {string} */ id) => !!document.getElementById(id)?.getClientRects().length;
      return {
        verdict: document.getElementById('cluster-verdict')?.textContent ?? '',
        chart: visible('cluster-chart'),
        summary: visible('cluster-summary'),
        tiers: visible('cluster-tiers'),
      };
    });
    assert.match(shown.verdict, /recovered/i, `${name}: the verdict is shown`);
    assert.equal(shown.chart, view !== 'table', `${name}: the charts`);
    assert.equal(shown.tiers, view !== 'chart', `${name}: the per-tier table`);
    assert.equal(shown.summary, view === 'table', `${name}: the forty-row summary only in the tables view`);
    if (view === 'chart') {
      await bare.host.screenshot({ path: path.join(e2e.ARTIFACTS, `embed-host-${name}.png`), fullPage: true });
    }
    for (const p of [bare.host, full.host]) await p.close();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the narrow classic embed shows a compact table, and every column on request', async () => {
  const page = await h.page(`${h.url}?embed=table&lang=en`);
  await page.setViewportSize({ width: 360, height: 800 });
  await e2e.waitRunCount(page, 'runs', 1);
  const columns = () =>
    page.$$eval('#classic-results thead th', (ths) => ths.filter((th) => th.getClientRects().length).length);
  const overflows = () =>
    page.$eval('#classic-results', (t) => {
      const box = /** @type {HTMLElement} */ (t.closest('.scroll'));
      return box.scrollWidth > box.clientWidth;
    });
  const all = await page.$$eval('#classic-results thead th', (ths) => ths.length);
  assert.equal(await columns(), 4, 'the strategy and the three figures the verdict weighs');
  const heads = await page.$$eval('#classic-results thead th', (ths) =>
    ths.filter((th) => th.getClientRects().length).map((th) => th.textContent),
  );
  assert.deepEqual(heads, ['strategy', 'amplification', 'delivery', 'overload s']);
  assert.equal(await overflows(), false, 'the compact table fits 360 px');
  // The cells are the engine's.
  const rows = await e2e.tableRows(page, '#classic-results');
  assert.equal(rows[1][1], '1.30x');
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'embed-table-compact-360.png'), fullPage: true });
  assert.equal(await page.textContent('#classic-all-columns'), `Show all ${all} columns`);
  await page.click('#classic-all-columns');
  assert.equal(await columns(), all);
  assert.equal(await page.getAttribute('#classic-all-columns', 'aria-pressed'), 'true');
  // Wide, the table is whole and the button gone.
  await page.click('#classic-all-columns');
  await page.setViewportSize({ width: 800, height: 800 });
  assert.equal(await columns(), all);
  assert.equal(await page.isVisible('#classic-all-columns'), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the "open in the playground" link opens the same state, not embedded', async () => {
  const page = await h.page(`${h.url}?embed=both&lang=en`);
  await e2e.waitRunCount(page, 'runs', 1);
  const rows = await e2e.tableRows(page, '#classic-results');
  const [opened] = await Promise.all([
    /** @type {import('playwright-core').BrowserContext} */ (h.context).waitForEvent('page'),
    page.click('#classic-open'),
  ]);
  await e2e.waitRunCount(opened, 'runs', 1);
  assert.equal(await opened.evaluate(() => document.body.classList.contains('embed')), false);
  assert.deepEqual(await e2e.tableRows(opened, '#classic-results'), rows);
  for (const p of [page, opened]) await p.close();
});

test('the embed dialog: focus inside, the view on screen chosen, Esc closes it and the focus returns', async () => {
  const page = await open('?view=herd');
  await page.focus('#copy-embed');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('value')), 'herd');
  assert.equal(await page.isVisible('#embed-dialog'), true);
  await page.waitForFunction(() => !!document.getElementById('embed-dialog')?.dataset.height, null, {
    timeout: 60_000,
  });
  assert.match(await page.textContent('#embed-measure'), /^Height \d+ px, measured at 640 px wide\.$/);
  // The arrow keys move between the views, as in any radio group.
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('value')), 'sweep');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#embed-dialog'), false);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'copy-embed');
  // The preview's page is gone with the dialog.
  assert.equal(await page.$eval('#embed-dialog iframe', (f) => f.getAttribute('src')), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a many-seed link: the dialog measures the embed once its ensemble is finished, not before', async () => {
  const first = await open('');
  const link = await first.evaluate(() => {
    const w = window.wasmBindings;
    const classic = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === 'article')?.scenario;
    // Enough seeds that the ensemble is still running when the first run is shown.
    return w.encodeState({ model: 'classic', classic, classic_sweep: { seeds: 400 }, view: { hidden: [] } });
  });
  await first.close();
  const page = await open(`?s=${encodeURIComponent(link)}`);
  // Every height message the dialog hears, with the preview's ensemble state as it arrives.
  await page.evaluate(() => {
    /** @type {{ready: boolean, state: string}[]} */
    const heard = [];
    Object.assign(window, { __heights: heard });
    window.addEventListener('message', (e) => {
      if (e.data?.type !== 'retrystorm:height') return;
      const frame = /** @type {HTMLIFrameElement | null} */ (document.querySelector('#embed-dialog iframe'));
      heard.push({ ready: e.data.ready, state: frame?.contentDocument?.body.dataset.classicEnsemble ?? '' });
    });
  });
  const { code } = await snippet(page, 'both', 640);
  const heard = /** @type {{ready: boolean, state: string}[]} */ (
    await page.evaluate(() => /** @type {any} */ (window).__heights)
  );
  assert.ok(
    heard.some((m) => m.state === 'running'),
    `the preview showed its run while the ensemble ran: ${JSON.stringify(heard)}`,
  );
  assert.deepEqual(
    heard.filter((m) => m.ready && m.state === 'running'),
    [],
    'never "ready" while the ensemble runs',
  );
  const frame = /** @type {import('playwright-core').Frame} */ (
    await (await page.waitForSelector('#embed-dialog iframe')).contentFrame()
  );
  assert.equal(await frame.evaluate(() => document.body.dataset.classicEnsemble), 'done');
  const { bare } = await checkHosts({
    model: 'classic',
    view: 'both',
    width: 640,
    code,
    title: await presetTitle(page, 'article', 'en'),
  });
  await bare.host.screenshot({ path: path.join(e2e.ARTIFACTS, 'embed-host-classic-seeds.png'), fullPage: true });
  await bare.host.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});
