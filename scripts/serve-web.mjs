// `npm run web`: builds what is stale and serves the web app (dist/web) on 127.0.0.1, printing its
// URL; the shipped problem database (data/problems.sqlite) is served beside it as problems.sqlite,
// for the page's "Open the shipped database". Any static host serves dist/web the same way (copy
// the database next to index.html to offer it there). The tests and bench/web.ts use serveStatic.
// Usage: node scripts/serve-web.mjs [--port N]   (default 8080; 0 picks a free port)
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--port');
  const port = at >= 0 ? Number(process.argv[at + 1]) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve-web: --port must be an integer from 0 to 65535, got ${process.argv[at + 1]}`);
    process.exit(2);
  }
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'wasm', 'js', 'web', '--stale'], {
    stdio: 'inherit',
  });
  const { url } = await serveStatic(WEB_DIR, { port, extra: SHIPPED_DB });
  console.log(`krieg web app: ${url}  (perft demo: ${url}perft.html; Ctrl-C stops)`);
}
