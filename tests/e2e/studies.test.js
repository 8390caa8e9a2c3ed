// End-to-end tests of the studies view, as a reader reaches it: nothing of it (its page
// code, worker and wasm) is downloaded until the header's link opens it; its index lists
// what `retrystorm studies` lists; a study's link shows the figures and verdicts of
// `retrystorm study ID --seeds N --json`, in English and in Chinese; an embed shows the
// study alone; a link with an unknown study or a bad seed count says which field and what
// is allowed, and falls back. Screenshots land in ARTIFACTS (studies-*.png).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

// Few seeds: the figures need not agree, only equal the CLI's for the same seeds.
const STUDY = 'brooker-retry-sim';
// The verdicts' words in English (`{0}`: the study's reason).
const EN = { agrees: 'agrees', differs: 'differs: {0}', unexplained: 'differs, unexplained' };

/**
 * The CLI's output for its arguments.
 * @param {string[]} args
 */
const cli = (args) => execFileSync(e2e.CLI, args, { encoding: 'utf8' });

/**
 * A study as `retrystorm study --json` prints it (the fields the page shows).
 * @typedef {{mean: number, sd: number, n: number}} Mean
 * @typedef {{title: string, summary: string, figures: {label: string, unit: string, source: Mean, model: Mean, tolerance: number, verdict: string, why?: string}[]}} CliStudy
 */

/**
 * `retrystorm study ID --seeds N --json --lang L`.
 * @param {string} id
 * @param {number} seeds
 * @param {string} lang
 * @returns {CliStudy}
 */
const cliStudy = (id, seeds, lang) =>
  JSON.parse(cli(['study', id, '--seeds', String(seeds), '--json', '--lang', lang]));

/**
 * The numbers in a cell's text.
 * @param {string} text
 */
const numbers = (text) => [...text.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));

/**
 * Asserts that the page's table of figures shows the CLI's: the labels, the means, spreads
 * and run counts (to the two decimals shown), the tolerances and the verdicts in words.
 * @param {import('playwright-core').Page} page
 * @param {CliStudy} study
 * @param {{agrees: string, differs: string, unexplained: string}} words the verdicts' words in the language
 */
async function assertFigures(page, study, words) {
  const rows = (await e2e.tableRows(page, '#study-figures')).slice(1);
  assert.equal(rows.length, study.figures.length);
  study.figures.forEach((f, i) => {
    const [label, source, model, tolerance, verdict] = rows[i];
    assert.equal(label, `${f.label} (${f.unit})`);
    const near = (/** @type {number[]} */ shown, /** @type {number[]} */ cliFigures, /** @type {string} */ what) => {
      assert.equal(shown.length, cliFigures.length, `${f.label}: ${what}`);
      for (const [k, v] of shown.entries()) {
        assert.ok(Math.abs(v - cliFigures[k]) <= 0.005 + 1e-9, `${f.label}: ${what} ${v} vs ${cliFigures[k]}`);
      }
    };
    near(numbers(source), [f.source.mean, f.source.sd, f.source.n], 'source');
    near(numbers(model), [f.model.mean, f.model.sd, f.model.n], 'model');
    near(numbers(tolerance), [f.tolerance], 'tolerance');
    const said = {
      agrees: words.agrees,
      differs: words.differs.replace('{0}', f.why ?? ''),
      unexplained: words.unexplained,
    };
    assert.equal(verdict, said[/** @type {keyof said} */ (f.verdict)], f.label);
  });
}

/**
 * Opens a link of the studies view and waits for its figures.
 * @param {string} query
 */
async function openStudy(query) {
  const page = await h.page(`${h.url}${query}`);
  await page.waitForSelector('#study-figures tbody tr', { timeout: 60_000 });
  return page;
}

