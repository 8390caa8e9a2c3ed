// End-to-end tests of the two languages in headless Chromium: the page in Chinese and English
// (from the link, the saved choice, the switch), dark mode from the link, the article's
// reports from a link equal to the CLI's output (and their Markdown export), the embed's
// height message with the snippet in a host page at 360 px, the accessibility audit
// (axe-core) and screenshots at 360 and 1,200 px in both languages and themes.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import enCatalogue from '../../www/js/i18n/en.js';
import zhCatalogue from '../../www/js/i18n/zh.js';
import * as e2e from './harness.js';
import { serve } from './static-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const AXE = path.join(here, 'node_modules/axe-core/axe.min.js');

const h = new e2e.Harness({ width: 1200, height: 900 });

before(() => h.start());
after(() => h.stop());

/**
 * Opens a page and waits for the classic model's first run.
 * @param {string} query
 */
async function open(query) {
  const page = await h.page(`${h.url}${query}`);
  await e2e.waitRunCount(page, 'runs', 1);
  return page;
}

/**
 * What the CLI prints.
 * @param {string[]} args
 */
function cli(args) {
  return execFileSync(e2e.CLI, args, { encoding: 'utf8' });
}

/**
 * The page's background colour, as the browser computed it.
 * @param {import('playwright-core').Page} page
 */
const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test('a link with lang=zh and theme=dark opens in Chinese and dark', async () => {
  const page = await open('?lang=zh&theme=dark');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await page.textContent('h1'), '重试风暴模拟器');
  assert.equal(await page.title(), '重试风暴模拟器');
  assert.equal(await page.textContent('#copy-link'), '复制链接');
  const head = await e2e.tableRows(page, '#classic-results');
  assert.equal(head[0][0], '策略');
  assert.equal(head[1][1], '1.30x'); // the figures stay the engine's
  await page.waitForFunction(() => document.querySelectorAll('#classic-verdicts .badge').length === 4);
  const badges = await page.$$eval('#classic-verdicts .badge', (b) => b.map((x) => x.textContent));
  assert.deepEqual(badges, ['通过', '通过', '通过', '通过']);
  // The checks' names come from the engine, in Chinese.
  assert.match(String(await page.textContent('#classic-verdicts')), /S4 的过载秒远小于 S2/);
  assert.equal(await background(page), 'rgb(20, 23, 29)');
  // The link the page writes keeps the reader's language and theme.
  assert.match(page.url(), /lang=zh/);
  assert.match(page.url(), /theme=dark/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the language: the browser’s by default, the switch saves a choice, the link wins', async () => {
  const page = await open('');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.textContent('h1'), 'Retry Storm Playground');
  assert.equal(await background(page), 'rgb(255, 255, 255)');
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('h1'), '重试风暴模拟器');
  assert.equal((await e2e.tableRows(page, '#classic-results'))[0][0], '策略');
  assert.equal(await page.getAttribute('[data-field="strategies[0].max_retry"]', 'aria-label'), '第 1 行的最多重试');
  // Saved: a link without lang opens in Chinese; a link with lang=en in English.
  const again = await open('');
  assert.equal(await again.textContent('h1'), '重试风暴模拟器');
  const english = await open('?lang=en');
  assert.equal(await english.textContent('h1'), 'Retry Storm Playground');
  await english.selectOption('#lang-select', 'en'); // leave the saved choice as the other tests expect
  for (const p of [page, again, english]) await p.close();
});

// The report views and the CLI commands that print the same text.
const REPORTS = [
  { view: 'herd', args: ['herd'] },
  { view: 'sweep', args: ['sweep'] },
];

