// Trunk's post_build hook (Trunk.toml): runs on the staging directory after Trunk has
// written every file and index.html, before the staging directory becomes dist/.
//
// 1. Moves wasm-bindgen's `.d.ts` out of the site to target/web-types/: the page never
//    loads it, and `tsc -p www` reads it there (www/tsconfig.json `rootDirs`).
// 2. Release builds only (TRUNK_PROFILE=release): minifies every JavaScript and CSS file
//    in place with esbuild, one file at a time, so names and relative imports stay as they
//    are (the Web Workers import the glue and the wasm by path; `filehash = false`).
//    Debug builds (`trunk serve`) stay readable.
// 3. Recomputes every `integrity=` hash in index.html: Trunk hashed the glue and the
//    style sheets before step 2, and a stale hash makes the browser refuse the file.
// 4. Writes the first paint into index.html: the default view's verdict and results
//    table in both languages, from the engine (the wasm just built, run here in node),
//    so a reader sees the article's table before the wasm has arrived in the browser.
//
// Run by hand with TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release TRUNK_PUBLIC_URL=/.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// esbuild is a pinned npm package of tests/e2e, installed by scripts/setup.sh.
const esbuild = createRequire(path.join(root, 'tests/e2e/package.json'))('esbuild');

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('post-build: TRUNK_STAGING_DIR is not set (run by Trunk)');
const release = process.env.TRUNK_PROFILE === 'release';
const publicUrl = process.env.TRUNK_PUBLIC_URL || '/';
// WEB_TYPES_DIR: for tests/e2e/postbuild.test.js, which must not overwrite the real one.
const typesDir = process.env.WEB_TYPES_DIR || path.join(root, 'target/web-types');

/** Every file under `dir`, as paths. @param {string} dir @returns {string[]} */
function walk(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

fs.mkdirSync(typesDir, { recursive: true });
for (const file of fs.readdirSync(staging).filter((f) => f.endsWith('.d.ts'))) {
  // copy + unlink: target/ may be on another file system than dist/.
  fs.copyFileSync(path.join(staging, file), path.join(typesDir, file));
  fs.unlinkSync(path.join(staging, file));
  console.log(`post-build: ${file} -> ${path.relative(root, typesDir)}/`);
}

if (release) {
  let before = 0;
  let after = 0;
  for (const file of walk(staging)) {
    const loader = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : null;
    if (!loader) continue;
    const src = fs.readFileSync(file, 'utf8');
    const out = esbuild.transformSync(src, {
      loader,
      minify: true,
      // Every .js of the site is an ES module (the page, the workers, the glue); this also
      // lets esbuild shorten top-level names that are not exported.
      ...(loader === 'js' ? { format: 'esm' } : {}),
      // Keep the catalogues' Chinese as UTF-8 (3 bytes a character) instead of \uXXXX (6).
      charset: 'utf8',
      // No syntax lowering: the site already needs a browser with ES modules in workers.
      target: 'esnext',
      sourcefile: path.relative(staging, file),
    });
    for (const w of out.warnings) console.warn(`post-build: ${path.relative(staging, file)}: ${w.text}`);
    fs.writeFileSync(file, out.code);
    before += Buffer.byteLength(src);
    after += Buffer.byteLength(out.code);
  }
  console.log(`post-build: minified JavaScript and CSS, ${before} B -> ${after} B`);
}

/** Text for HTML (element content and attribute values). @param {string} text */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The default view's verdict and results table in `lang`, as the page renders them
 * (js/lib/table.js: the first cell of each row its header), every cell the engine's.
 * @param {any} wasm the glue, initialised
 * @param {'en' | 'zh'} lang
 */
async function firstPaintIn(wasm, lang) {
  const words = (await import(pathToFileURL(path.join(root, `www/js/i18n/${lang}.js`)).href)).default;
  const run = wasm.ClassicRun.run(wasm.classicDefaults().scenario, undefined);
  try {
    const { columns, rows } = run.table(lang);
    const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
    const body = rows
      .map(
        (/** @type {string[]} */ row) =>
          `<tr>${row.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`,
      )
      .join('');
    return (
      `<div class="fp-${lang}" lang="${lang === 'zh' ? 'zh-CN' : 'en'}">` +
      `<h2>${escapeHtml(words['classic.results'])}</h2>` +
      `<p class="verdict">${escapeHtml(run.verdict(lang))}</p>` +
      `<div class="scroll"><table class="results" aria-label="${escapeHtml(words['classic.resultsLabel'])}">` +
      `<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div></div>`
    );
  } finally {
    run.free();
  }
}

/**
 * index.html with the first paint in its placeholder; a page without one is left as it
 * is (tests/e2e/loading.test.js checks that the site's has its table).
 * @param {string} html
 */
async function withFirstPaint(html) {
  const placeholder = '<div id="first-paint" class="first-paint"></div>';
  if (!html.includes(placeholder)) {
    console.log('post-build: no first-paint placeholder in index.html');
    return html;
  }
  const wasm = await import(pathToFileURL(path.join(staging, 'retrystorm-web.js')).href);
  wasm.initSync({ module: fs.readFileSync(path.join(staging, 'retrystorm-web_bg.wasm')) });
  const inner = (await firstPaintIn(wasm, 'en')) + (await firstPaintIn(wasm, 'zh'));
  console.log(`post-build: first paint written into index.html (${inner.length} B)`);
  return html.replace(placeholder, placeholder.replace('></div>', `>${inner}</div>`));
}

// The hash of each file that index.html names with an integrity attribute, from its bytes now.
const htmlFile = path.join(staging, 'index.html');
const html = await withFirstPaint(fs.readFileSync(htmlFile, 'utf8'));
let rehashed = 0;
const fixed = html.replace(/<(?:link|script)\b[^>]*>/g, (tag) => {
  // Quoted or not: an HTML minifier may drop the quotes.
  const integrity = /\bintegrity=(["']?)(sha256|sha384|sha512)-([^"'\s>]*)\1/.exec(tag);
  if (!integrity) return tag;
  const url = /\b(?:href|src)=(["']?)([^"'\s>]*)\1/.exec(tag);
  if (!url) throw new Error(`post-build: an integrity attribute without a file: ${tag}`);
  const href = url[2];
  const rel = href.startsWith(publicUrl) ? href.slice(publicUrl.length) : href;
  const file = path.join(staging, decodeURIComponent(rel));
  if (!fs.existsSync(file)) throw new Error(`post-build: ${href} (in index.html) is not in the site`);
  const algo = integrity[2];
  const digest = createHash(algo).update(fs.readFileSync(file)).digest('base64');
  if (digest !== integrity[3]) rehashed++;
  return tag.replace(integrity[0], `integrity="${algo}-${digest}"`);
});
// Release builds ship index.html without its comments: they are for the source's
// readers, and about 300 B of the first page gzipped.
fs.writeFileSync(htmlFile, release ? fixed.replace(/[ \t]*<!--[\s\S]*?-->\n?/g, '') : fixed);
console.log(`post-build: ${rehashed} integrity hash(es) in index.html recomputed`);
