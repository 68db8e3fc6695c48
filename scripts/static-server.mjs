// A static file server for the web app on 127.0.0.1: `npm run web` (scripts/serve-web.mjs), the
// browser tests and bench/web.ts serve dist/web through it; the shipped problem database
// (data/problems.sqlite) is served beside the page as problems.sqlite. Text, scripts and the
// database go out compressed when the browser accepts it (brotli for files under 1 MB, else
// gzip), as a static host should serve them (docs/web.md); each file is compressed once.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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
const COMPRESSED = new Set(['.html', '.js', '.css', '.wasm', '.json', '.sqlite']);
/** Brotli at its best is slow on large files: those go out gzipped. */
const BROTLI_MAX = 1 << 20;

/** Compressed bodies by file, encoding and modification time. */
const compressed = new Map();

/** The body of `file` in the encoding the request accepts (br or gzip), or as it is. */
function encoded(file, body, accept) {
  if (!COMPRESSED.has(extname(file))) return { body };
  const encoding = /\bbr\b/.test(accept) && body.length <= BROTLI_MAX ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : '';
  if (!encoding) return { body };
  const key = `${file}\0${encoding}\0${statSync(file).mtimeMs}`;
  if (!compressed.has(key))
    compressed.set(
      key,
      encoding === 'br'
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipSync(body, { level: body.length <= BROTLI_MAX ? 9 : 6 }),
    );
  return { body: compressed.get(key), encoding };
}

/** A file under a directory that `extra` serves at a prefix ending in / (`'/egtb/'` → the tablebases' directory), or undefined. */
function underPrefix(extra, path) {
  for (const [prefix, base] of Object.entries(extra)) {
    if (!prefix.endsWith('/') || !path.startsWith(prefix) || path === prefix) continue;
    const file = normalize(join(base, path.slice(prefix.length)));
    if (file.startsWith(normalize(base) + sep)) return file;
  }
  return undefined;
}

/**
 * Serves `dir` (and `extra`: URL path → file, or a prefix ending in / → a directory) on 127.0.0.1:`port`; `onRequest` hears each path
 * served with its size and the bytes sent (compressed when the browser accepted it). Resolves with
 * the server and its URL.
 */
export function serveStatic(dir, { port = 0, extra = {}, onRequest } = {}) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const mapped = extra[path] ?? underPrefix(extra, path);
    const file = mapped ?? normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if ((!mapped && !file.startsWith(dir + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    const raw = readFileSync(file);
    const { body, encoding } = encoded(file, raw, String(req.headers['accept-encoding'] ?? ''));
    // kept by the browser but asked again each time (a build may have changed it): a copy it holds
    // is answered 304, with no body, as when the page's three workers load worker.js one after another
    const { size, mtimeMs } = statSync(file);
    const etag = `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}${encoding ? `-${encoding}` : ''}"`;
    const headers = {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      etag,
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    };
    if (req.headers['if-none-match'] === etag) {
      onRequest?.(path, file, raw.length, 0);
      res.writeHead(304, headers).end();
      return;
    }
    onRequest?.(path, file, raw.length, body.length);
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

export const WEB_DIR = join(root, 'dist/web');
export const SHIPPED_DB = { '/problems.sqlite': join(root, 'data/problems.sqlite') };
/**
 * The endgame tablebases `krieg egtb build` wrote ($KRIEG_EGTB_DIR, else .cache/egtb, as
 * host/players/egtbFile.node.ts egtbDir), served at egtb/ beside the page, which fetches one when
 * a belief first reaches its ending (docs/web.md).
 */
export const TABLEBASES = { '/egtb/': process.env.KRIEG_EGTB_DIR || join(root, '.cache', 'egtb') };
