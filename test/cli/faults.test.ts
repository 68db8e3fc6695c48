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
import { viewInFile } from '../../host/sources/problems.node';
import { solveView } from '../../host/solver/solve';
import { KriegError } from '../../host/errors';
import initSqlJs from 'sql.js';
import { createRequire } from 'node:module';
import { damageInside, signAgain } from '../lib/dbDamage';

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

  it('solve and verify --limit-nodes stop the estimation of a game file (exit 4), whatever the clock', async () => {
    const next = random(1);
    for (let i = 0; i < 3; i++) {
      const nodes = String(between(next, 1, 20_000));
      for (const command of [
        ['solve', 'long.kpgn', '--as', 'white', '--limit-time', '0'],
        ['solve', 'long.kpgn', '--as', 'white', '--limit-time', '0', '--algo', 'gl-dbu'],
        ['verify', 'long.kpgn', 'rook.json', '--as', 'white', '--limit-time', '0'],
      ]) {
        const run = await krieg([...command, '--limit-belief', '1000000', '--limit-nodes', nodes]);
        expect(expectOneLine(run, 4), command.join(' ')).toMatch(
          new RegExp(`long\\.kpgn: estimating white's belief reached the node limit of ${nodes} \\(--limit-nodes`),
        );
      }
    }
    // solve --limit-time covers the estimation too
    const timed = await krieg([
      'solve',
      'long.kpgn',
      '--as',
      'white',
      '--limit-belief',
      '1000000',
      '--limit-time',
      '0.2',
    ]);
    expect(expectOneLine(timed, 4)).toMatch(/estimating white's belief reached the time limit of 0\.2 s/);
  });
});

describe.each(['wasm', 'js'] as const)('F1: perft limits on the %s core', (backend) => {
  const BARE_KINGS = '8/8/4k3/8/8/4K3/8/8 w - - 0 1';

  it('--limit-nodes stops a count of hours with the partial count (exit 4), the same on both backends', async () => {
    const next = random(backend === 'wasm' ? 21 : 22);
    for (let i = 0; i < 3; i++) {
      const limit = between(next, 1, 3_000_000);
      const run = await krieg(['perft', BARE_KINGS, '19', '--limit-nodes', String(limit), '--backend', backend]);
      expect(expectOneLine(run, 4)).toMatch(
        new RegExp(
          `^krieg: limit reached: the node limit of ${limit} \\(--limit-nodes\\); the count is partial \\(the first \\d+ of 8 root moves and part of the next\\)$`,
        ),
      );
      const nodes = Number(/^nodes: (\d+) \(partial\)$/m.exec(run.stdout)?.[1]);
      expect(nodes).toBeGreaterThanOrEqual(limit);
      // a prefix of whole subtrees: the same count on the other backend
      const other = await krieg([
        'perft',
        BARE_KINGS,
        '19',
        '--limit-nodes',
        String(limit),
        '--backend',
        backend === 'wasm' ? 'js' : 'wasm',
      ]);
      expect(other.stdout).toContain(`nodes: ${nodes} (partial)`);
    }
  });

  it('--limit-time stops it too; a limit not reached changes nothing', async () => {
    const timed = await krieg(['perft', BARE_KINGS, '19', '--limit-time', '0.3', '--backend', backend]);
    expect(expectOneLine(timed, 4)).toMatch(
      /limit reached: the time limit of 0\.3 s \(--limit-time\); the count is partial/,
    );
    const whole = await krieg(['perft', 'startpos', '4', '--limit-nodes', '197281', '--backend', backend]);
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^nodes: 197281$/m);
  });

  it('--divide with a limit lists whole root moves, each with its full count', async () => {
    const full = await krieg(['perft', 'startpos', '5', '--divide', '--bulk', '--backend', backend]);
    expect(full.status).toBe(0);
    const UCI = /^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$/gm;
    const counts = new Map([...full.stdout.matchAll(UCI)].map((m) => [m[1], m[2]]));
    expect(counts.size).toBe(20);
    const run = await krieg([
      'perft',
      'startpos',
      '5',
      '--divide',
      '--bulk',
      '--limit-nodes',
      '1500000',
      '--backend',
      backend,
    ]);
    expect(expectOneLine(run, 4)).toMatch(/the count is partial \(the \d+ root moves listed of 20\)/);
    const listed = [...run.stdout.matchAll(UCI)];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(20);
    for (const [, move, nodes] of listed) expect(nodes, move).toBe(counts.get(move));
    expect(run.stdout).toMatch(new RegExp(`^moves: ${listed.length} of 20 \\(partial\\)$`, 'm'));
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
      signAgain(db); // as a buggy writer would leave it: well signed, badly shaped
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
    signAgain(db);
    writeFileSync(at('damaged.sqlite'), db.export());
    db.close();
    expect(expectOneLine(await krieg(['db', 'generate', '--db', 'damaged.sqlite', '--mates', '1']), 2)).toMatch(
      /damaged\.sqlite: meta 'params' must be a JSON object, found null/,
    );
  });
});

