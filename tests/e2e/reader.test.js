// End-to-end tests of the page as a reader arriving from a post meets it: what the first
// screen holds at 1280 × 900 and at 360 px, the engine's verdict in words, equal to
// the CLI's line, and the article's reproduction checks, not applicable once edited. Screenshots go to ARTIFACTS (reader-*.png) to be looked at.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });

before(() => h.start());
after(() => h.stop());

/**
 * Opens the page (classic, or cluster by its model switch) and waits for its first run.
 * @param {{model?: 'classic' | 'cluster', query?: string, width?: number, height?: number}} options
 */
async function open({ model = 'classic', query = '', width = 1280, height = 900 } = {}) {
  const page = await h.page(`${h.url}${query}`);
  await page.setViewportSize({ width, height });
  await e2e.waitRunCount(page, 'runs', 1);
  if (model === 'cluster') {
    await page.click('input[name="model"][value="cluster"]');
    await e2e.waitRunCount(page, 'clusterRuns', 1);
  }
  // The layout settles after the first draw (the chart's size, the folded editor).
  await page.waitForTimeout(300);
  return page;
}

/**
 * True when some part of the element, at least `min` px high, lies in the first screen
 * (the page unscrolled).
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function inFirstScreen(page, selector, min = 120) {
  const box = await page.evaluate((sel) => {
    scrollTo(0, 0);
    const r = /** @type {Element} */ (document.querySelector(sel)).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, width: r.width, height: innerHeight, vw: innerWidth };
  }, selector);
  const seen = Math.min(box.bottom, box.height) - Math.max(box.top, 0);
  return box.width > 0 && seen >= Math.min(min, box.bottom - box.top);
}

/**
 * The CLI's text report for a scenario object, in `lang`.
 * @param {object} scenario
 * @param {string} lang
 */
function cliText(scenario, lang) {
  const file = h.scratch(`reader-${process.hrtime.bigint()}.json`);
  fs.writeFileSync(file, JSON.stringify(scenario));
  return execFileSync(e2e.CLI, ['run', '--scenario', file, '--lang', lang], { encoding: 'utf8' });
}

test('at 1280 × 900 the strategy editor and the chart share the first screen (both models)', async () => {
  const page = await open();
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'reader-classic-1280.png') });
  assert.ok(await inFirstScreen(page, '#classic-strategies'), 'the strategies editor is in the first screen');
  assert.ok(await inFirstScreen(page, '#classic-chart', 300), 'the chart is in the first screen');
  assert.ok(await inFirstScreen(page, '#classic-verdict', 10), 'the verdict is in the first screen');
  // The scenario's description is shown for the default scenario too.
  assert.ok(String(await page.textContent('#classic-preset-desc')).length > 20);
  assert.ok(await page.isVisible('#lede'));
  await page.close();
  const cluster = await open({ model: 'cluster' });
  await cluster.screenshot({ path: path.join(e2e.ARTIFACTS, 'reader-cluster-1280.png') });
  assert.ok(await inFirstScreen(cluster, '#cluster-editor'), 'the cluster editor is in the first screen');
  assert.ok(await inFirstScreen(cluster, '#cluster-chart', 300), 'the cluster chart is in the first screen');
  assert.ok(String(await cluster.textContent('#cluster-preset-desc')).length > 20);
  await cluster.close();
});

test('at 360 px the chart comes first, and the presets and the editor are folded (both models)', async () => {
  const page = await open({ width: 360, height: 740 });
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'reader-classic-360.png') });
  assert.ok(await inFirstScreen(page, '#classic-chart', 200), 'the chart is in the first screen');
  assert.equal(await page.isVisible('#classic-presets'), false, 'the presets are folded');
  assert.equal(await page.isVisible('#classic-strategies'), false, 'the editor is folded');
  // Unfolding it shows the editor.
  await page.click('#classic-editor > summary');
  assert.ok(await page.isVisible('#classic-strategies'));
  await page.close();
  const cluster = await open({ model: 'cluster', width: 360, height: 740 });
  await cluster.screenshot({ path: path.join(e2e.ARTIFACTS, 'reader-cluster-360.png') });
  assert.ok(await inFirstScreen(cluster, '#cluster-chart', 200), 'the cluster chart is in the first screen');
  assert.equal(await cluster.isVisible('#cluster-presets'), false, 'the cluster presets are folded');
  await cluster.close();
});

test('the verdict above the chart is the last line of the CLI report, for the same link', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await open({ query: `?lang=${lang}` });
    const cfg = await page.evaluate(() => window.playground.classic.cfg);
    const line = cliText(cfg, lang).trimEnd().split('\n').at(-1);
    assert.equal(await page.textContent('#classic-verdict'), line);
    await page.close();
  }
  // An edit changes the verdict on the page and in the CLI alike: S1 with 4 s base delay
  // and S2's 100% delivery on fewer retries.
  const page = await open({ query: '?lang=en' });
  const before = await page.textContent('#classic-verdict');
  await e2e.commitField(page, { field: 'strategies[1].max_retry', value: '1', runs: 'runs', commit: 'change' });
  const cfg = await page.evaluate(() => window.playground.classic.cfg);
  const line = cliText(cfg, 'en').trimEnd().split('\n').at(-1);
  assert.equal(await page.textContent('#classic-verdict'), line);
  assert.notEqual(line, before);
  await page.close();
});

