// Runs a TypeScript entry (a bench script) on Node 20, which cannot run .ts itself: esbuild bundles
// it into .cache/ and the bundle is imported. Usage: node scripts/run-ts.mjs bench/perft.ts [args]
import { dirname, join, basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args…]');
  process.exit(2);
}
const outfile = join(root, '.cache', basename(entry).replace(/\.ts$/, '.mjs'));
await esbuild.build({
  entryPoints: [resolve(entry)],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  packages: 'external',
});
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
