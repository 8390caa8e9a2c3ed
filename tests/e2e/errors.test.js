// Errors in plain words, in the page's language: the field just edited says what it may
// hold ("Max retry must be between 0 and 30"), a refused link says it looks cut off and
// the page falls back to the defaults; the technical message (the CLI's, with the field's
// path, value and range) stays reachable (the field message's title, the banner's details).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

/**
 * Opens a page (the site's root with `query`) and waits for its first classic run.
 * @param {string} query
 */
async function open(query) {
  const page = await h.page(`${h.url}${query}`);
  await e2e.waitRunCount(page, 'runs', 1);
  return page;
}

/**
 * The default scenario's share link text, made by the page's own encoder.
 * @param {import('playwright-core').Page} page
 */
function defaultLink(page) {
  return page.evaluate(() => {
    const cfg = window.wasmBindings.classicDefaults().scenario;
    cfg.capacity = 300;
    return window.wasmBindings.encodeState({ model: 'classic', classic: cfg, view: { hidden: [] } });
  });
}

for (const [lang, maxRetry, instances] of [
  ['en', 'Max retry must be between 0 and 30', 'Instances must be between 1 and 10000'],
  ['zh', '最多重试必须在 0 到 30 之间', '实例数必须在 1 到 10000 之间'],
]) {
  test(`a value out of range says in plain words (${lang}) what the field may hold, at that field`, async () => {
    const page = await open(`?lang=${lang}`);
    const input = page.locator('[data-field="strategies[1].max_retry"]');
    await input.fill('999');
    const msg = page.locator('#classic-root .field-msg');
    await msg.waitFor();
    assert.equal(await msg.count(), 1);
    assert.equal(await msg.textContent(), maxRetry);
    // At the field just edited, which is marked invalid.
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await msg.evaluate((m) => m.closest('td')?.querySelector('[data-field]')?.getAttribute('data-field')),
      'strategies[1].max_retry',
    );
    // The technical message keeps the path, the value and the range.
    assert.match(String(await msg.getAttribute('title')), /strategies\[1\]\.max_retry = 999/);
    // No path, no `..=` in what the reader sees.
    assert.doesNotMatch(String(await msg.textContent()), /\[|\.\.=|_/);

    await page.click('input[name="model"][value="cluster"]');
    await e2e.waitRunCount(page, 'clusterRuns', 1);
    await page.locator('[data-field="tiers[1].instances"]').fill('0');
    await page.waitForSelector('#cluster-root .field-msg');
    assert.equal(await page.textContent('#cluster-root .field-msg'), instances);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('an outage start past the run or past the end marks the start, not only the other end', async () => {
  const page = await open('?lang=en');
  const from = page.locator('[data-field="outage.from_s"]');
  const to = page.locator('[data-field="outage.to_s"]');
  // Beyond the run (60 s): the start alone is wrong.
  await from.fill('70');
  await page.waitForSelector('#classic-root .field-msg');
  assert.equal(await from.getAttribute('aria-invalid'), 'true');
  assert.notEqual(await to.getAttribute('aria-invalid'), 'true');
  // Past the end (26): both ends can fix it, and the start just edited is marked.
  await from.fill('40');
  await page.waitForFunction(
    () => document.querySelector('[data-field="outage.to_s"]')?.getAttribute('aria-invalid') === 'true',
  );
  assert.equal(await from.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the JS Error of a run keeps the field path, the value and the range, with the plain words beside', async () => {
  const page = await open('');
  const err = await page.evaluate(() => {
    const cfg = window.wasmBindings.classicDefaults().scenario;
    cfg.strategies[1].max_retry = 999;
    try {
      window.wasmBindings.decodeState(
        window.wasmBindings.encodeState({ model: 'classic', classic: cfg, view: { hidden: [] } }),
        'zh',
      );
      return null;
    } catch (e) {
      const x = /** @type {any} */ (e);
      const { message, field, allowed, kind, plain } = x;
      return { isError: x instanceof Error, message, field, allowed, kind, plain };
    }
  });
  assert.deepEqual(err, {
    isError: true,
    message: 'link.classic.strategies[1].max_retry = 999 is out of range: allowed 0..=30',
    field: 'link.classic.strategies[1].max_retry',
    allowed: '0..=30',
    kind: 'range',
    plain: '此链接似乎不完整：请复制完整的链接',
  });
  await page.close();
});

for (const [lang, said, fallback] of [
  ['en', 'This link looks cut off: copy the whole link', /defaults/],
  ['zh', '此链接似乎不完整：请复制完整的链接', /默认/],
]) {
  test(`a cut-off or damaged link says so (${lang}) and shows the defaults`, async () => {
    const first = await open('');
    const link = await defaultLink(first);
    const golden = await e2e.tableRows(first, '#classic-results');
    await first.close();
    const damaged = [
      link.slice(0, Math.floor(link.length * 0.6)), // cut off in the middle
      link.slice(0, 4), // only the version and a little
      `${link.slice(0, 20)}!!${link.slice(22)}`, // not base64url
      `v1.${Buffer.from('{"model":"classic","classic":{"capacity":').toString('base64url')}`, // JSON cut short
    ];
    for (const text of damaged) {
      const page = await open(`?lang=${lang}&s=${encodeURIComponent(text)}`);
      await page.waitForSelector('#banner:not([hidden])');
      const banner = page.locator('#banner');
      const shown = String(await banner.evaluate((b) => b.firstChild?.textContent));
      assert.ok(shown.startsWith(String(said)), `${text}: ${shown}`);
      assert.match(shown, /** @type {RegExp} */ (fallback));
      // The technical message folds away under "details", one line naming the link's field.
      const detail = String(await page.textContent('#banner details code'));
      assert.match(detail, /^link/, text);
      assert.doesNotMatch(detail, /\n/);
      assert.equal(await page.isVisible('#banner details code'), false);
      // The defaults, not the link's capacity of 300.
      assert.equal(await page.inputValue('[data-field="capacity"]'), '240');
      assert.equal((await e2e.tableRows(page, '#classic-results')).length, golden.length);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });
}
