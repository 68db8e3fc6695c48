// Builds everything `npm install` promises (npm's prepare step: a clone's install and npm pack run
// it; a package installed from the registry or a tarball ships these outputs): the release WASM core
// (asc), the portable JS build of the same assembly/ sources, the library and CLI bundles, the
// browser bundle (esbuild) and the library's type declarations (tsc).
// Usage: node scripts/build.mjs [wasm|js|lib|cli|web|types ...] [--stale]
//   no step named: all of them; --stale: only the outputs older than their inputs (the tests'
//   globalSetup runs this, so a suite never runs a stale build). Under `npm pack` / `npm publish`
//   (npm runs prepare for them too) it is --stale as well: the package is what `npm install` built.
// Every output is written beside its place and renamed over it, so a command started during a
// rebuild reads the old file or the new one, never a half-written one. Steps run as soon as the
// ones they read are done: asc (the WASM core) and tsc (the declarations) are one thread each, so
// one after the other they left a core of a 2-core machine idle for the shorter's length.
import { spawn } from 'node:child_process';
import { mkdirSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (p) => join(root, p);
const args = process.argv.slice(2);
const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
const staleOnly = args.includes('--stale') || packing;
if (packing)
  console.log(`npm ${process.env.npm_command}: packing the build npm install made (only stale outputs are rebuilt)`);
const wanted = new Set(args.filter((a) => !a.startsWith('--')));

// Node bundles leave the npm dependencies out (installed beside the package, each under its own
// licence: chessops, the independent verifier's chess rules, is GPL-3.0-or-later); the JS core is in.
const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  packages: 'external',
};

/** Runs a Node script to its end (its output shown), as a promise: other steps go on meanwhile. */
function runNode(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Writes a file whole: a temporary file beside it, renamed over it (atomic on one file system). */
function writeAtomic(path, contents, mode) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents, mode === undefined ? undefined : { mode });
  renameSync(temporary, path);
}

const copyAtomic = (from, to) => writeAtomic(to, readFileSync(from));

/**
 * Writes a file whole unless it already holds `text`: its time then stays, so a step that reads it
 * stays fresh (build/krieg.d.ts never changes, and a rewrite made the type declarations stale
 * after every build of the JS core: 8 s of tsc for nothing).
 */
function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeAtomic(path, text);
}

/** esbuild, its output files written atomically (a script with a #! line made executable, as esbuild does). */
async function bundle(options) {
  const result = await esbuild.build({ ...options, write: false });
  for (const file of result.outputFiles)
    writeAtomic(file.path, file.contents, file.text.startsWith('#!') ? 0o755 : undefined);
  return result;
}

