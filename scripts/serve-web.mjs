// `npm run web`: builds what is stale and serves the web app (dist/web) on 127.0.0.1, printing its
// URL; the shipped problem database (data/problems.sqlite) is served beside it as problems.sqlite,
// for the page's "Open the shipped database". Any static host serves dist/web the same way (copy
// the database next to index.html to offer it there).
// Usage: node scripts/serve-web.mjs [--port N]   (default 8080; 0 picks a free port)
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic, WEB_DIR, SHIPPED_DB } from './static-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--port');
const port = at >= 0 ? Number(process.argv[at + 1]) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve-web: --port must be an integer from 0 to 65535, got ${process.argv[at + 1]}`);
  process.exit(2);
}
execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'wasm', 'js', 'web', '--stale'], { stdio: 'inherit' });
const { url } = await serveStatic(WEB_DIR, { port, extra: SHIPPED_DB });
console.log(`krieg web app: ${url}  (perft demo: ${url}perft.html; Ctrl-C stops)`);
