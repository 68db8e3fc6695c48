// A static file server for the web app on 127.0.0.1: `npm run web` (scripts/serve-web.mjs), the
// browser tests and bench/web.ts serve dist/web through it; the shipped problem database
// (data/problems.sqlite) is served beside the page as problems.sqlite.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.json': 'application/json',
  '.sqlite': 'application/vnd.sqlite3',
};

/**
 * Serves `dir` (and `extra`: URL path → file) on 127.0.0.1:`port`; `onRequest` hears each path
 * served with its size. Resolves with the server and its URL.
 */
export function serveStatic(dir, { port = 0, extra = {}, onRequest } = {}) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = extra[path] ?? normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if ((!extra[path] && !file.startsWith(dir + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    const body = readFileSync(file);
    onRequest?.(path, file, body.length);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

export const WEB_DIR = join(root, 'dist/web');
export const SHIPPED_DB = { '/problems.sqlite': join(root, 'data/problems.sqlite') };
