// Builds everything `npm install` promises: the release WASM core (asc), the portable JS build of
// the same assembly/ sources, the CLI bundle and the browser bundle (esbuild).
// Usage: node scripts/build.mjs [wasm|js|cli|web ...]   (no argument: all)
import { execFileSync } from 'node:child_process';
import { mkdirSync, copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (p) => join(root, p);
const wanted = new Set(process.argv.slice(2));
const want = (step) => wanted.size === 0 || wanted.has(step);

function step(name, fn) {
  const t0 = performance.now();
  return Promise.resolve(fn()).then(() => console.log(`built ${name} (${Math.round(performance.now() - t0)} ms)`));
}

const node = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' };

if (want('wasm')) {
  await step('build/krieg.wasm', () => {
    mkdirSync(at('build'), { recursive: true });
    execFileSync(process.execPath, [at('node_modules/assemblyscript/bin/asc.js'), '--target', 'release'], { cwd: root, stdio: 'inherit' });
  });
}
if (want('js')) {
  await step('build/krieg.js', () => esbuild.build({
    ...node, platform: 'neutral', entryPoints: [at('host/backends/portableCore.ts')], outfile: at('build/krieg.js'),
  }));
  // the same as a script that evaluates to a fresh module each time (host/backends/jsInstance.ts:
  // JS engines side by side, one per player)
  await step('build/krieg-core.js', () => esbuild.build({
    ...node, format: 'iife', globalName: 'kriegCore', platform: 'neutral', entryPoints: [at('host/backends/portableCore.ts')], outfile: at('build/krieg-core.js'),
  }));
}
if (want('cli')) {
  await step('dist/cli.js', () => esbuild.build({
    ...node, entryPoints: [at('host/cli/main.ts')], outfile: at('dist/cli.js'),
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __krieg_createRequire } from "node:module"; const require = __krieg_createRequire(import.meta.url);' },
  }));
}
if (want('web') && existsSync(at('host/web/main.ts'))) {
  await step('dist/web', async () => {
    mkdirSync(at('dist/web'), { recursive: true });
    await esbuild.build({
      bundle: true, platform: 'browser', target: 'es2022', format: 'esm', logLevel: 'warning',
      entryPoints: [at('host/web/main.ts')], outfile: at('dist/web/krieg.js'), loader: { '.wasm': 'binary' },
    });
    copyFileSync(at('host/web/index.html'), at('dist/web/index.html'));
  });
}
