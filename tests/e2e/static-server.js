// A tiny static file server for the built site (dist/): .wasm as application/wasm,
// only GET/HEAD, never outside the root, optionally under a sub-path (`/blog/play/`).
// Used by the end-to-end tests and by scripts/serve.sh:
//   node tests/e2e/static-server.js <dir> [port] [prefix]

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Starts a server for `root` under `prefix`; resolves to {server, url}. Port 0 picks a free one.
 * @param {string} root
 * @returns {Promise<{server: http.Server, url: string}>}
 */
export function serve(root, { port = 0, host = '127.0.0.1', prefix = '/' } = {}) {
  const base = path.resolve(root);
  if (!prefix.startsWith('/')) prefix = `/${prefix}`;
  if (!prefix.endsWith('/')) prefix = `${prefix}/`;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const { pathname } = new URL(req.url, 'http://x');
    if (`${pathname}/` === prefix) {
      res.writeHead(301, { location: prefix }).end();
      return;
    }
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(pathname.slice(prefix.length));
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = path.resolve(base, rel || 'index.html');
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) file = path.join(file, 'index.html');
      fs.readFile(file, (err2, body) => {
        if (err2) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res.writeHead(200, {
          'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
          'cache-control': 'no-cache',
          'content-length': body.length,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ server, url: `http://${host}:${actual}${prefix}` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir = 'dist', port = '8080', prefix = '/'] = process.argv.slice(2);
  serve(dir, { port: Number(port), prefix }).then(
    ({ url }) => {
      console.log(`Retry Storm Playground: open ${url}`);
      console.log('(Ctrl+C to stop)');
    },
    (e) => {
      console.error(`cannot serve ${dir} on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    },
  );
}
