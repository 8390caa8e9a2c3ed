// What both end-to-end test files share: the environment, the headless Chromium
// (Debian's /usr/bin/chromium driven by playwright-core), the site served on 127.0.0.1,
// opening pages that collect their errors, and the native CLI (`retrystorm run --json`).
//
// Environment (scripts/test.sh sets all of it):
//   DIST            the built site (trunk build --release)           default ../../dist
//   DIST_SUBPATH    the same site built with --public-url SUBPATH    optional
//   SUBPATH         that public URL, e.g. /nested/retry-storm/
//   RETRYSTORM_BIN  the native CLI                                   default ../../target/release/retrystorm
//   ARTIFACTS       where screenshots go                             default ../artifacts

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './static-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
export const DIST = process.env.DIST || path.join(root, 'dist');
export const DIST_SUBPATH = process.env.DIST_SUBPATH || '';
export const SUBPATH = process.env.SUBPATH || '/nested/retry-storm/';
export const CLI = process.env.RETRYSTORM_BIN || path.join(root, 'target/release/retrystorm');
export const ARTIFACTS = process.env.ARTIFACTS || path.join(root, 'tests/artifacts');

/**
 * @typedef {import('playwright-core').Page & {errors: string[]}} TestPage
 * @typedef {{url: string, server: import('node:http').Server}} Site
 */

/** The browser, the served site and a scratch directory, set up by `start()`. */
export class Harness {
  /** @param {{width: number, height: number}} viewport */
  constructor(viewport) {
    this.viewport = viewport;
    /** @type {Site | null} */
    this.site = null;
    /** @type {import('playwright-core').BrowserContext | null} */
    this.context = null;
    this.profile = '';
  }

  /** The served site's URL. */
  get url() {
    return /** @type {Site} */ (this.site).url;
  }

  async start() {
    assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no built site in ${DIST}: run trunk build --release`);
    assert.ok(fs.existsSync(CLI), `no CLI at ${CLI}: run cargo build --release`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    this.site = await serve(DIST);
    this.profile = fs.mkdtempSync(path.join(os.tmpdir(), 'retrystorm-e2e-'));
    this.context = await chromium.launchPersistentContext(this.profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      viewport: this.viewport,
      // The page follows the browser's language when the link has none: English here,
      // so the tests that read English texts do not depend on the machine's locale.
      locale: 'en-US',
      acceptDownloads: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }

  async stop() {
    await this.context?.close();
    this.site?.server.close();
    if (this.profile) fs.rmSync(this.profile, { recursive: true, force: true });
  }

  /**
   * Opens a page that collects its errors (`page.errors`).
   * @param {string} url
   * @returns {Promise<TestPage>}
   */
  async page(url) {
    const page = /** @type {TestPage} */ (
      await /** @type {import('playwright-core').BrowserContext} */ (this.context).newPage()
    );
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(e.message));
    await page.goto(url);
    return page;
  }

  /**
   * The CLI's `run --json` for a scenario object (or a preset id) and an optional seed.
   * @param {object | string} scenario
   * @param {number | string} [seed]
   */
  cli(scenario, seed) {
    const args = ['run', '--json'];
    if (typeof scenario === 'string') {
      args.push('--preset', scenario);
    } else {
      const file = path.join(this.profile, `scenario-${process.hrtime.bigint()}.json`);
      fs.writeFileSync(file, JSON.stringify(scenario));
      args.push('--scenario', file);
    }
    if (seed !== undefined) args.push('--seed', String(seed));
    return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  }

  /** A file path in the scratch directory. @param {string} name */
  scratch(name) {
    return path.join(this.profile, name);
  }
}

/**
 * Clicks a download button and returns the downloaded file's bytes.
 * @param {import('playwright-core').Page} page
 * @param {string} button selector
 */
export async function downloaded(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return fs.readFileSync(await download.path());
}

/**
 * A table's rows of cell texts (header first).
 * @param {import('playwright-core').Page} page
 * @param {string} selector the table
 * @returns {Promise<string[][]>}
 */
export function tableRows(page, selector) {
  return page.$$eval(`${selector} tr`, (trs) => trs.map((r) => [...r.children].map((c) => String(c.textContent))));
}

/**
 * The canvas's pixels as a PNG data URL.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
export function pixels(page, selector) {
  return page.$eval(selector, (c) => /** @type {HTMLCanvasElement} */ (c).toDataURL('image/png'));
}

/**
 * How many runs a model's page has shown (`document.body.dataset[key]`: runs, clusterRuns).
 * @param {import('playwright-core').Page} page
 * @param {string} key
 */
export function runCount(page, key) {
  return page.evaluate((k) => Number(document.body.dataset[k] || 0), key);
}

/**
 * Waits until a model's page has shown `n` runs.
 * @param {import('playwright-core').Page} page
 * @param {string} key
 * @param {number} n
 */
export async function waitRunCount(page, key, n) {
  await page.waitForFunction(([k, m]) => Number(document.body.dataset[k] || 0) >= Number(m), [key, n], {
    timeout: 60_000,
  });
}

/**
 * Sets a field, commits it and waits for the run it starts. `commit`: "Tab" commits with
 * a real key press (user activation, which Chromium needs to keep a history entry), or
 * "change" dispatches the change event.
 * @param {import('playwright-core').Page} page
 * @param {{field: string, value: string, runs: string, commit: 'Tab' | 'change'}} edit
 */
export async function commitField(page, { field, value, runs, commit }) {
  const before = await runCount(page, runs);
  const input = page.locator(`[data-field="${field}"]`);
  await input.fill(value);
  if (commit === 'Tab') await input.press('Tab');
  else await input.dispatchEvent('change');
  await waitRunCount(page, runs, before + 1);
}

/**
 * Loads a bundled scenario through the presets list of `model`'s page (the classic page's
 * lists every preset; a cluster one switches to the cluster model), as a reader does.
 * @param {import('playwright-core').Page} page
 * @param {string} id the preset's id
 * @param {'classic' | 'cluster'} [model]
 */
export async function choosePreset(page, id, model = 'classic') {
  await page.selectOption(`#${model}-presets`, id);
}

/** The PNG signature. */
export const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
