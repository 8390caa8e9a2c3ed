// End-to-end tests of "Paste your library's retry configuration", as a reader uses it: the
// importer (its page code, worker and wasm) is not downloaded until the box is opened; a
// real Spring Boot application.yml reads into the same words as `retrystorm import`, with
// its instances to choose from; "Use it" makes it the client policy the CLI's
// `import --scenario` writes, the scenario runs with it and the link carries it; a bad
// value is named by its key path in the file. Screenshots land in ARTIFACTS (paste-*.png).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const YML = path.join(root, 'examples/configs/resilience4j-application.yml');

/**
 * `retrystorm import FILE` with its arguments: the explanation (stderr) and the output.
 * @param {string[]} args
 */
function cliImport(args) {
  const out = execFileSync(e2e.CLI, ['import', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out;
}

/**
 * The explanation lines `retrystorm import` prints on stderr.
 * @param {string[]} args
 */
function cliWords(args) {
  const file = h.scratch(`paste-${process.hrtime.bigint()}.err`);
  const fd = fs.openSync(file, 'w');
  execFileSync(e2e.CLI, ['import', ...args, '--lang', 'en'], { stdio: ['ignore', 'ignore', fd] });
  fs.closeSync(fd);
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n');
}

/**
 * Opens the cluster model and returns it with the list of importer files it requested.
 * @param {string} [query]
 */
async function openCluster(query = '?lang=en') {
  const page = await h.page(`${h.url}${query}`);
  /** @type {string[]} */
  const fetched = [];
  page.on('request', (r) => {
    if (/retrystorm-import-web|\/js\/importer\//.test(r.url())) fetched.push(r.url());
  });
  await e2e.waitRunCount(page, 'runs', 1);
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  return { page, fetched };
}

test('a pasted application.yml: the CLI’s words, its instances, then the client policy the CLI writes, run and linked', async () => {
  const { page, fetched } = await openCluster();
  assert.deepEqual(fetched, [], 'nothing of the importer before the box is opened');
  await page.click('#cluster-paste summary');
  await page.waitForFunction(() => (document.getElementById('cluster-paste-library')?.children.length ?? 0) > 1);
  assert.ok(
    fetched.some((u) => u.endsWith('_bg.wasm')),
    `the importer's wasm loads on opening: ${fetched.join(' ')}`,
  );
  await page.fill('#cluster-paste-text', fs.readFileSync(YML, 'utf8'));
  await page.click('#cluster-paste-read');
  // The file has two retry instances: the page offers them and reads the first.
  await page.waitForSelector('#cluster-paste-out li');
  const instances = await page.$$eval('#cluster-paste-instance option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(instances, ['inventory', 'payments']);
  const words = () => page.$$eval('#cluster-paste-out .paste-words li', (lis) => lis.map((li) => li.textContent));
  const all = () => page.$$eval('#cluster-paste-out li', (lis) => lis.map((li) => li.textContent));
  const inventory = cliWords([YML, '--instance', 'inventory']);
  assert.deepEqual(await words(), inventory.slice(0, (await words()).length));
  // Every line the CLI prints is on the page: the words, each quirk, each default.
  const shown = (await all()).join('\n');
  for (const line of inventory) assert.ok(shown.includes(line.replace(/^(note|default): /, '')), line);
  // The other instance, chosen from the list, is read at once.
  await page.selectOption('#cluster-paste-instance', 'payments');
  const payments = cliWords([YML, '--instance', 'payments']);
  await page.waitForFunction(
    (first) => document.querySelector('#cluster-paste-out li')?.textContent === first,
    payments[0],
  );
  assert.deepEqual(await words(), payments.slice(0, (await words()).length));
  // Use it: the client policy is the one `import --scenario` writes into the same scenario.
  const before = await page.evaluate(() => structuredClone(window.playground.cluster.cfg));
  const scenario = h.scratch('paste-scenario.json');
  fs.writeFileSync(scenario, JSON.stringify({ model: 'cluster', ...before }));
  const want = JSON.parse(cliImport([YML, '--instance', 'payments', '--scenario', scenario]));
  const runs = await e2e.runCount(page, 'clusterRuns');
  const link = page.url();
  await page.selectOption('#cluster-paste-target', 'tiers[0].client');
  await page.click('#cluster-paste-apply');
  await e2e.waitRunCount(page, 'clusterRuns', runs + 1);
  const client = await page.evaluate(() => window.playground.cluster.cfg.tiers[0].client);
  assert.deepEqual(client, want.tiers[0].client);
  assert.match(await page.textContent('#cluster-paste-status'), /Resilience4j policy .*gateway → orders/);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'paste-applied.png'), fullPage: true });
  // The link carries it: a fresh page opened on it runs the same client policy.
  await page.waitForFunction((old) => location.href !== old, link);
  const again = await h.page(page.url());
  await e2e.waitRunCount(again, 'clusterRuns', 1);
  assert.deepEqual(await again.evaluate(() => window.playground.cluster.cfg.tiers[0].client), want.tiers[0].client);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  for (const p of [page, again]) await p.close();
});

test('on the article’s page a configuration becomes a strategy row, as `import --preset article` writes it, run beside S1–S6 and linked', async () => {
  const page = await h.page(`${h.url}?lang=en`);
  await e2e.waitRunCount(page, 'runs', 1);
  await page.click('#classic-paste summary');
  await page.waitForFunction(() => (document.getElementById('classic-paste-library')?.children.length ?? 0) > 1);
  // No "write it" here: the classic model has no client policy to write.
  assert.equal(await page.$('#classic-write'), null);
  await page.fill('#classic-paste-text', fs.readFileSync(YML, 'utf8'));
  await page.click('#classic-paste-read');
  await page.waitForSelector('#classic-paste-out li');
  await page.selectOption('#classic-paste-instance', 'payments');
  const payments = cliWords([YML, '--instance', 'payments', '--preset', 'article']);
  await page.waitForFunction(
    (first) => document.querySelector('#classic-paste-out li')?.textContent === first,
    payments[0],
  );
  const want = JSON.parse(cliImport([YML, '--instance', 'payments', '--preset', 'article', '--lang', 'en']));
  const targets = await page.$$eval('#classic-paste-target option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(targets, [
    'a new strategy row',
    ...want.strategies.slice(0, 6).map((/** @type {any} */ s) => s.name),
  ]);
  const runs = await e2e.runCount(page, 'runs');
  const link = page.url();
  await page.selectOption('#classic-paste-target', 'new');
  await page.click('#classic-paste-apply');
  await e2e.waitRunCount(page, 'runs', runs + 1);
  // The row is the CLI's, and so is every "cannot" and "default" line it printed.
  const cfg = await page.evaluate(() => structuredClone(window.playground.classic.cfg));
  assert.deepEqual(cfg.strategies, want.strategies);
  const notes = await page.$$eval('#classic-paste-row-notes li', (lis) => lis.map((li) => li.textContent));
  const cli = payments.filter((l) => /^(cannot express|default): /.test(l)).map((l) => l.replace(/^[^:]+: /, ''));
  assert.ok(
    cli.some((l) => l.startsWith('deadline_ms = 30000')),
    payments.join('\n'),
  );
  assert.deepEqual(notes, cli);
  assert.match(
    (await page.textContent('#classic-paste-status')) ?? '',
    /Resilience4j policy is now the strategy row “Resilience4j \(instance payments\)”/,
  );
  // It runs beside S1–S6: the results table has its row.
  const rows = await e2e.tableRows(page, '#classic-results');
  assert.ok(
    rows.some((r) => r[0] === 'Resilience4j (instance payments)'),
    JSON.stringify(rows.map((r) => r[0])),
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'paste-classic-row.png'), fullPage: true });
  // The link carries it, and the text it was read from: a fresh page shows the box open
  // on it, read as the same instance, in the same words.
  await page.waitForFunction((old) => location.href !== old, link);
  const again = await h.page(page.url());
  await e2e.waitRunCount(again, 'runs', 1);
  assert.deepEqual(await again.evaluate(() => window.playground.classic.cfg.strategies), want.strategies);
  await again.waitForFunction(
    (first) => document.querySelector('#classic-paste-out li')?.textContent === first,
    payments[0],
  );
  assert.equal(await again.inputValue('#classic-paste-text'), fs.readFileSync(YML, 'utf8'));
  assert.equal(await again.inputValue('#classic-paste-library'), 'resilience4j');
  assert.equal(await again.inputValue('#classic-paste-instance'), 'payments');
  const wordsAgain = await again.$$eval('#classic-paste-out .paste-words li', (lis) => lis.map((li) => li.textContent));
  assert.deepEqual(wordsAgain, payments.slice(0, wordsAgain.length));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  for (const p of [page, again]) await p.close();
});

