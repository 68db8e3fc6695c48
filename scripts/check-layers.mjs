// Fails on an import that goes up a layer, or a cycle (CONTRIBUTING.md "Where things go"; run by npm test):
//   assembly/: chess ← referee ← belief ← solver, players; index.ts (the ABI) above them all;
//   host/: errors.ts, constants.ts ← record/ ← notation/ ← the core's facades (abi.ts, backends/,
//     engine.ts, core/) ← the domain modules, each folder a rank of its own: io/ ← pool/ ← referee/
//     ← belief/ ← solver/ ← verify/ ← players/ ← db/ ← sources/ (where problems come from) ← online/
//     (Kriegspiel.org's bot client) ← entry points (cli/, web/, node.ts, worker.ts). So no two domain folders import each other. The host reaches the core only through its facades: no
//     host file imports assembly/ (host/constants.ts is generated from it), and only the backends
//     and the browser entry import build/.
// Every `import … from` and `export … from` counts, type-only ones too. Also: only host/engine.ts and
// host/core/ (and test/abi.test.ts, which checks the ABI itself) call `core.exports`.
// Usage: node scripts/check-layers.mjs [--root DIR]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
  online: 13,
  cli: 14,
  'worker.ts': 14,
  web: 14,
  'node.ts': 14,
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
  'online/ (krieg bot on Kriegspiel.org)',
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

function importsOf(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ].map((m) => m[1]);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const base = resolve(dirname(file), s).replace(/\.js$/, '');
      for (const candidate of [`${base}.ts`, join(base, 'index.ts'), `${base}.d.ts`, `${base}.js`, base]) {
        try {
          if (statSync(candidate).isFile()) return candidate;
        } catch {
          /* next */
        }
      }
      return base;
    });
}

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
  `check-layers: ${graph.size} files in assembly/ and host/, no upward import, no cycle; core.exports only in the facades`,
);