test('the cluster verdict above the charts is the CLI report’s headline', async () => {
  const page = await open({ model: 'cluster', query: '?lang=en' });
  await e2e.choosePreset(page, 'cluster-metastable', 'cluster');
  await e2e.waitRunCount(page, 'clusterRuns', 2);
  const text = execFileSync(e2e.CLI, ['run', '--preset', 'cluster-metastable'], { encoding: 'utf8' });
  const want = text.split('\n')[3];
  assert.match(want, /^Never recovered: \d+ s overloaded$/);
  assert.equal(await page.textContent('#cluster-verdict'), want);
  // In the Markdown export too.
  const md = (await e2e.downloaded(page, '#cluster-export-md')).toString('utf8');
  assert.ok(md.startsWith(`${want}\n`), md);
  await page.close();
});

/**
 * Records the max retry of S1 in every run the classic page asks its worker for.
 * @param {import('playwright-core').Page} page
 */
async function recordRuns(page) {
  await page.evaluate(() => {
    const runner = window.playground.classic.runner;
    const run = runner.run.bind(runner);
    /** @type {number[]} */
    const seen = [];
    Object.assign(window, { __maxRetries: seen });
    runner.run = (/** @type {any} */ req) => {
      if (req.kind === 'run') seen.push(req.cfg.strategies[0].max_retry);
      return run(req);
    };
  });
  return () => page.evaluate(() => /** @type {any} */ (window).__maxRetries);
}

test('typing runs after a pause: "12" runs 12 once, "999" never runs 9 or 99', async () => {
  const page = await open({ query: '?lang=en' });
  const seen = await recordRuns(page);
  const input = page.locator('[data-field="strategies[0].max_retry"]');
  const runs = await e2e.runCount(page, 'runs');
  await input.fill('');
  // An ordinary typing pace: 120 ms between keys.
  await input.pressSequentially('12', { delay: 120 });
  await e2e.waitRunCount(page, 'runs', runs + 1);
  assert.deepEqual(await seen(), [12]);
  await input.fill('');
  await input.pressSequentially('999', { delay: 120 });
  // The error appears once the typing pauses; nothing ran meanwhile.
  await page.waitForSelector('[data-field="strategies[0].max_retry"].invalid');
  await input.press('Tab');
  assert.deepEqual(await seen(), [12]);
  await page.close();
});

test('a shared link has a description; a skip link leads to the chart in at most 15 Tabs', async () => {
  const page = await open({ query: '?lang=en' });
  const description = await page.getAttribute('meta[name="description"]', 'content');
  assert.ok(String(description).length > 40, String(description));
  assert.ok(await page.getAttribute('meta[property="og:description"]', 'content'));
  // The first Tab stop is the skip link; Enter on it moves the focus to the results.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
  assert.equal(await page.textContent('.skip-link'), 'Jump to the results');
  await page.keyboard.press('Enter');
  let tabs = 1;
  while (tabs < 15 && (await page.evaluate(() => document.activeElement?.id)) !== 'classic-chart') {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'classic-chart', `${tabs} Tabs`);
  await page.close();
});

/**
 * The reproduction checks as the page lists them, once they are computed: badge, detail.
 * @param {import('playwright-core').Page} page
 */
async function checks(page) {
  await page.waitForFunction(() => {
    const list = document.querySelector('#classic-verdicts');
    return !list?.classList.contains('pending') && list?.querySelectorAll('.badge').length === 4;
  });
  return page.$$eval('#classic-verdicts li', (items) =>
    items.map((li) => [li.querySelector('.badge')?.textContent, li.querySelector('.v-detail')?.textContent]),
  );
}

test('the article’s reproduction checks say not applicable, not FAIL, once a strategy is edited', async () => {
  for (const [lang, heading, na, words] of [
    ['en', "The article's reproduction checks", 'n/a', "not applicable: the strategies are no longer the article's"],
    ['zh', '文章的复现检查', '不适用', '不适用：策略已不再是文章的策略'],
  ]) {
    const page = await open({ query: `?lang=${lang}` });
    assert.equal(await page.textContent('#classic-verdicts-block-h'), heading);
    assert.equal((await checks(page)).filter(([badge]) => badge === na).length, 0);
    // S4 without its budget is S3: two of the article's checks would FAIL on it.
    await e2e.commitField(page, { field: 'strategies[3].budget_pct', value: '100', runs: 'runs', commit: 'change' });
    assert.deepEqual(await checks(page), Array(4).fill([na, words]));
    // The engine decides it, so the CLI's report of the same scenario says the same.
    const cfg = await page.evaluate(() => window.playground.classic.cfg);
    const file = h.scratch(`checks-${lang}.json`);
    fs.writeFileSync(file, JSON.stringify(cfg));
    const cli = execFileSync(e2e.CLI, ['sweep', '--scenario', file, '--seeds', String(cfg.seed), '--lang', lang], {
      encoding: 'utf8',
    });
    assert.equal(cli.split(words).length - 1, 4, cli);
    assert.ok(!cli.includes('[FAIL]'), cli);
    await page.close();
  }
});