test('each report from a link equals the CLI output, in both languages, and exports as Markdown', async () => {
  for (const { view, args } of REPORTS) {
    for (const lang of ['zh', 'en']) {
      const page = await open(`?view=${view}&lang=${lang}`);
      await page.waitForFunction(() => (document.getElementById('classic-report-text')?.textContent || '').length > 0);
      const want = cli([...args, '--lang', lang]);
      assert.equal(await page.textContent('#classic-report-text'), want, `${view} ${lang}`);
      assert.equal(await page.isVisible('#classic-chart'), false);
      assert.equal(await page.getAttribute(`#classic-report-tabs [data-view="${view}"]`, 'aria-pressed'), 'true');
      const md = (await e2e.downloaded(page, '#classic-report-md')).toString('utf8');
      assert.equal(md, `\`\`\`text\n${want}\`\`\`\n`);
      await page.close();
    }
  }
  // The breaker groups: the preset, then the view; the link carries both.
  const page = await open('?lang=zh');
  await page.click('#classic-report-tabs [data-view="breaker"]');
  await page.click('#classic-report-breaker-preset');
  await e2e.waitRunCount(page, 'runs', 2);
  assert.match(page.url(), /view=breaker/);
  const linked = await open(new URL(page.url()).search);
  await linked.waitForFunction(() => (document.getElementById('classic-report-text')?.textContent || '').length > 0);
  assert.equal(await linked.textContent('#classic-report-text'), cli(['breaker']));
  // The six-strategy table: the results table is the CLI's run, figure for figure.
  const table = await e2e.tableRows(linked, '#classic-results');
  assert.equal(table.length, 8); // header and the seven groups A–G
  for (const p of [page, linked]) await p.close();
});

test('embed=herd shows only that report', async () => {
  const page = await open('?embed=herd&lang=zh');
  await page.waitForFunction(() => (document.getElementById('classic-report-text')?.textContent || '').length > 0);
  assert.equal(await page.textContent('#classic-report-text'), cli(['herd']));
  for (const hidden of ['#classic-chart', '#classic-results', '#classic-scenario-block', '#classic-report-tabs']) {
    assert.equal(await page.isVisible(hidden), false, hidden);
  }
  await page.close();
});

test('the embed snippet in a host page at 360 px: the iframe grows to its content', async () => {
  const page0 = await open('?view=herd');
  // The embed dialog's snippet, once its preview has measured the height.
  await page0.click('#copy-embed');
  await page0.check('input[name="embed-width"][value="360"]');
  await page0.waitForFunction(() => !!document.getElementById('embed-dialog')?.dataset.height, null, {
    timeout: 60_000,
  });
  const snippet = await page0.inputValue('#embed-code');
  await page0.close();
  assert.match(snippet, /embed=herd/);
  // A host page on another origin (another port), holding the snippet as it was copied,
  // plus a listener of its own that records the heights it hears.
  const dir = h.scratch('host');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0"><p>A post about retries.</p><script>addEventListener('message',function(e){if(e.data&&e.data.type==='retrystorm:height')sawHeight(e.data.height);});</script>${snippet}</body></html>`,
  );
  const site = await serve(dir);
  const host = /** @type {import('playwright-core').Page} */ (
    await /** @type {import('playwright-core').BrowserContext} */ (h.context).newPage()
  );
  await host.setViewportSize({ width: 360, height: 640 });
  const messages = /** @type {number[]} */ ([]);
  await host.exposeFunction('sawHeight', (/** @type {number} */ n) => messages.push(n));
  await host.goto(site.url);
  await host.waitForFunction(() => {
    const f = document.querySelector('iframe');
    return !!f && f.style.height !== '';
  });
  const { styleHeight, inner } = await host.evaluate(() => {
    const f = /** @type {HTMLIFrameElement} */ (document.querySelector('iframe'));
    return { styleHeight: f.style.height, inner: f.getBoundingClientRect().height };
  });
  const last = messages[messages.length - 1];
  assert.ok(messages.length >= 1);
  assert.equal(styleHeight, `${last}px`);
  assert.equal(Math.round(inner), last);
  // The embedded page fits: nothing scrolls inside the iframe.
  const frame = host.frames().find((f) => f.url().includes('embed=herd'));
  assert.ok(frame);
  const fits = await frame.evaluate(
    () => document.documentElement.scrollHeight <= document.documentElement.clientHeight + 1,
  );
  assert.ok(fits, 'the iframe is as tall as its content');
  await host.screenshot({ path: path.join(e2e.ARTIFACTS, 'i18n-embed-host-360.png'), fullPage: true });
  await host.close();
  site.server.close();
});

/**
 * Runs axe-core on the page and returns its serious and critical violations.
 * @param {import('playwright-core').Page} page
 */
