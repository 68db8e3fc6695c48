// scripts/check-layers.mjs (run by npm test) fails on each rule it states: a planted upward import
// between domain folders, a cycle, the host reaching into assembly/, a call of core.exports outside
// the facades, a Node import below the edges (a Node builtin, or a Node-only file, imported by a
// layer the web needs); a tree that keeps the rules passes.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './lib/cli';

/** Runs the check on a tree of the given files (path → text): its exit code and message. */
function check(tree: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'krieg-layers-'));
  try {
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/check-layers.mjs'), '--root', dir], {
      encoding: 'utf8',
    });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const GOOD = {
  'host/io/files.ts':
    "import { readFileSync } from 'node:fs';\nexport const a = 1;\nexport const read = readFileSync;\n",
  'host/referee/seeds.ts': 'export const s = 1;\n',
  'host/solver/solve.ts': "import { s } from '../referee/seeds';\nexport const b = s;\n",
  'host/db/database.ts': "import { b } from '../solver/solve';\nexport const c = b;\n",
  'host/sources/problems.ts': "import { c } from '../db/database';\nexport const d = c;\n",
  // Node at the edges: a *.node.ts file imports node: and io/; entries import it; a web file takes only its types
  'host/db/database.node.ts':
    "import { createHash } from 'node:crypto';\nimport { read } from '../io/files';\nimport { c } from './database';\nexport type Db = { c: typeof c };\nexport const hash = [createHash, read];\n",
  'host/node.ts': "export { hash } from './db/database.node';\n",
  'host/web/page.ts':
    "import type { Db } from '../db/database.node';\nimport { d } from '../sources/problems';\nexport const page = (db: Db) => [db, d];\n",
  'assembly/chess/position.ts': 'export const e: i32 = 1;\n',
  'assembly/belief/view.ts': "import { e } from '../chess/position';\nexport const f: i32 = e;\n",
};

describe('scripts/check-layers.mjs', () => {
  it('passes a tree that keeps the rules', () => {
    const run = check(GOOD);
    expect(run.status, run.output).toBe(0);
  });

  it.each([
    [
      'a domain folder importing a later one (solver/ → db/)',
      { 'host/solver/solve.ts': "import { c } from '../db/database';\nexport const b = c;\n" },
      /host\/solver\/solve\.ts imports host\/db\/database\.ts: solver\/ may not import db\//,
    ],
    [
      'players/ taking seeds from db/ (the cycle this session broke)',
      {
        'host/players/match.ts': "import { c } from '../db/database';\nexport const m = c;\n",
        'host/db/database.ts': "import { m } from '../players/match';\nexport const c = m;\n",
      },
      /players\/ may not import db\//,
    ],
    [
      'a cycle inside a folder',
      {
        'host/io/a.ts': "import { y } from './b';\nexport const x = y;\n",
        'host/io/b.ts': "import { x } from './a';\nexport const y = x;\n",
      },
      /an import cycle: host\/io\/(a|b)\.ts → host\/io\/(b|a)\.ts → host\/io\/(a|b)\.ts/,
    ],
    [
      'an upward import in the core',
      { 'assembly/chess/position.ts': "import { f } from '../belief/view';\nexport const e: i32 = f;\n" },
      /an upward import in the core/,
    ],
    [
      'the host importing the core',
      { 'host/io/files.ts': "import { e } from '../../assembly/chess/position';\nexport const a = e;\n" },
      /the host reaches the core through host\/core\//,
    ],
    [
      'a Node builtin imported below the edges (solver/ importing node:fs)',
      {
        'host/solver/solve.ts':
          "import { s } from '../referee/seeds';\nimport { statSync } from 'node:fs';\nexport const b = [s, statSync];\n",
      },
      /host\/solver\/solve\.ts imports node:fs: a Node import below the edges/,
    ],
    [
      'a bare Node builtin imported below the edges',
      { 'host/belief/png.ts': "import { deflateSync } from 'zlib';\nexport const png = deflateSync;\n" },
      /host\/belief\/png\.ts imports zlib: a Node import below the edges/,
    ],
    [
      'a Node-only file imported by a layer the web needs (web/ → db/database.node.ts)',
      { 'host/web/page.ts': "import { hash } from '../db/database.node';\nexport const page = hash;\n" },
      /host\/web\/page\.ts imports host\/db\/database\.node\.ts: a Node import below the edges/,
    ],
    [
      'the core made from the WASM file on disk below the edges (players/ → backends/node.ts)',
      {
        'host/backends/node.ts':
          "import { readFileSync } from 'node:fs';\nexport const createCore = () => readFileSync('build/krieg.wasm');\n",
        'host/players/engines.ts':
          "import { createCore } from '../backends/node';\nexport const engine = createCore;\n",
      },
      /host\/players\/engines\.ts imports host\/backends\/node\.ts: a Node import below the edges/,
    ],
    [
      'core.exports outside the facades',
      { 'host/db/database.ts': 'export const c = (core: any) => core.exports.init(1, 1);\n' },
      /host\/db\/database\.ts calls core\.exports/,
    ],
  ])('fails on %s', (_name, planted, message) => {
    const run = check({ ...GOOD, ...planted });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(message);
  });
});