test('the header link opens the index (loaded only then), which lists what `retrystorm studies` lists', async () => {
  const page = await h.page(`${h.url}?lang=en`);
  /** @type {string[]} */
  const fetched = [];
  page.on('request', (r) => {
    if (/retrystorm-studies-web|\/js\/studies\//.test(r.url())) fetched.push(r.url());
  });
  await e2e.waitRunCount(page, 'runs', 1);
  assert.deepEqual(fetched, [], 'nothing of the studies before they are opened');
  await page.click('#studies-link');
  await page.waitForSelector('#studies-list li');
  assert.ok(
    fetched.some((u) => u.endsWith('retrystorm-studies-web_bg.wasm')),
    `the studies' wasm loads on opening: ${fetched.join(' ')}`,
  );
  assert.match(page.url(), /[?&]studies$/);
  // `retrystorm studies`: "ID  title", then the source indented.
  const listed = cli(['studies', '--lang', 'en'])
    .split('\n')
    .filter((l) => /^\S/.test(l))
    .map((l) => {
      const [, id, title] = /^(\S+)\s+(.*)$/.exec(l) ?? [];
      return { id, title };
    });
  assert.ok(listed.length >= 2, 'the CLI lists the studies');
  const shown = await page.$$eval('#studies-list li', (lis) =>
    lis.map((li) => ({ id: li.getAttribute('data-study'), title: li.querySelector('a')?.textContent })),
  );
  assert.deepEqual(shown, listed);
  // One sentence first says what a study is and how its figures are judged.
  assert.match(await page.textContent('#studies-intro'), /published setup.*tolerance/);
  assert.equal(await page.isVisible('#classic-root'), false, "the models' pages make way for the view");
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'studies-index.png'), fullPage: true });
  // Back returns to the model.
  await page.goBack();
  await page.waitForFunction(() => !document.body.classList.contains('studies'));
  assert.equal(await page.isVisible('#classic-root'), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a study link shows the figures and verdicts of `retrystorm study ID --seeds N --json`', async () => {
  const page = await openStudy(`?study=${STUDY}&seeds=4&lang=en`);
  const study = cliStudy(STUDY, 4, 'en');
  assert.equal(await page.textContent('#studies-h'), study.title);
  await assertFigures(page, study, EN);
  // The verdicts counted, above the setup: the CLI's sentence, and the table's count.
  assert.equal(await page.textContent('#study-summary'), study.summary);
  const agree = study.figures.filter((f) => f.verdict === 'agrees').length;
  assert.ok(
    study.summary.startsWith(agree === study.figures.length ? `All ${agree} ` : `${agree} of ${study.figures.length} `),
    study.summary,
  );
  // Run with fewer seeds than its own, it says the count its verdicts are tested at.
  const own = JSON.parse(cli(['studies', '--json'])).find((/** @type {{id: string}} */ s) => s.id === STUDY).seeds;
  assert.ok(study.summary.endsWith(`(4 seeds here; the study's verdicts are tested at ${own}.)`), study.summary);
  assert.equal(await page.inputValue('#study-seeds'), '4');
  assert.equal(await page.isVisible('#study-cancel'), false, 'no cancel once it has run');
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'studies-study.png'), fullPage: true });
  // The embed dialog offers this study, embedded.
  await page.click('#copy-embed');
  await page.waitForFunction(() =>
    /** @type {HTMLTextAreaElement} */ (document.getElementById('embed-code')).value.startsWith('<iframe'),
  );
  const code = await page.inputValue('#embed-code');
  assert.match(code, /src="[^"]*\?embed=study&amp;lang=en&amp;study=brooker-retry-sim&amp;seeds=4"/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('in Chinese, the study’s words are the engine’s Chinese ones', async () => {
  const page = await openStudy(`?study=${STUDY}&seeds=2&lang=zh`);
  const study = cliStudy(STUDY, 2, 'zh');
  assert.equal(await page.textContent('#studies-h'), study.title);
  assert.equal(await page.textContent('#study-summary'), study.summary);
  assert.match(study.summary, /个数字/);
  await assertFigures(page, study, { agrees: '一致', differs: '不同：{0}', unexplained: '不同，无说明' });
  assert.equal(await page.textContent('#study-run'), '运行');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an embed shows the study alone, its figures the CLI’s', async () => {
  const page = await openStudy(`?embed=study&study=${STUDY}&seeds=2&lang=en`);
  await assertFigures(page, cliStudy(STUDY, 2, 'en'), EN);
  assert.equal(await page.isVisible('header.top'), false);
  assert.equal(await page.isVisible('.study-run'), false, 'no controls in an embed');
  assert.equal(await page.isVisible('#studies-root .embed-only a'), true, 'a link to the playground');
  await page.waitForFunction(() => document.body.dataset.study === undefined);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'studies-embed.png'), fullPage: true });
  await page.close();
});

test('a link with an unknown study or a bad seed count names the field and what is allowed', async () => {
  /**
   * The banner's plain words and, folded under them, the engine's message.
   * @param {import('playwright-core').Page} page
   */
  const said = async (page) => {
    await page.waitForFunction(() => !document.getElementById('banner')?.hidden);
    return {
      plain: await page.evaluate(() => document.getElementById('banner')?.firstChild?.textContent),
      message: await page.textContent('#banner code'),
    };
  };
  const page = await h.page(`${h.url}?study=nope&lang=en`);
  // It falls back to the index.
  await page.waitForSelector('#studies-list li');
  /** @type {string[]} */
  const ids = JSON.parse(cli(['studies', '--json'])).map((/** @type {{id: string}} */ s) => s.id);
  assert.deepEqual(await said(page), {
    plain: `Study must be one of ${ids.join(', ')}`,
    message: `study = nope is not allowed: expected one of ${ids.map((i) => `\`${i}\``).join(', ')}`,
  });
  // A count out of range, then not a number: the study with its own count instead (which
  // the test need not wait for).
  await page.goto(`${h.url}?study=${STUDY}&seeds=1&lang=en`);
  assert.deepEqual(await said(page), {
    plain: 'Seeds must be between 2 and 1000',
    message: 'seeds = 1 is out of range: allowed 2..=1000',
  });
  assert.equal(await page.getAttribute('#studies-h', 'data-study'), STUDY);
  const own = JSON.parse(cli(['studies', '--json'])).find((/** @type {{id: string}} */ s) => s.id === STUDY).seeds;
  assert.equal(await page.inputValue('#study-seeds'), String(own));
  await page.goto(`${h.url}?study=${STUDY}&seeds=many&lang=en`);
  assert.deepEqual(await said(page), {
    plain: 'Seeds must be a whole number between 2 and 1000',
    message: 'seeds = many is not allowed: expected a whole number in 2..=1000',
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});