test('Go code (cenkalti/backoff, failsafe-go), a Finagle budget and a Linkerd profile pasted: recognised, and the CLI’s words, quirks and defaults', async () => {
  const { page } = await openCluster();
  await page.click('#cluster-paste summary');
  await page.waitForFunction(() => (document.getElementById('cluster-paste-library')?.children.length ?? 0) > 1);
  const libraries = await page.$$eval('#cluster-paste-library option', (os) => os.map((o) => o.getAttribute('value')));
  for (const [file, title] of [
    ['cenkalti-backoff.go', 'cenkalti/backoff'],
    ['failsafe-go.go', 'failsafe-go'],
    ['finagle-retry-budget.scala', 'Finagle / Linkerd'],
    ['linkerd-serviceprofile.yaml', 'Finagle / Linkerd'],
  ]) {
    const full = path.join(root, 'examples/configs', file);
    const cli = cliWords([full]);
    assert.ok(cli[0].startsWith(title), cli[0]);
    await page.fill('#cluster-paste-text', fs.readFileSync(full, 'utf8'));
    await page.click('#cluster-paste-read');
    await page.waitForFunction(
      (first) => document.querySelector('#cluster-paste-out li')?.textContent === first,
      cli[0],
    );
    const all = await page.$$eval('#cluster-paste-out li', (lis) => lis.map((li) => li.textContent));
    const shown = all.join('\n');
    for (const line of cli) assert.ok(shown.includes(line.replace(/^(note|default): /, '')), `${file}: ${line}`);
    await page.screenshot({ path: path.join(e2e.ARTIFACTS, `paste-${file.replace(/\W+/g, '-')}.png`), fullPage: true });
  }
  assert.ok(libraries.includes('cenkalti') && libraries.includes('failsafe-go'), libraries.join(' '));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a bad value is named by its key path in the file, in words, and nothing is applied', async () => {
  const { page } = await openCluster();
  await page.click('#cluster-paste summary');
  await page.waitForFunction(() => (document.getElementById('cluster-paste-library')?.children.length ?? 0) > 1);
  const bad = 'resilience4j:\n  retry:\n    instances:\n      inventory:\n        max-attempts: -2\n';
  await page.fill('#cluster-paste-text', bad);
  await page.click('#cluster-paste-read');
  await page.waitForFunction(() =>
    /max-attempts/.test(document.getElementById('cluster-paste-status')?.textContent ?? ''),
  );
  const file = h.scratch('paste-bad.yml');
  fs.writeFileSync(file, bad);
  let cli = '';
  try {
    cliImport([file]);
  } catch (e) {
    cli = String(/** @type {{stderr: string}} */ (e).stderr);
  }
  assert.match(cli, /resilience4j\.retry\.instances\.inventory\.max-attempts/);
  // The words, then the CLI's own line with the key path, the value and what is allowed.
  const status = await page.textContent('#cluster-paste-status');
  assert.match(status ?? '', /^Max-attempts must be a whole number ≥ 0/);
  assert.ok(cli.includes((await page.textContent('#cluster-paste-status code')) ?? '-'), cli);
  assert.equal(await page.isVisible('#cluster-paste-use'), false, 'nothing to apply');
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'paste-error.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a client policy of the scenario written as each library’s configuration, as retrystorm export writes it', async () => {
  const { page } = await openCluster();
  await page.click('#cluster-paste summary');
  await page.waitForFunction(() => (document.getElementById('cluster-write-to')?.children.length ?? 0) > 1);
  const libraries = await page.$$eval('#cluster-write-to option', (os) => os.map((o) => o.getAttribute('value') ?? ''));
  assert.ok(libraries.includes('resilience4j') && libraries.includes('grpc'), libraries.join(' '));
  const cfg = await page.evaluate(() => structuredClone(window.playground.cluster.cfg));
  const scenario = h.scratch('write-scenario.json');
  fs.writeFileSync(scenario, JSON.stringify({ model: 'cluster', ...cfg }));
  for (const to of libraries) {
    await page.selectOption('#cluster-write-to', to);
    await page.selectOption('#cluster-write-from', 'tiers[0].client');
    await page.$eval('#cluster-write-text', (t) => {
      /** @type {HTMLTextAreaElement} */ (t).value = '';
    });
    await page.click('#cluster-write');
    await page.waitForFunction(
      () => /** @type {HTMLTextAreaElement} */ (document.getElementById('cluster-write-text')).value !== '',
    );
    const text = await page.inputValue('#cluster-write-text');
    const cannot = await page.$$eval('#cluster-write-cannot li', (lis) => lis.map((li) => li.textContent));
    const cli = JSON.parse(
      execFileSync(
        e2e.CLI,
        [
          'export',
          '--scenario',
          scenario,
          '--policy',
          'tiers[0].client',
          '--to',
          to,
          '--instance',
          'gateway-orders',
          '--json',
          '--lang',
          'en',
        ],
        { encoding: 'utf8' },
      ),
    );
    assert.equal(text, cli.text, to);
    assert.deepEqual(cannot, cli.cannot, to);
  }
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'paste-write.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});
