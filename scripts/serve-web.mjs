// `npm run web`: builds what is stale and serves the web app (dist/web) on 127.0.0.1, printing its
// URL; the shipped problem database (data/problems.sqlite) is served beside it as problems.sqlite,
// for the page's "Open the shipped database", and the tablebases built (.cache/egtb or
// $KRIEG_EGTB_DIR) under egtb/, for Know's and Solve's "guaranteed mate in N". Any static host serves dist/web the same way (copy
// the database next to index.html to offer it there).
// Usage: node scripts/serve-web.mjs [--port N]   (default 8080; 0 picks a free port)
// The port is taken before the build: a busy one is said in one line with a free port to use
// instead (exit 2), at once.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic, WEB_DIR, SHIPPED_DB, TABLEBASES } from './static-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--port');
const port = at >= 0 ? Number(process.argv[at + 1]) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve-web: --port must be an integer from 0 to 65535, got ${process.argv[at + 1]}`);
  process.exit(2);
}
let url;
try {
  ({ url } = await serveStatic(WEB_DIR, { port, extra: { ...SHIPPED_DB, ...TABLEBASES } }));
} catch (error) {
  const why = { EADDRINUSE: 'is busy (another program listens on it)', EACCES: 'needs privileges' }[error.code];
  const free = await freePortAfter(port);
  console.error(
    `serve-web: port ${port} ${why ?? `cannot be used (${error.code ?? error.message})`}: npm run web -- --port ${free}`,
  );
  process.exit(2);
}
// the requests wait while the stale outputs are rebuilt
execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'wasm', 'js', 'web', '--stale'], { stdio: 'inherit' });
console.log(`krieg web app: ${url}  (perft demo: ${url}perft.html; Ctrl-C stops)`);

/** The first port above `port` that 127.0.0.1 can listen on (0, any free port, if none of the next 100). */
async function freePortAfter(port) {
  const free = (p) =>
    new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (let p = Math.max(port + 1, 1024); p <= Math.min(port + 100, 65535); p++) if (await free(p)) return p;
  return 0;
}
