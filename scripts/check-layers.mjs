// Fails on an import that goes up a layer, a cycle, or a Node import below the edges (CONTRIBUTING.md
// "Where things go"; run by npm test):
//   assembly/: chess ← referee ← belief ← solver, players; index.ts (the ABI) above them all;
//   host/: errors.ts, constants.ts ← record/ ← notation/ ← the core's facades (abi.ts, backends/,
//     engine.ts, core/) ← the domain modules, each folder a rank of its own: io/ ← pool/ ← referee/
//     ← belief/ ← solver/ ← verify/ ← players/ ← db/ ← sources/ (where problems come from) ← entry
//     points (cli/, web/, node.ts, worker.ts). So no two domain folders import each other. The host reaches the core only through its facades: no
//     host file imports assembly/ (host/constants.ts is generated from it), and only the backends
//     and the browser entry import build/.
// Every `import … from` and `export … from` counts, type-only ones too. Also: only host/engine.ts and
// host/core/ (and test/abi.test.ts, which checks the ABI itself) call `core.exports`.
// Node-only code lives at the edges: the folders cli/, io/ (files, logs, the package root) and pool/
// (worker threads), the entries node.ts and worker.ts, and files named node.ts or *.node.ts
// (backends/node.ts makes a core from the WASM file on disk; db/database.node.ts opens files …).
// No other host file imports a Node builtin (node:fs, or a bare fs) or an edge file, so every layer
// the web needs is free of Node. Type-only imports (`import type …`) carry no code and are free.
// Usage: node scripts/check-layers.mjs [--root DIR]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// --root DIR: check another tree (test/checkLayers.test.ts plants violations in one)
const at = process.argv.indexOf('--root');
const root = at >= 0 ? resolve(process.argv[at + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..');

const ASSEMBLY = { chess: 0, referee: 1, belief: 2, solver: 3, players: 3, 'index.ts': 4 };
const HOST = {
  'errors.ts': 0,
  'constants.ts': 0,
  record: 1,
  notation: 2,
  'abi.ts': 3,
  backends: 3,
  'engine.ts': 3,
  core: 3,
  // the domain modules, each folder its own rank: a folder imports only folders before it here
  io: 4,
  pool: 5,
  referee: 6,
  belief: 7,
  solver: 8,
  verify: 9,
  players: 10,
  db: 11,
  sources: 12,
  cli: 13,
  'worker.ts': 13,
  web: 13,
  'node.ts': 13,
};
const HOST_NAMES = [
  'the base (errors, constants)',
  'the record model',
  'notation',
  'the core facades',
  'io/',
  'pool/',
  'referee/',
  'belief/',
  'solver/',
  'verify/',
  'players/',
  'db/',
  'sources/ (where problems come from)',
  'the entry points',
];

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

/** The layer of a file: [tree, rank], or undefined outside the layered trees. */
function layerOf(file) {
  const rel = relative(root, file).split('/');
  const table = rel[0] === 'assembly' ? ASSEMBLY : rel[0] === 'host' ? HOST : undefined;
  if (!table) return undefined;
  const rank = table[rel[1]];
  if (rank === undefined)
    throw new Error(`${relative(root, file)}: not in any layer of scripts/check-layers.mjs (add it)`);
  return [rel[0], rank];
}

const codeOf = (file) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** The module specifiers `file` imports, each with whether the statement is type-only. */
function specifiersOf(file) {
  const text = codeOf(file);
  return [
    ...[...text.matchAll(/^\s*(import|export)\b([^'"`;]*?)from\s*['"]([^'"]+)['"]/gm)].map((m) => ({
      spec: m[3],
      typeOnly: /^\s*type\b/.test(m[2]),
    })),
    ...[...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[1], typeOnly: false })),
    ...[...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => ({
      spec: m[1],
      typeOnly: false,
    })),
  ];
}

/** The file a relative specifier of `file` names. */
function resolved(file, spec) {
  const base = resolve(dirname(file), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), `${base}.d.ts`, `${base}.js`, base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* next */
    }
  }
  return base;
}

function importsOf(file) {
  return specifiersOf(file)
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ spec }) => resolved(file, spec));
}

/** Is `rel` (a path from the root) Node-only code at an edge of the host? */
const atNodeEdge = (rel) =>
  /^host\/(cli|io|pool)\//.test(rel) || /^host\/worker\.ts$/.test(rel) || /(^|\/)node\.ts$|\.node\.ts$/.test(rel);
const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const EDGES = 'cli/, io/, pool/, worker.ts, node.ts and *.node.ts files';

const problems = [];
const graph = new Map();
for (const file of [...files(join(root, 'assembly')), ...files(join(root, 'host'))]) {
  const [tree, rank] = layerOf(file);
  const edges = importsOf(file);
  graph.set(
    file,
    edges.filter((e) => e.endsWith('.ts') && !e.endsWith('.d.ts')),
  );
  for (const target of edges) {
    const name = `${relative(root, file)} imports ${relative(root, target)}`;
    const top = relative(root, target).split('/')[0];
    if (tree === 'host' && top === 'assembly') {
      problems.push(`${name}: the host reaches the core through host/core/ and host/constants.ts only`);
      continue;
    }
    if (top === 'build') {
      const allowed = /^host\/(backends|web)\//.test(relative(root, file));
      if (!allowed) problems.push(`${name}: only host/backends/ and host/web/ load build outputs`);
      continue;
    }
    const layer = layerOf(target);
    if (!layer) continue;
    if (layer[0] !== tree) {
      problems.push(`${name}: across trees`);
      continue;
    }
    if (layer[1] > rank) {
      problems.push(
        tree === 'host'
          ? `${name}: ${HOST_NAMES[rank]} may not import ${HOST_NAMES[layer[1]]}`
          : `${name}: an upward import in the core`,
      );
    }
  }
}

// Node only at the edges: no other host file imports a Node builtin or an edge file (type-only imports aside)
for (const file of files(join(root, 'host'))) {
  const rel = relative(root, file);
  if (atNodeEdge(rel)) continue;
  for (const { spec, typeOnly } of specifiersOf(file)) {
    if (typeOnly) continue;
    if (spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]))
      problems.push(`${rel} imports ${spec}: a Node import below the edges (only ${EDGES} import Node)`);
    else if (spec.startsWith('.')) {
      const target = relative(root, resolved(file, spec));
      if (target.startsWith('host/') && atNodeEdge(target))
        problems.push(
          `${rel} imports ${target}: a Node import below the edges (it is Node-only: only ${EDGES} import it)`,
        );
    }
  }
}

// cycles: depth-first search over the file graph
const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (state.get(next) === 'open')
      problems.push(
        `an import cycle: ${[...stack.slice(stack.indexOf(next)), next].map((f) => relative(root, f)).join(' → ')}`,
      );
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

// the core's exports are called by the facades only
const FACADES = /^(host\/engine\.ts|host\/core\/[^/]+\.ts|test\/abi\.test\.ts|test\/checkLayers\.test\.ts)$/;
for (const dir of ['host', 'test', 'bench', 'scripts']) {
  for (const file of files(join(root, dir))) {
    const rel = relative(root, file);
    if (!FACADES.test(rel) && /\bcore\.exports\b/.test(readFileSync(file, 'utf8')))
      problems.push(`${rel} calls core.exports: go through host/engine.ts or a facade in host/core/`);
  }
}

if (problems.length) {
  console.error(
    `check-layers: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(
  `check-layers: ${graph.size} files in assembly/ and host/, no upward import, no cycle, Node only at the edges; core.exports only in the facades`,
);