async function audit(page) {
  await page.addScriptTag({ content: fs.readFileSync(AXE, 'utf8') });
  /** @type {{id: string, impact: string, nodes: {target: string[]}[]}[]} */
  const violations = await page.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('accessibility audit (axe-core): no serious or critical violations', async () => {
  for (const query of ['', '?lang=zh&theme=dark', '?embed=both', '?view=herd']) {
    const page = await open(query);
    assert.deepEqual(await audit(page), [], `classic ${query}`);
    await page.close();
  }
  const cluster = await h.page(`${h.url}?lang=zh`);
  await e2e.waitRunCount(cluster, 'runs', 1);
  await cluster.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(cluster, 'clusterRuns', 1);
  assert.deepEqual(await audit(cluster), [], 'cluster');
  await cluster.close();
});

test('screenshots at 320, 360 and 1,200 px, both languages, light and dark, both models', async () => {
  for (const width of [320, 360, 1200]) {
    for (const lang of ['zh', 'en']) {
      for (const theme of width === 320 ? ['light'] : ['light', 'dark']) {
        const page = await open(`?lang=${lang}&theme=${theme}`);
        await page.setViewportSize({ width, height: 900 });
        // Nothing wider than the screen but the tables' own scroll boxes (once the chart
        // has been redrawn for the new width).
        const fits = await page
          .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 5000 })
          .then(() => true)
          .catch(() => false);
        assert.ok(fits, `${width} px ${lang} ${theme}: the page is wider than the screen`);
        // The header's buttons show their whole text (no ellipsis, nothing cut).
        const cut = await page.$$eval('header button', (bs) =>
          bs.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent),
        );
        assert.deepEqual(cut, [], `${width} px ${lang}: header buttons cut`);
        await page.screenshot({ path: path.join(e2e.ARTIFACTS, `i18n-classic-${lang}-${theme}-${width}.png`) });
        await page.click('input[name="model"][value="cluster"]');
        await e2e.waitRunCount(page, 'clusterRuns', 1);
        await page.screenshot({ path: path.join(e2e.ARTIFACTS, `i18n-cluster-${lang}-${theme}-${width}.png`) });
        await page.close();
      }
    }
  }
});

/**
 * The numbers the delay preview drew, from its chart's data attributes.
 * @param {import('playwright-core').Page} page
 * @param {string} selector the preview's svg
 */
async function previewData(page, selector) {
  /** @param {string} name */
  const read = async (name) =>
    String(await page.getAttribute(selector, name))
      .split(',')
      .map(Number);
  return { medians: await read('data-medians'), minima: await read('data-minima'), maxima: await read('data-maxima') };
}