/** Newest modification time (ms) of a file, or of every file below a directory; 0 if missing. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Oldest modification time of the outputs; 0 if one is missing. */
function oldest(paths) {
  return Math.min(...paths.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
}

async function buildWasm() {
  mkdirSync(at('build'), { recursive: true });
  const outputs = ['build/krieg.wasm', 'build/krieg.wat'].map((p) => [at(p), `${at(p)}.${process.pid}.tmp`]);
  const [[, wasm], [, wat]] = outputs;
  await runNode([
    at('node_modules/assemblyscript/bin/asc.js'),
    '--target',
    'release',
    '--outFile',
    wasm,
    '--textFile',
    wat,
  ]);
  for (const [path, temporary] of outputs) renameSync(temporary, path);
}

async function buildJs() {
  // The portable core as a factory: the prelude (i32(), ctz(), unchecked() … as globals, guarded
  // to run once) at module level; the assembly/ sources as an IIFE inside createPortableCore(), so
  // every call makes a core with its own module-level state (arenas, tables, games) — JS engines
  // side by side, as WASM instances are.
  const iife = {
    bundle: true,
    platform: 'neutral',
    target: 'es2022',
    format: 'iife',
    logLevel: 'warning',
    write: false,
  };
  const prelude = await esbuild.build({
    ...iife,
    entryPoints: [at('node_modules/assemblyscript/std/portable/index.js')],
  });
  const core = await esbuild.build({ ...iife, entryPoints: [at('assembly/index.ts')], globalName: '__kriegCore' });
  mkdirSync(at('build'), { recursive: true });
  writeAtomic(
    at('build/krieg.js'),
    [
      '// GENERATED by scripts/build.mjs from assembly/ (AssemblyScript portable mode): do not edit.',
      prelude.outputFiles[0].text,
      '/** A fresh instance of the core: its own arenas, tables and game state. */',
      'export function createPortableCore() {',
      core.outputFiles[0].text,
      // a plain object: esbuild's namespace has a getter per export
      'return Object.assign({}, __kriegCore);',
      '}',
      '',
    ].join('\n'),
  );
  writeIfChanged(
    at('build/krieg.d.ts'),
    [
      '// GENERATED by scripts/build.mjs: the type of build/krieg.js.',
      "import type { CoreExports } from '../host/abi';",
      '/** A fresh instance of the core: its own arenas, tables and game state. */',
      'export declare function createPortableCore(): CoreExports;',
      '',
    ].join('\n'),
  );
}

async function buildLib() {
  await bundle({ ...node, entryPoints: [at('host/node.ts')], outfile: at('dist/krieg.js') });
}

async function buildTypes() {
  // emitted into a directory of its own, then swapped in whole
  const types = at('dist/types');
  const fresh = `${types}.${process.pid}.tmp`;
  rmSync(fresh, { recursive: true, force: true });
  await runNode([at('node_modules/typescript/bin/tsc'), '-p', at('tsconfig.types.json'), '--outDir', fresh]);
  // Node's ESM resolution (a consumer's moduleResolution node16/nodenext) needs file extensions:
  // './engine' becomes './engine.js', which TypeScript reads as ./engine.d.ts
  const withExtension = (file, spec) => {
    const base = join(dirname(file), spec);
    if (existsSync(`${base}.d.ts`)) return `${spec}.js`;
    if (existsSync(join(base, 'index.d.ts'))) return `${spec}/index.js`;
    return spec;
  };
  const walk = (dir) =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
    );
  for (const file of walk(fresh).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(
      /(from\s+|import\()(['"])(\.{1,2}\/[^'"]+?)\2/g,
      (whole, lead, quote, spec) => `${lead}${quote}${withExtension(file, spec)}${quote}`,
    );
    if (fixed !== text) writeFileSync(file, fixed);
  }
  const old = `${types}.${process.pid}.old`;
  if (existsSync(types)) renameSync(types, old);
  renameSync(fresh, types);
  rmSync(old, { recursive: true, force: true });
}

async function buildCli() {
  const banner =
    'import { createRequire as __krieg_createRequire } from "node:module"; const require = __krieg_createRequire(import.meta.url);';
  await bundle({
    ...node,
    entryPoints: [at('host/cli/main.ts')],
    outfile: at('dist/cli.js'),
    banner: { js: `#!/usr/bin/env node\n${banner}` },
  });
  // the worker pool's worker thread (host/pool/pool.ts starts it from the CLI and the library alike)
  await bundle({
    ...node,
    entryPoints: [at('host/worker.ts')],
    outfile: at('dist/worker.js'),
    banner: { js: banner },
  });
}

// The web bundles import nothing from Node (scripts/check-layers.mjs keeps Node-only code at the
// edges), so a node: import reaching them fails their build here.
async function buildWeb() {
  mkdirSync(at('dist/web/vendor'), { recursive: true });
  const browser = {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    loader: { '.wasm': 'binary' },
    minify: true,
  };
  // the library bundle (package export ./browser) and the perft page
  await bundle({
    ...browser,
    minify: false,
    format: 'esm',
    entryPoints: [at('host/web/main.ts')],
    outfile: at('dist/web/krieg.js'),
  });
  // the same as a classic script for perft.html: browsers refuse module scripts from file:// (CORS), not
  // classic ones, so the page works opened from disk
  await bundle({
    ...browser,
    minify: false,
    format: 'iife',
    entryPoints: [at('host/web/main.ts')],
    outfile: at('dist/web/krieg.page.js'),
  });
  copyAtomic(at('host/web/perft.html'), at('dist/web/perft.html'));
  // the app: its workers' script (engine, players, solver, and the WASM core's bytes) is worker.js,
  // which index.html's head starts as the game's worker by its URL before the page's script has
  // loaded, so that the browser fetches it while the page is parsed and the page's thread never
  // holds its text (docs/web.md, Start-up); opened from disk (file://), where a page may not start
  // a worker from a file, the page loads worker-source.js, the same script as text, and starts its
  // workers from a Blob. The page's script is classic, so the page opens from file:// as from any
  // host.
  // The JS core is not part of the workers' script: it is text of its own in portable.js, a classic
  // script the page loads only when the JS backend is chosen (so that the page does not download
  // and parse it before the first game: 39 KB compressed of 141) and hands a worker (a Blob again),
  // so that a WASM worker does not parse it as it starts (about 50 ms of a worker's start-up). The
  // worker's JS backend finds it as the global __kriegPortable its script defines.
  const portable = await esbuild.build({
    ...browser,
    format: 'iife',
    globalName: '__kriegPortable',
    entryPoints: [at('build/krieg.js')],
    write: false,
  });
  const portableGlobal = {
    name: 'portable-core-global',
    setup(build) {
      build.onResolve({ filter: /\/build\/krieg\.js$/ }, () => ({ path: 'portable', namespace: 'krieg-portable' }));
      build.onLoad({ filter: /.*/, namespace: 'krieg-portable' }, () => ({
        contents: 'export const createPortableCore = () => self.__kriegPortable.createPortableCore();',
      }));
    },
  };
  const worker = await esbuild.build({
    ...browser,
    format: 'iife',
    entryPoints: [at('host/web/worker.ts')],
    plugins: [portableGlobal],
    banner: { js: "performance.mark('krieg-worker-script');" }, // the worker's start-up (worker.ts)
    write: false,
  });
  await bundle({
    ...browser,
    format: 'iife',
    entryPoints: [at('host/web/entry.ts')],
    outfile: at('dist/web/app.js'),
  });
  writeAtomic(
    at('dist/web/portable.js'),
    `// krieg's JS core, as text for a worker (host/web/app/engineWorker.ts loads this on the JS backend).\nglobalThis.kriegPortableCore = ${JSON.stringify(portable.outputFiles[0].text)};\n`,
  );
  const workerSource = worker.outputFiles[0].text;
  writeAtomic(at('dist/web/worker.js'), workerSource);
  writeAtomic(
    at('dist/web/worker-source.js'),
    `// krieg's workers' script (worker.js) as text, for a page opened from disk (host/web/app/engineWorker.ts).\nglobalThis.kriegWorkerSource = ${JSON.stringify(workerSource)};\n`,
  );
  // the page, with its stylesheet inlined (minified), which as a file of its own was one more
  // request before the first layout, that the page's script waited for (bench:web, docs/web.md Start-up)
  const html = readFileSync(at('host/web/index.html'), 'utf8');
  const link = '<link rel="stylesheet" href="app.css" />';
  if (html.split(link).length !== 2) throw new Error(`host/web/index.html: one ${link} expected (the build fills it)`);
  const css = await esbuild.transform(readFileSync(at('host/web/app.css'), 'utf8'), { loader: 'css', minify: true });
  writeAtomic(
    at('dist/web/index.html'),
    html.replace(link, () => `<style>${css.code.trim()}</style>`),
  );
  rmSync(at('dist/web/app.css'), { force: true });
  // sql.js (MIT), loaded by the page only when a problem database is opened
  copyAtomic(at('node_modules/sql.js/dist/sql-wasm-inline.js'), at('dist/web/vendor/sql-wasm-inline.js'));
}

// each step after the ones it reads (`after`): the CLI and the web bundle include the JS core, the
// web bundle the WASM, the declarations build/krieg.d.ts
const STEPS = [
  { name: 'wasm', outputs: ['build/krieg.wasm'], inputs: ['assembly', 'asconfig.json'], run: buildWasm },
  // build/krieg.d.ts, written only when its text changes, must exist but may be older than its inputs
  { name: 'js', outputs: ['build/krieg.js'], present: ['build/krieg.d.ts'], inputs: ['assembly'], run: buildJs },
  { name: 'lib', after: ['js'], outputs: ['dist/krieg.js'], inputs: ['host', 'build/krieg.js'], run: buildLib },
  {
    name: 'cli',
    after: ['js'],
    outputs: ['dist/cli.js', 'dist/worker.js'],
    inputs: ['host', 'build/krieg.js'],
    run: buildCli,
  },
  {
    name: 'web',
    after: ['js', 'wasm'],
    outputs: [
      'dist/web/krieg.js',
      'dist/web/krieg.page.js',
      'dist/web/perft.html',
      'dist/web/app.js',
      'dist/web/portable.js',
      'dist/web/worker.js',
      'dist/web/worker-source.js',
      'dist/web/index.html',
    ],
    inputs: ['host', 'build/krieg.js', 'build/krieg.wasm'],
    run: buildWeb,
  },
  {
    name: 'types',
    after: ['js'],
    outputs: ['dist/types/node.d.ts', 'dist/types/web/main.d.ts'],
    inputs: ['host', 'build/krieg.d.ts', 'tsconfig.types.json', 'tsconfig.json'],
    run: buildTypes,
  },
];

/** Builds one step (when wanted, and with --stale when older than its inputs), once the steps it reads are done. */
const done = new Map();
function build(step) {
  if (!done.has(step.name))
    done.set(
      step.name,
      (async () => {
        await Promise.all((step.after ?? []).map((name) => build(STEPS.find((s) => s.name === name))));
        if (wanted.size > 0 && !wanted.has(step.name)) return;
        const inputs = [...step.inputs, 'scripts/build.mjs'].map(at);
        const present = (step.present ?? []).every((p) => existsSync(at(p)));
        if (staleOnly && present && oldest(step.outputs.map(at)) >= Math.max(...inputs.map(newest))) return;
        const t0 = performance.now();
        await step.run();
        console.log(
          `built ${[...step.outputs, ...(step.present ?? [])].join(', ')} (${Math.round(performance.now() - t0)} ms)`,
        );
      })(),
    );
  return done.get(step.name);
}

await Promise.all(STEPS.map(build));
