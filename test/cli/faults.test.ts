// The fault classes of issue #18 §7, each as a seeded regression test: inputs mutated in the test
// from a seed (a fixed generator, so a failure replays), on both backends where the core reads
// them. Every case must end in one line on stderr and exit 2 (or 4 for a limit), never exit 1.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';
import { createEngine } from '../../host/node';
import { estimateBelief } from '../../host/belief/estimate';
import { viewInFile } from '../../host/referee/validate';
import { solveView } from '../../host/solver/solve';
import { KriegError } from '../../host/errors';
import initSqlJs from 'sql.js';
import { createRequire } from 'node:module';

let DIR = '';
const krieg = (args: string[]) => runKrieg(args, DIR);
const at = (file: string) => join(DIR, file);
const ROOK = '7k/8/6K1/8/8/8/8/R7 w - - 0 1';

/** mulberry32: a small seeded generator, so every mutated input replays from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const between = (next: () => number, lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-faults-'));
  for (const [out, seed, plies] of [
    ['long.kpgn', '11', '40'],
    ['short.kpgn', '5', '6'],
  ]) {
    const play = await krieg(['play', '--games', '1', '--seed', seed, '--max-plies', plies, '--out', out]);
    expect(play.status, play.stderr).toBe(0);
  }
  const solved = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--out', 'rook.json']);
  expect(solved.status, solved.stderr).toBe(0);
  const view = await krieg(['view', 'short.kpgn', '--as', 'white', '--format', 'json']);
  writeFileSync(at('view.json'), view.stdout);
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('F1: limits cover the estimation of solve and verify', () => {
  it('verify --limit-time stops the estimation of a game file (exit 4)', async () => {
    const run = await krieg([
      'verify',
      'long.kpgn',
      'rook.json',
      '--as',
      'white',
      '--limit-belief',
      '1000000',
      '--limit-time',
      '0.2',
    ]);
    expect(expectOneLine(run, 4)).toMatch(/estimating white's belief reached the time limit of 0\.2 s/);
  });
});

describe('F2: deeply nested JSON', () => {
  it('is refused in one line, exit 2, for records, problems and strategies', async () => {
    const next = random(2);
    for (let i = 0; i < 12; i++) {
      const depth = between(next, 101, 30_000);
      const open = next() < 0.5 ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      const doc = open.repeat(depth) + '0' + close.repeat(depth);
      writeFileSync(at('deep.json'), doc);
      expectOneLine(await krieg(['view', 'deep.json', '--as', 'white']), 2);
      expectOneLine(await krieg(['belief', 'deep.json', '--as', 'white']), 2);
      writeFileSync(at('deep-problems.json'), `{"format":"krieg-problems","problems":${doc}}`);
      expectOneLine(await krieg(['solve', 'deep-problems.json']), 2);
      const strategy = '{"next":'.repeat(depth * 2) + 'null' + '}'.repeat(depth * 2);
      writeFileSync(at('deep-strategy.json'), strategy);
      expectOneLine(await krieg(['verify', '-', 'deep-strategy.json', '--positions', ROOK]), 2);
    }
  });
});

describe('F3: verify accepts what solve accepts, and names a bad position', () => {
  it('clocks of five or more digits verify; a position the engine refuses is named', async () => {
    const next = random(3);
    for (let i = 0; i < 6; i++) {
      const clock = between(next, 10_000, 2_000_000_000);
      const fen = ROOK.replace(' 0 1', ` ${clock} ${between(next, 1, 2_000_000_000)}`);
      const run = await krieg(['verify', '-', 'rook.json', '--positions', fen]);
      expect(run.status, `${fen}: ${run.stderr}`).toBe(0);
    }
    for (const fen of ['8/8/6K1/8/8/8/8/R7 w - - 0 1', '8/8/8/8/8/8/8/8 w - - 0 1', 'k7/8/K7/8/8/8/8/R6P w - - 0 1']) {
      const run = await krieg(['verify', '-', 'rook.json', '--positions', ROOK, fen]);
      expect(expectOneLine(run, 2)).toMatch(/^krieg: --positions: position 2: /);
    }
  });
});

describe('F4, F13: stored columns of the wrong shape', () => {
  it('are refused in one line naming the database, the instance and the column', async () => {
    const SQL = await initSqlJs({
      locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'),
    });
    const shipped = readFileSync(join(__dirname, '../../data/problems-standard.sqlite'));
    const damages: [string, string][] = [
      ['positions', "'5'"],
      ['positions', "'null'"],
      ['positions', "'[1,2]'"],
      ['positions', "'[]'"],
      ['covered', '\'"x"\''],
      ['covered', "'[99]'"],
      ['work', "'null'"],
      ['ply', '3.5'],
      ['ply', '1e10'],
      ['ply', "'three'"],
      ['belief_size', '-1'],
    ];
    const next = random(4);
    for (let i = 0; i < damages.length; i++) {
      const [column, value] = damages[i];
      const db = new SQL.Database(new Uint8Array(shipped));
      const ids = db.exec('SELECT id FROM instances ORDER BY id LIMIT 20')[0].values.map((v) => Number(v[0]));
      const id = ids[between(next, 0, ids.length - 1)];
      db.run(`UPDATE instances SET ${column} = ${value} WHERE id = ${id}`);
      writeFileSync(at('damaged.sqlite'), db.export());
      db.close();
      for (const command of [
        ['db', 'show', String(id)],
        ['solve', `db:${id}`],
      ]) {
        const line = expectOneLine(await krieg([...command, '--db', 'damaged.sqlite']), 2);
        expect(line, `${column} = ${value}: ${command.join(' ')}`).toMatch(
          new RegExp(`damaged\\.sqlite: instance ${id}: column ${column} must be `),
        );
      }
    }
    const db = new SQL.Database(new Uint8Array(shipped));
    db.run("UPDATE meta SET value = 'null' WHERE key = 'params'");
    writeFileSync(at('damaged.sqlite'), db.export());
    db.close();
    expect(expectOneLine(await krieg(['db', 'generate', '--db', 'damaged.sqlite', '--mates', '1']), 2)).toMatch(
      /damaged\.sqlite: meta 'params' must be a JSON object, found null/,
    );
  });
});

describe('F5: --memory', () => {
  it('beyond what the core can hold is refused in one line; the largest allowed runs', async () => {
    const next = random(5);
    for (let i = 0; i < 5; i++) {
      const mib = between(next, 2049, 10_000_000);
      const run = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--memory', String(mib)]);
      expect(expectOneLine(run, 2)).toMatch(/memory must be an integer from 1 to 2048/);
    }
    const largest = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--memory', '2048']);
    expect(largest.status, largest.stderr).toBe(0);
  });
});

describe('F6: files that cannot be read or written', () => {
  it('an --out path through a regular file, and an input too large to read, exit 2', async () => {
    const run = await krieg(['belief', 'short.kpgn', '--as', 'white', '--out', 'short.kpgn/heat.svg']);
    expect(expectOneLine(run, 2)).toMatch(
      /short\.kpgn\/heat\.svg: cannot write it \(a part of the path is not a directory\)/,
    );
    writeFileSync(at('huge.kpgn'), '');
    truncateSync(at('huge.kpgn'), 65 * 2 ** 20); // sparse: the size is checked before any byte is read
    expect(expectOneLine(await krieg(['view', 'huge.kpgn', '--as', 'white']), 2)).toMatch(
      /huge\.kpgn: cannot read it \(65 MiB; krieg reads files up to 64 MiB: split it\)/,
    );
  });
});

describe('F8: one line, whatever the input echoes', () => {
  it('control characters in a FEN are escaped', async () => {
    const next = random(8);
    for (let i = 0; i < 20; i++) {
      const chars = [...ROOK];
      for (let k = between(next, 1, 4); k > 0; k--)
        chars.splice(between(next, 0, chars.length), 0, String.fromCharCode(between(next, 0, 31)));
      const fen = chars.join('');
      for (const command of [
        ['perft', fen, '1'],
        ['moves', fen],
        ['solve', '--positions', fen, '--ply', '1'],
      ]) {
        const run = await krieg(command);
        if (run.status !== 0) expectOneLine(run, 2);
      }
    }
  });
});

describe('F9: messages say where', () => {
  it("a FEN starting with '-' is named, not reported as a missing argument", async () => {
    const line = expectOneLine(await krieg(['perft', `-${ROOK}`, '2']), 2);
    expect(line).toContain(`'-${ROOK}' starts with '-', so it is read as an option, not a FEN`);
  });
});

describe.each(['wasm', 'js'] as const)('F9, F13, F14 on the %s core', (backend) => {
  it('interleaved solving refuses a ply that is not an integer from 1 to 99 (F9, F13)', () => {
    const engine = createEngine(backend, 2);
    const { view } = viewInFile(engine, at('short.kpgn'), 'white', undefined);
    const next = random(13);
    for (const ply of [3.5, 0, 100, 1e10, NaN, between(next, 100, 1e9) + 0.5]) {
      expect(() => solveView(engine, view, ply, 'gl-dbu', { interleave: true }), String(ply)).toThrow(
        /ply must be an integer from 1 to 99/,
      );
    }
  });

  it('view counts past the range are refused, never wrapped to another view (F14)', async () => {
    const next = random(14);
    const doc = JSON.parse(readFileSync(at('view.json'), 'utf8'));
    const opponent = doc.events.findIndex((e: { type: string }) => e.type === 'opponent-move');
    expect(opponent).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 8; i++) {
      const count = i === 0 ? 4294967298 : between(next, 1_000_001, Number.MAX_SAFE_INTEGER);
      doc.events[opponent].illegal = count;
      writeFileSync(at('wrapped.json'), JSON.stringify(doc));
      const run = await krieg(['belief', 'wrapped.json', '--backend', backend]);
      expect(expectOneLine(run, 2)).toMatch(new RegExp(`Illegal count ${count} is out of range`));
      const engine = createEngine(backend, 2);
      const view = { ...viewInFile(engine, at('view.json'), undefined, undefined).view };
      view.events = view.events.map((e, k) => (k === opponent ? { ...e, illegal: count } : e));
      expect(() => estimateBelief(engine, view, 'dfs')).toThrow(KriegError);
    }
    // a count in range but impossible is an inconsistent view (exit 3), as before
    doc.events[opponent].illegal = 99;
    writeFileSync(at('wrapped.json'), JSON.stringify(doc));
    expect((await krieg(['belief', 'wrapped.json', '--backend', backend])).status).toBe(3);
  });
});

describe('F10, F11: what --out may replace', () => {
  it('refuses a read-only file and the input itself, writes through a symlink', async () => {
    writeFileSync(at('locked.json'), 'keep');
    chmodSync(at('locked.json'), 0o444);
    const locked = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--out', 'locked.json']);
    expect(expectOneLine(locked, 2)).toMatch(/locked\.json: cannot write it \(it is read-only\)/);
    expect(readFileSync(at('locked.json'), 'utf8')).toBe('keep');

    writeFileSync(at('problems.json'), readFileSync(join(__dirname, '../data/problems/hand.json')));
    const before = readFileSync(at('problems.json'), 'utf8');
    const own = await krieg(['solve', 'problems.json', '--problem', 'm3-rook-king-probe', '--out', 'problems.json']);
    expect(expectOneLine(own, 2)).toMatch(/--out problems\.json is the problem file itself/);
    expect(readFileSync(at('problems.json'), 'utf8')).toBe(before);

    writeFileSync(at('target.json'), 'old');
    symlinkSync(at('target.json'), at('link.json'));
    const linked = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--out', 'link.json']);
    expect(linked.status, linked.stderr).toBe(0);
    expect(lstatSync(at('link.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(at('target.json'), 'utf8')).format).toBe('krieg-strategy');
  });

  it('removes the temporaries a killed writer left (F11)', async () => {
    // pids far above any pid_max are never running
    const next = random(11);
    const stale = Array.from({ length: 4 }, () => `out.json.${between(next, 5_000_000, 2_000_000_000)}.tmp`);
    for (const file of stale) writeFileSync(at(file), 'half');
    const run = await krieg(['solve', '--positions', ROOK, '--ply', '3', '--out', 'out.json']);
    expect(run.status, run.stderr).toBe(0);
    for (const file of stale) expect(existsSync(at(file)), file).toBe(false);
  });
});