test('every results column has its definition with its unit, reachable by keyboard and mouse', async () => {
  const page = await open({ query: '?lang=en' });
  // Tab from the top of the page until a column header of the results table has the focus.
  let tabs = 0;
  const onHeader = () => page.evaluate(() => !!document.activeElement?.matches('#classic-results th[scope="col"]'));
  while (tabs < 200 && !(await onHeader())) {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  const focused = await page.evaluate(() => {
    const th = /** @type {HTMLElement} */ (document.activeElement);
    const described = document.getElementById(th.getAttribute('aria-describedby') ?? '');
    return { term: th.textContent, title: th.title, described: described?.textContent };
  });
  assert.equal(focused.term, 'strategy', `${tabs} Tabs`);
  assert.match(String(focused.described), /name/);
  assert.equal(focused.title, focused.described);
  // Every header has its own definition, ending in its unit; "recovery window" is a count.
  const defs = await page.$$eval('#classic-results thead th', (ths) =>
    ths.map((th) => [th.textContent, document.getElementById(th.getAttribute('aria-describedby') ?? '')?.textContent]),
  );
  assert.equal(defs.length, 15);
  assert.ok(
    defs.every(([, d]) => d?.endsWith(')')),
    JSON.stringify(defs),
  );
  assert.equal(new Set(defs.map(([, d]) => d)).size, defs.length);
  assert.match(String(defs.find(([t]) => t === 'recovery window')?.[1]), /a count, not a duration/);
  // The glossary under the table opens from the keyboard too.
  await page.focus('#classic-glossary summary');
  await page.keyboard.press('Enter');
  assert.ok(await page.isVisible('#classic-glossary dd'));
  await page.close();
});

test('every cluster figure and column has its definition with its unit, reachable by keyboard (both languages)', async () => {
  const page = await open({ model: 'cluster', query: '?lang=en' });
  // A scenario with routes, so the per-route table has rows too.
  await e2e.choosePreset(page, 'cluster-routes-shared-budget', 'cluster');
  await e2e.waitRunCount(page, 'clusterRuns', 2);
  // Tab from the top until a figure of the summary has the focus.
  await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
  let tabs = 0;
  const onFigure = () => page.evaluate(() => !!document.activeElement?.matches('#cluster-summary tbody th'));
  while (tabs < 400 && !(await onFigure())) {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  const focused = await page.evaluate(() => {
    const th = /** @type {HTMLElement} */ (document.activeElement);
    const described = document.getElementById(th.getAttribute('aria-describedby') ?? '');
    return { term: th.textContent, title: th.title, described: described?.textContent };
  });
  assert.equal(focused.term, 'requests', `${tabs} Tabs`);
  assert.match(String(focused.described), /entry tier/);
  assert.equal(focused.title, focused.described);
  /** Every row or column header of a table with the definition it points at. */
  const defs = (/** @type {string} */ sel) =>
    page.$$eval(sel, (ths) =>
      ths.map((th) => [
        th.textContent ?? '',
        document.getElementById(th.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
      ]),
    );
  for (const [sel, min] of /** @type {[string, number][]} */ ([
    ['#cluster-summary tbody th', 30],
    ['#cluster-tiers thead th', 19],
    ['#cluster-routes thead th', 12],
  ])) {
    const list = await defs(sel);
    assert.ok(list.length >= min, `${sel}: ${list.length}`);
    assert.ok(
      list.every(([, d]) => d.endsWith(')')),
      `${sel}: ${JSON.stringify(list.filter(([, d]) => !d.endsWith(')')))}`,
    );
  }
  // The two recovery figures say how each is judged, so a reader can compare them.
  const summary = await defs('#cluster-summary tbody th');
  assert.match(summary.find(([t]) => t === 'recovery time (cohorts)')?.[1] ?? '', /when they arrived/);
  assert.match(summary.find(([t]) => t === 'recovery time (goodput)')?.[1] ?? '', /successes per second/);
  // The glossary under the tables opens from the keyboard.
  await page.focus('#cluster-glossary summary');
  await page.keyboard.press('Enter');
  assert.ok(await page.isVisible('#cluster-glossary-tiers dd'));
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'reader-cluster-glossary.png'), fullPage: true });
  // In Chinese, the engine's definitions follow the language switch.
  await page.selectOption('#lang-select', 'zh');
  await page.waitForFunction(() => document.querySelector('#cluster-tiers thead th')?.textContent === '层');
  const zh = await defs('#cluster-tiers thead th');
  assert.ok(
    zh.every(([, d]) => d.endsWith('）')),
    JSON.stringify(zh),
  );
  await page.selectOption('#lang-select', 'en'); // leave the saved choice as the other tests expect
  assert.deepEqual(page.errors, []);
  await page.close();
});