describe('F7: a byte changed inside a row', () => {
  it('is found on opening: exit 2 naming the database and the row, for readers and a resumed generate', async () => {
    const shipped = readFileSync(join(__dirname, '../../data/problems-standard.sqlite'));
    const SQL = await initSqlJs({
      locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'),
    });
    const db = new SQL.Database(new Uint8Array(shipped));
    const texts = (sql: string) => db.exec(sql)[0].values.map((v) => String(v[0]));
    // texts each stored in one piece: FENs, views, strategies, game records, the parameters
    const stored = [
      ...texts('SELECT positions FROM instances ORDER BY id LIMIT 40'),
      ...texts('SELECT view_kpgn FROM instances ORDER BY id LIMIT 40'),
      ...texts('SELECT strategy FROM instances ORDER BY id LIMIT 40'),
      ...texts('SELECT setup FROM games ORDER BY game LIMIT 40'),
      ...texts("SELECT value FROM meta WHERE key = 'params'"),
    ];
    db.close();
    /** Every row of every table, or undefined when SQLite cannot read the file. */
    const rows = (bytes: Uint8Array) => {
      try {
        const copy = new SQL.Database(bytes);
        const all = ['meta', 'games', 'instances', 'results'].map((t) => copy.exec(`SELECT * FROM ${t}`)[0]?.values);
        copy.close();
        return JSON.stringify(all);
      } catch {
        return undefined;
      }
    };
    const intact = rows(new Uint8Array(shipped));
    const next = random(7);
    let damaged = 0;
    for (let i = 0; damaged < 20 && i < 400; i++) {
      const text = stored[between(next, 0, stored.length - 1)];
      const length = Math.min(text.length, 24);
      const start = between(next, 0, text.length - length);
      const bytes = damageInside(shipped, text.slice(start, start + length), between(next, 0, length - 1));
      // a text's first copy in the file may be a stale one in a page's free space: changing it changes no row
      if (!bytes || rows(bytes) === intact) continue;
      damaged++;
      writeFileSync(at('flipped.sqlite'), bytes);
      for (const command of [
        ['db', 'stats'],
        ['db', 'show', '1'],
        ['solve', 'db:1', '--limit-nodes', '1000'],
        ['db', 'generate', '--start', 'standard', '--mates', '0', '--near-misses', '60'],
      ]) {
        const line = expectOneLine(await krieg([...command, '--db', 'flipped.sqlite']), 2);
        expect(line, command.join(' ')).toMatch(
          /^krieg: flipped\.sqlite: ((instance \d+|game \d+|meta '\w+'): the row does not match its checksum \(the file is damaged\)|the SQLite file (cannot be read|is damaged) .*)$/,
        );
      }
      expect(readFileSync(at('flipped.sqlite')).equals(bytes)).toBe(true);
    }
    expect(damaged).toBe(20);
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

  it("bounds the belief's estimation from a game file too: a belief it cannot hold is a limit (exit 4)", async () => {
    const args = [
      'solve',
      'long.kpgn',
      '--as',
      'white',
      '--limit-belief',
      '1000000',
      '--memory',
      '1',
      '--limit-time',
      '0',
    ];
    expect(expectOneLine(await krieg(args), 4)).toMatch(
      /^krieg: long\.kpgn: white's belief has more than \d+ positions, all the memory budget of 1 MiB holds \(--memory\)$/,
    );
    expect(expectOneLine(await krieg([...args, '--interleave']), 4)).toMatch(
      /^krieg: limit reached: (memory limit \(--memory 1 MiB\)|estimator's room \(--limit-belief 1000000, within --memory 1 MiB\)); the answer is unknown$/,
    );
  });
});

describe.each(['wasm', 'js'] as const)('F5: the memory budget bounds the run on the %s core', (backend) => {
  it("solving a view (estimated first, or streamed) stays within --memory, the estimator's records included", () => {
    for (const [interleave, beliefLimit, mib] of [
      [true, 100_000, 256],
      [false, 10_000, 64],
    ] as const) {
      const engine = createEngine(backend, 2);
      const { view } = viewInFile(engine, at('short.kpgn'), 'white', undefined);
      const result = solveView(engine, view, 3, 'gl-dbu', { interleave, beliefLimit }, { memoryBytes: mib * 2 ** 20 });
      expect(['proven', 'disproven']).toContain(result.answer);
      // the position arena, the estimator's records included, is the budget's share (never grown past it)
      expect(engine.capacity * 128, `interleave ${interleave}`).toBeLessThanOrEqual(0.55 * mib * 2 ** 20);
    }
    // estimated first in a budget too small for the belief: a limit, never an arena grown past it
    const engine = createEngine(backend, 2);
    const { view } = viewInFile(engine, at('long.kpgn'), 'white', undefined);
    expect(() => solveView(engine, view, 3, 'gl-dbu', { beliefLimit: 1_000_000 }, { memoryBytes: 2 ** 20 })).toThrow(
      /^the view: white's belief has more than \d+ positions, all the memory budget of 1 MiB holds/,
    );
    expect(engine.capacity * 128).toBeLessThanOrEqual(0.55 * 2 ** 20);
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
        // a small --memory: solve makes room for its arenas (256 MiB by default) before it reads the
        // FENs, which took most of this test's time; the FEN is read and refused the same way
        ['solve', '--positions', fen, '--ply', '1', '--memory', '16'],
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

describe('F9: a view whose start position the engine refuses', () => {
  it('is refused by every command that reads it, naming the file and the [FEN] line', async () => {
    const view = (await krieg(['view', 'short.kpgn', '--as', 'white'])).stdout;
    const next = random(9);
    const fens = ['8/8/8/8/8/8/8/R7 w - - 0 1', '8/8/8/8/8/8/8/8 w - - 0 1', 'k7/8/K7/8/8/8/8/R6P w - - 0 1'];
    for (let i = 0; i < 6; i++) {
      const fen = fens[between(next, 0, fens.length - 1)];
      writeFileSync(at('bad-start.kpgn'), view.replace('[Filtered "white"]', `[Filtered "white"]\n[FEN "${fen}"]`));
      const line = view.split('\n').indexOf('[Filtered "white"]') + 2;
      for (const command of [
        ['view', 'bad-start.kpgn', '--as', 'white'],
        ['belief', 'bad-start.kpgn'],
        ['infoset', 'bad-start.kpgn', '--count'],
        ['track', 'bad-start.kpgn', '--as', 'white'],
        ['solve', 'bad-start.kpgn', '--as', 'white'],
      ])
        expect(expectOneLine(await krieg(command), 2), command.join(' ')).toMatch(
          new RegExp(`^krieg: bad-start\\.kpgn: line ${line}, column 1: start position: `),
        );
    }
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
