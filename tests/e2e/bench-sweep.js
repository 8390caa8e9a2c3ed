// A benchmark, not a test (docs/performance.md): the breaker-threshold preset (40 points ×
// 100 seeds of the article's scenario) in the page, in headless Chromium with 2 workers,
// three times: the time to the first point drawn and to the whole sweep. Prints one line
// per run. `node tests/e2e/bench-sweep.js` after `trunk build --release` (the env vars of
// scripts/test.sh's e2e step apply).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as e2e from './harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const def = JSON.parse(fs.readFileSync(path.join(ROOT, 'scenarios/sweeps/breaker-threshold.json'), 'utf8'));
const s = `v3.${Buffer.from(JSON.stringify({ classic_sweep: def })).toString('base64url')}`;
const h = new e2e.Harness({ width: 1280, height: 900 });
await h.start();
try {
  for (let i = 0; i < 3; i++) {
    const page = await h.page(`${h.url}?workers=2&s=${s}`);
    await page.waitForFunction(() => document.body.dataset.classicSweep === 'done', null, { timeout: 300_000 });
    const [first, total] = await page.evaluate(() => [
      document.body.dataset.classicSweepFirstMs,
      document.body.dataset.classicSweepMs,
    ]);
    console.log(`run ${i + 1}: first point ${first} ms, whole sweep ${total} ms (4,000 runs, 2 workers)`);
    await page.close();
  }
} finally {
  await h.stop();
}