test('the delay preview shows the waits the engine draws before each retry', async () => {
  const page = await open('');
  // S2: exponential backoff without jitter waits exactly 500 · 2^(k−1) ms before retry k.
  await page.focus('[data-field="strategies[1].base_ms"]');
  await page.waitForFunction(() =>
    document.querySelector('#classic-delay-preview figcaption')?.textContent?.includes('S2'),
  );
  const s2 = await previewData(page, '#classic-delay-preview svg');
  const exact = [500, 1000, 2000, 4000, 8000];
  assert.deepEqual(s2, { medians: exact, minima: exact, maxima: exact });
  // S3: full jitter, floor(nextDouble() × 500 · 2^(k−1)): uniform below the backoff, so the
  // median is about half of it (2,000 samples: well within 10%).
  await page.focus('[data-field="strategies[2].base_ms"]');
  await page.waitForFunction(() =>
    document.querySelector('#classic-delay-preview figcaption')?.textContent?.includes('S3'),
  );
  const s3 = await previewData(page, '#classic-delay-preview svg');
  exact.forEach((backoff, k) => {
    assert.ok(s3.minima[k] >= 0 && s3.maxima[k] < backoff, `retry ${k + 1}`);
    assert.ok(Math.abs(s3.medians[k] - backoff / 2) <= backoff * 0.1, `median of retry ${k + 1}: ${s3.medians[k]}`);
    assert.ok(s3.maxima[k] > backoff * 0.95, `max of retry ${k + 1}`);
  });
  // Editing the backoff redraws it: base 100 ms.
  await e2e.commitField(page, { field: 'strategies[2].base_ms', value: '100', runs: 'runs', commit: 'change' });
  const s3b = await previewData(page, '#classic-delay-preview svg');
  assert.ok(s3b.maxima.every((m, k) => m < 100 * 2 ** k));
  // The cluster model: one preview per client policy, one row per retry (max_attempts − 1).
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  const client = await page.evaluate(() => /** @type {any} */ (window).playground.cluster.cfg.tiers[0].client);
  const rows = await page.$$eval(
    '#cluster-root [data-delay-client="tiers[0].client"] svg line.delay-median',
    (lines) => lines.length,
  );
  assert.equal(rows, (client.max_attempts ?? 1) - 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// i18n2: the cluster page's own texts (editor, timeline, fault form, A/B and run status).
test('the cluster page in both languages: the switch relabels its editor, timeline, fault form and status', async () => {
  const page = await open('?lang=en');
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  // Open a fault in the form below the timeline (Enter on its bar, as a keyboard user would).
  await page.focus('#cluster-timeline g.bar.fault');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#cluster-fault-form [data-act="fault-del"]');
  assert.equal(await page.textContent('#cluster-editor summary'), 'Scenario and load');
  assert.match(String(await page.textContent('#cluster-timing')), /^worker run \d+ ms · [\d,]+ events · draw \d+ ms$/);
  // Every heading, caption, legend, button, hint and label this page built, the fields'
  // labels and the selects' options (enum values and kinds), with its titles and the
  // timeline's labels: each has Chinese in it once switched. Tier names are the reader's
  // data, so a route's target select is not read.
  const texts = () =>
    page.evaluate(() => {
      const scope = '#cluster-editor, #cluster-fault-form, #cluster-timeline, #cluster-root .ab, #cluster-root .status';
      /** @type {string[]} */
      const out = [];
      for (const box of document.querySelectorAll(scope)) {
        for (const node of box.querySelectorAll(
          'summary, h3, .sub, legend, button, .hint, #cluster-timing, text.row-sub, text.bar-label, label > span, select:not([data-kind="index"]) > option',
        )) {
          out.push(String(node.textContent).trim());
        }
        for (const node of box.querySelectorAll('[title], [aria-label], g > title')) {
          out.push(node.getAttribute('title') ?? node.getAttribute('aria-label') ?? String(node.textContent));
        }
      }
      return out.filter((s) => /[A-Za-z]{2,}/.test(s) || /[\u3400-\u9fff]/.test(s));
    });
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#cluster-editor summary'), '场景与负载');
  assert.equal(await page.textContent('#cluster-pin'), '固定为 A');
  assert.match(
    String(await page.textContent('#cluster-timing')),
    /^Worker 运行 \d+ 毫秒 · [\d,]+ 个事件 · 绘制 \d+ 毫秒$/,
  );
  assert.equal(await page.getAttribute('#cluster-timeline svg', 'aria-label'), '时间轴上的负载形状与各层故障');
  const zh = await texts();
  assert.ok(zh.length > 30, `found only ${zh.length} texts`);
  assert.deepEqual(
    zh.filter((s) => !/[\u3400-\u9fff]/.test(s)),
    [],
    'cluster texts without Chinese',
  );
  // Pinning shows the A/B texts in Chinese; back to English, everything is English again.
  await page.click('#cluster-pin');
  assert.equal(await page.textContent('#cluster-pin'), '把当前结果固定为 A');
  assert.match(String(await page.textContent('#cluster-ab-status')), /^A：.+（种子 -?\d+）— B 是/);
  await page.selectOption('#lang-select', 'en');
  assert.equal(await page.textContent('#cluster-pin'), 'Pin current as A');
  assert.equal(await page.textContent('#cluster-editor summary'), 'Scenario and load');
  assert.deepEqual(
    (await texts()).filter((s) => /[\u3400-\u9fff]/.test(s)),
    [],
    'Chinese left after switching back',
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

// i18n2: the charts with the keyboard alone, and their data table.
test('both charts by keyboard: the readout at each second (bucket) is the mouse’s there', async () => {
  const page = await open('?lang=en');
  const models = [
    { model: 'classic', chart: '#classic-chart', readout: '#classic-readout' },
    { model: 'cluster', chart: '#cluster-chart', readout: '#cluster-readout' },
  ];
  for (const { model, chart, readout } of models) {
    if (model === 'cluster') {
      await page.click('input[name="model"][value="cluster"]');
      await e2e.waitRunCount(page, 'clusterRuns', 1);
    }
    await page.locator(chart).scrollIntoViewIfNeeded();
    const box = await page.locator(chart).boundingBox();
    assert.ok(box);
    const read = () =>
      page.$eval(readout, (r) => ({ hidden: /** @type {HTMLElement} */ (r).hidden, text: r.textContent }));
    // Points over the plots: the cluster chart's legends stand in a column right of them.
    for (const at of [0.15, 0.5, 0.7]) {
      // The mouse over the chart: its readout, and which bucket it names.
      await page.mouse.move(box.x + box.width * at, box.y + 40);
      const mouse = await read();
      assert.equal(mouse.hidden, false, `${model} mouse at ${at}`);
      const title = await page.$eval(`${readout} .readout-title`, (x) => String(x.textContent));
      // Then the keyboard alone: focus, Home, one arrow press per bucket up to the mouse's.
      await page.mouse.move(0, 0);
      await page.focus(chart);
      await page.keyboard.press('Home');
      const first = await read();
      assert.equal(first.hidden, false, `${model} keyboard readout shown`);
      for (let i = 0; i < 500 && !(await read()).text?.startsWith(title); i++) await page.keyboard.press('ArrowRight');
      assert.equal((await read()).text, mouse.text, `${model}: ${title}`);
      await page.keyboard.press('Escape');
      assert.equal((await read()).hidden, true);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the classic chart’s data table holds the CLI’s per-second values (run --json)', async () => {
  const page = await open('?lang=en');
  await page.click('#classic-chart-block details.chart-data summary');
  await page.waitForSelector('#classic-chart-block details.chart-data table tbody tr');
  const table = await e2e.tableRows(page, '#classic-chart-block details.chart-data table');
  /** @type {{results: {name: string, per_sec: number[]}[], scenario: {duration_s: number}}} */
  const json = JSON.parse(cli(['run', '--json']));
  const [head, ...rows] = table;
  assert.equal(head[0], 'second');
  assert.equal(rows.length, json.scenario.duration_s);
  json.results.forEach((r, i) => {
    assert.equal(head[i + 1], r.name);
    assert.deepEqual(
      rows.map((row) => Number(row[i + 1])),
      r.per_sec,
      r.name,
    );
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

// i18n2: the charts in the page's theme.
test('both charts are drawn in the page’s theme: its background is their paper, light or dark', async () => {
  /**
   * How many of the canvas's pixels are near `rgb`, over all of them.
   * @param {import('playwright-core').Page} page
   * @param {string} selector
   * @param {number[]} rgb
   */
  const share = (page, selector, rgb) =>
    page.$eval(
      selector,
      (c, want) => {
        const canvas = /** @type {HTMLCanvasElement} */ (c);
        const d = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(
          0,
          0,
          canvas.width,
          canvas.height,
        ).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - want[0]) + Math.abs(d[i + 1] - want[1]) + Math.abs(d[i + 2] - want[2]) < 6) n++;
        }
        return n / (d.length / 4);
      },
      rgb,
    );
  for (const theme of ['light', 'dark']) {
    const page = await open(`?lang=en&theme=${theme}`);
    // The page's own background colour is the charts' paper in either theme.
    const bg = (await background(page)).match(/\d+/g)?.map(Number) ?? [];
    const other = theme === 'dark' ? [255, 255, 255] : [20, 23, 29];
    await page
      .locator('#classic-chart')
      .screenshot({ path: path.join(e2e.ARTIFACTS, `i18n2-chart-classic-${theme}.png`) });
    const paper = await share(page, '#classic-chart', bg);
    assert.ok(paper > 0.3, `classic ${theme}: paper ${paper}`);
    assert.ok((await share(page, '#classic-chart', other)) < 0.01, `classic ${theme}: no paper of the other theme`);
    await page.click('input[name="model"][value="cluster"]');
    await e2e.waitRunCount(page, 'clusterRuns', 1);
    await page
      .locator('#cluster-chart')
      .screenshot({ path: path.join(e2e.ARTIFACTS, `i18n2-chart-cluster-${theme}.png`) });
    assert.ok((await share(page, '#cluster-chart', bg)) > 0.5, `cluster ${theme}: paper`);
    assert.ok((await share(page, '#cluster-chart', other)) < 0.01, `cluster ${theme}: no paper of the other theme`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// i18n2: the engine's validation messages in the page's language.
test('a value out of range is marked in plain words in the page’s language, the field path as the engine names it in the title', async () => {
  const page = await open('?lang=zh');
  await page.locator('[data-field="strategies[1].max_retry"]').fill('999');
  await page.waitForSelector('#classic-root .field-msg');
  // The range is the one docs/scenarios.md gives (`strategies[1].max_retry = 99 is out of range: allowed 0..=30`).
  assert.equal(await page.textContent('#classic-root .field-msg'), '最多重试必须在 0 到 30 之间');
  assert.equal(
    await page.getAttribute('#classic-root .field-msg', 'title'),
    'strategies[1].max_retry = 999 超出范围：允许 0..=30',
  );
  // The switch rewrites it in English.
  await page.selectOption('#lang-select', 'en');
  await page.waitForFunction(() =>
    document.querySelector('#classic-root .field-msg')?.textContent?.includes('must be between'),
  );
  assert.equal(await page.textContent('#classic-root .field-msg'), 'Max retry must be between 0 and 30');
  assert.equal(
    await page.getAttribute('#classic-root .field-msg', 'title'),
    'strategies[1].max_retry = 999 is out of range: allowed 0..=30',
  );
  // The cluster model, in Chinese again.
  await page.selectOption('#lang-select', 'zh');
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  await page.locator('[data-field="tiers[1].instances"]').fill('0');
  await page.waitForSelector('#cluster-root .field-msg');
  assert.equal(await page.textContent('#cluster-root .field-msg'), '实例数必须在 1 到 10000 之间');
  assert.equal(
    await page.getAttribute('#cluster-root .field-msg', 'title'),
    'tiers[1].instances = 0 超出范围：允许 1..=10000',
  );
  await page.selectOption('#lang-select', 'en'); // leave the saved choice as the other tests expect
  assert.deepEqual(page.errors, []);
  await page.close();
});

// pagetext: the texts inside the charts, the presets, the cluster summary and type errors.
test('in Chinese: chart readouts, presets, the cluster summary and a type error come from the engine in Chinese', async () => {
  const han = /[\u3400-\u9fff]/;
  const page = await open('?lang=zh');
  // The classic chart's readout (keyboard, second 0): its title is the engine's Chinese.
  await page.focus('#classic-chart');
  assert.equal(await page.textContent('#classic-readout .readout-title'), '第 0 秒 · 容量 240');
  // The preset buttons and description: the CLI's `scenarios --lang zh` titles.
  const titles = Object.fromEntries(
    cli(['scenarios', '--lang', 'zh'])
      .trim()
      .split('\n')
      .map((l) => {
        const [id, , ...title] = l.split(/\s+/);
        return [id, title.join(' ')];
      }),
  );
  assert.equal(titles.article, '原文：六种策略');
  assert.equal(await page.textContent('[data-preset="article"]'), titles.article);
  assert.equal(await page.textContent('[data-preset="cluster-call-chain"]'), titles['cluster-call-chain']);
  await e2e.choosePreset(page, 'budget-100');
  assert.match(String(await page.textContent('#classic-preset-desc')), /^原文的归零检验/);
  // Switching to English rewrites the presets, the description and the chart's texts.
  const drawn = Number(await page.getAttribute('#classic-chart', 'data-drawn'));
  await page.selectOption('#lang-select', 'en');
  assert.equal(await page.textContent('[data-preset="article"]'), 'Article: six strategies');
  assert.match(String(await page.textContent('#classic-preset-desc')), /^The article's zero check/);
  await page.waitForFunction(
    (n) => Number(document.querySelector('#classic-chart')?.getAttribute('data-drawn')) > n,
    drawn,
  );
  await page.focus('#classic-presets');
  await page.focus('#classic-chart');
  assert.match(String(await page.textContent('#classic-readout .readout-title')), /^second 0 · capacity \d+$/);
  await page.selectOption('#lang-select', 'zh');
  // The cluster model: its summary's labels and titles in Chinese, the figures the
  // English page's (the engine formats both); the chart's readout in Chinese.
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  const zh = await e2e.tableRows(page, '#cluster-summary');
  assert.deepEqual(zh[0], ['指标', '值']);
  assert.equal(zh[1][0], '请求数');
  assert.ok(
    zh.every((r) => han.test(r[0])),
    'every figure labelled in Chinese',
  );
  assert.ok(han.test((await e2e.tableRows(page, '#cluster-tiers'))[0][1]), 'tier table titles');
  await page.focus('#cluster-chart');
  const labels = await page.$$eval('#cluster-readout div:not(.readout-title) span:not(.swatch)', (s) =>
    s.map((x) => String(x.textContent)),
  );
  assert.ok(labels.length > 4 && labels.every((l) => han.test(l)), JSON.stringify(labels));
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'pagetext-cluster-zh.png'), fullPage: true });
  await page.selectOption('#lang-select', 'en');
  const en = await e2e.tableRows(page, '#cluster-summary');
  assert.deepEqual(en[0], ['metric', 'value']);
  // The same figures in both languages (the recovery's words aside, which are translated).
  const figures = (/** @type {string[][]} */ rows) => rows.slice(1).map((r) => (/\d/.test(r[1]) ? r[1] : '·'));
  assert.deepEqual(figures(en), figures(zh));
  assert.ok(figures(en).filter((v) => v !== '·').length > 20);
  await page.selectOption('#lang-select', 'zh');
  // A type error: a fraction where a whole number goes; the allowed part in Chinese.
  await page.locator('[data-field="tiers[1].instances"]').fill('1.5');
  await page.waitForSelector('#cluster-root .field-msg');
  assert.equal(await page.textContent('#cluster-root .field-msg'), '实例数必须是 1 到 10000 之间的整数');
  assert.equal(
    await page.getAttribute('#cluster-root .field-msg', 'title'),
    'tiers[1].instances = 1.5 不被接受：应为 ≥ 0 的整数（范围 1..=10000）',
  );
  await page.selectOption('#lang-select', 'en'); // leave the saved choice as the other tests expect
  assert.equal(
    await page.textContent('#cluster-root .field-msg'),
    'Instances must be a whole number between 1 and 10000',
  );
  assert.equal(
    await page.getAttribute('#cluster-root .field-msg', 'title'),
    'tiers[1].instances = 1.5 is not allowed: expected a whole number ≥ 0 in 1..=10000',
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The cluster editor labels a field by its JSON key and a select's option by its value
// (fieldLabel, valueLabel): the engine's defaults name every field and kind the editor
// can show, and the bundled presets the rest, so a key new in the engine fails here.
test('every field and value the cluster editor can show has a label in both catalogues', async () => {
  const page = await open('?lang=en');
  const defaults = await page.evaluate(() => /** @type {any} */ (window).playground.cluster.defaults);
  /** @type {Set<string>} */
  const fields = new Set();
  /** @type {Set<string>} */
  const sections = new Set();
  /** @type {Set<string>} */
  const values = new Set();
  // A key is a field the editor shows when its value is a scalar (or null: an optional
  // number) or a list of numbers, and never an object or a list of objects (those are
  // sections: a client is null on the last tier). A `kind` is its section's select, the
  // description is not edited there, and string lists (retry_on, billed) are check groups.
  /** @param {unknown} v */
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'kind') values.add(String(x));
        else if (Array.isArray(x) ? x.some((e) => e && typeof e === 'object') : x && typeof x === 'object') {
          sections.add(k);
        } else if (!Array.isArray(x) || (x.length > 0 && x.every((n) => typeof n === 'number'))) {
          if (k !== 'description') fields.add(k);
        }
        walk(x);
      }
    }
  };
  const { enums, ...objects } = defaults;
  walk(objects);
  for (const file of fs.readdirSync(path.join(here, '../../scenarios'))) {
    if (!file.startsWith('cluster-')) continue;
    const { model: _, ...scenario } = JSON.parse(fs.readFileSync(path.join(here, '../../scenarios', file), 'utf8'));
    walk(scenario);
  }
  for (const k of sections) fields.delete(k);
  for (const list of Object.values(enums)) for (const v of /** @type {string[]} */ (list)) values.add(v);
  assert.ok(fields.size > 60 && values.size > 25, `found ${fields.size} fields, ${values.size} values`);
  assert.ok(fields.has('timeout_ms') && fields.has('queue_timeout_ms') && values.has('round_robin'));
  /** @type {Record<string, string>[]} */
  const catalogues = [/** @type {any} */ (enCatalogue), /** @type {any} */ (zhCatalogue)];
  const missing = [...[...fields].map((k) => `field.${k}`), ...[...values].map((v) => `value.${v}`)].filter(
    (key) => !catalogues.every((c) => key in c),
  );
  assert.deepEqual(missing, []);
  await page.close();
});
