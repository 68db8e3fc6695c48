// `krieg db generate` (issue 7): a small database made by self-play through the built CLI, every
// instance re-checked (test/lib/dbCheck.ts); a run killed with SIGKILL mid-generation and resumed
// ends with exactly the database of an uninterrupted run (acceptance 3); a finished database is
// extended with larger targets to the database a run with those targets makes; and a resume with
// other parameters is refused without touching the file; instances solve through `krieg solve
// db:ID` (also streamed from the stored view); `krieg db bench` fills the results table.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, existsSync, copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg, CLI } from '../lib/cli';
import { ProblemDb } from '../../host/db/database.node';
import { createEngine } from '../../host/node';
import { checkInstance, contents } from '../lib/dbCheck';
import { parseKpgn } from '../../host/notation/kpgn';
import { viewOf } from '../../host/record/record';
import { estimateBelief } from '../../host/belief/estimate';
import { classify } from '../../host/db/classify';
import { packageRoot } from '../../host/io/packageRoot';
import { parseRulesJson } from '../../host/record/rules';

let DIR = '';
const at = (name: string) => join(DIR, name);
/**
 * Seed 5 meets 5 mates and 5 near-misses at game 24, the first game with a 5-ply mate (the solve
 * test below takes one of each class at 3 and 5 ply); 8 and 8 took 39 games, made three times here.
 */
const TARGET = '5';
const ARGS = ['--mates', TARGET, '--near-misses', TARGET, '--seed', '5'];

async function committedGames(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  const db = await ProblemDb.open(path);
  try {
    return db.lastGame();
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-dbgen-'));
  const run = await krieg(['db', 'generate', '--db', at('straight.sqlite'), ...ARGS]);
  expect(run.status, run.stderr).toBe(0);
});

afterAll(async () => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg db generate', () => {
  it('meets its targets, and every instance checks out', async () => {
    const { games, instances } = await contents(at('straight.sqlite'));
    const at3 = instances.filter((i) => i.ply === 3);
    expect(at3.filter((i) => i.cls === 'mate').length).toBeGreaterThanOrEqual(Number(TARGET));
    expect(at3.filter((i) => i.cls === 'near-miss').length).toBeGreaterThanOrEqual(Number(TARGET));
    // every 3-ply near-miss was re-analysed at 5 ply (unless a search ran out of nodes)
    const deeper = instances.filter((i) => i.ply === 5);
    expect(deeper.length).toBeGreaterThan(0);
    expect(deeper.every((i) => i.sourceId !== null)).toBe(true);
    expect(games.reduce((a, g) => a + g.instances, 0)).toBe(instances.length);
    // a dropped game: no instance, and White's belief where its record stops is indeed over 10,000
    const dropped = games.filter((g) => g.dropped);
    expect(dropped.length).toBeGreaterThan(0);
    for (const g of dropped) {
      expect(g.instances).toBe(0);
      const parsed = parseKpgn(g.recordKpgn);
      if (parsed.kind !== 'record') throw new Error('a game is stored as a full record');
      const belief = estimateBelief(createEngine('wasm', 1 << 16), viewOf(parsed.record, 'white'), 'bfs', {
        positions: 10_000,
      });
      expect(belief.outcome, `game ${g.game}`).toBe('limit-positions');
    }
    expect(new Set(instances.map((i) => i.key)).size).toBe(instances.length);
    const db = await ProblemDb.open(at('straight.sqlite'));
    const solver = createEngine('wasm');
    const estimator = createEngine('wasm', 1 << 16);
    for (const row of instances) checkInstance(db, solver, estimator, row);
    db.close();
  });

  it('resumes after SIGKILL to exactly the database of an uninterrupted run', async () => {
    const path = at('killed.sqlite');
    const child = spawn(process.execPath, [CLI, 'db', 'generate', '--db', path, ...ARGS], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // kill once a few games are committed, mid-run
    let committed = 0;
    while (committed < 3 && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      committed = await committedGames(path);
    }
    expect(child.exitCode, 'the run finished before it could be killed').toBe(null);
    child.kill('SIGKILL');
    await exited;
    const atKill = await contents(path); // the file is whole: the last committed state
    const straight = await contents(at('straight.sqlite'));
    expect(atKill.games.length).toBeLessThan(straight.games.length);
    expect(atKill.games).toEqual(straight.games.slice(0, atKill.games.length));
    const resumed = await krieg(['db', 'generate', '--db', path, ...ARGS]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(await contents(path)).toEqual(straight);
  });

  it('extends a finished database with larger targets to what one run with them makes', async () => {
    const small = ['--seed', '5', '--near-misses', TARGET];
    // the first run stops at game 18 (its fifth near-miss), the second extends it to game 24
    for (const [file, mates] of [
      ['grown.sqlite', '1'],
      ['grown.sqlite', TARGET],
    ]) {
      const run = await krieg(['db', 'generate', '--db', at(file), '--mates', mates, ...small]);
      expect(run.status, run.stderr).toBe(0);
    }
    expect(await contents(at('grown.sqlite'))).toEqual(await contents(at('straight.sqlite')));
  });

  it('refuses to resume with other parameters, leaving the file untouched', async () => {
    const before = readFileSync(at('straight.sqlite'));
    for (const args of [
      ['--seed', '6'],
      ['--ply', '5', '--reanalyse', '7'],
      ['--variant', 'wild16'],
      ['--start', 'standard'],
      ['--hints', '8'],
      ['--attack', '150'],
      ['--max-plies', '120'],
      ['--oracle-hints', '8'],
    ]) {
      const line = expectOneLine(
        await krieg([
          'db',
          'generate',
          '--db',
          at('straight.sqlite'),
          '--mates',
          TARGET,
          '--near-misses',
          TARGET,
          ...(args[0] === '--seed' ? [] : ['--seed', '5']),
          ...args,
        ]),
        2,
      );
      expect(line).toMatch(/was generated with/);
    }
    expect(readFileSync(at('straight.sqlite')).equals(before)).toBe(true);
  });

  it("White's hints and attack weight are stored parameters and change the games White plays", async () => {
    const run = await krieg([
      'db',
      'generate',
      '--db',
      at('knobs.sqlite'),
      ...ARGS,
      '--max-games',
      '4',
      '--hints',
      '8',
      '--hint-share',
      '0.5',
      '--attack',
      '150',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const knobs = await contents(at('knobs.sqlite'));
    expect(knobs.params).toMatchObject({ hints: { max: 8, share: 0.5 }, attack: 150 });
    const plain = await contents(at('straight.sqlite'));
    expect(plain.params).not.toHaveProperty('hints');
    expect(plain.params).not.toHaveProperty('attack');
    // the same seeds, so the same starting setups; White's choices differ
    const records = (games: { recordKpgn: string }[]) => games.slice(0, 4).map((g) => g.recordKpgn);
    expect(records(knobs.games)).not.toEqual(records(plain.games));
  });

  it('its instances solve through `krieg solve db:ID`, from the belief or streamed from the stored view', async () => {
    const { instances } = await contents(at('straight.sqlite'));
    for (const cls of ['mate', 'near-miss'] as const) {
      for (const ply of [3, 5]) {
        const row = instances.find((i) => i.cls === cls && i.ply === ply)!;
        const expected = cls === 'mate' ? 'proven' : 'disproven';
        for (const extra of [[], ['--interleave']]) {
          const run = await krieg([
            'solve',
            `db:${row.id}`,
            '--db',
            at('straight.sqlite'),
            '--algo',
            'gl-dbu',
            '--json',
            ...extra,
          ]);
          expect(run.status, run.stderr).toBe(0);
          const out = JSON.parse(run.stdout);
          expect([out.answer, out.ply], `db:${row.id} ${extra.join(' ')}`).toEqual([expected, ply]);
        }
      }
    }
  });

  it('`krieg db bench` records each run in the results table, answers agreeing with the classes', async () => {
    const path = at('bench.sqlite');
    copyFileSync(at('straight.sqlite'), path);
    const run = await krieg([
      'db',
      'bench',
      '--db',
      path,
      '--limit',
      '4',
      '--algo',
      'gl-dbu',
      'ipns',
      '--limit-time',
      '20',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const { instances, results } = await contents(path);
    expect(results.map((r) => [r.instanceId, r.algorithm, r.backend])).toEqual(
      instances.slice(0, 4).flatMap((i) => [
        [i.id, 'gl-dbu', 'wasm'],
        [i.id, 'ipns', 'wasm'],
      ]),
    );
    for (const r of results) {
      expect(r.answer).toBe(instances.find((i) => i.id === r.instanceId)!.cls === 'mate' ? 'proven' : 'disproven');
      expect(r.nodes).toBeGreaterThan(0);
      expect(r.limitMs).toBe(20_000);
    }
    expect((await krieg(['db', 'show', String(instances[0].id), '--db', path])).stdout).toMatch(
      /benchmark results:\n.*\ngl-dbu +wasm/,
    );
  });

  it('rejects bad options and unwritable paths with one line, leaving no file behind', async () => {
    expect(
      expectOneLine(await krieg(['db', 'generate', '--db', at('x.sqlite'), '--ply', '3', '--reanalyse', '3']), 2),
    ).toMatch(/deeper/);
    expect(expectOneLine(await krieg(['db', 'generate', '--db', at('x.sqlite'), '--ply', '2']), 2)).toMatch(/odd/);
    expect(expectOneLine(await krieg(['db', 'generate', '--db', at('x.sqlite'), '--mates', 'many']), 2)).toMatch(
      /mates/,
    );
    expect(expectOneLine(await krieg(['db', 'generate', '--db', at('x.sqlite'), '--hint-share', '1.5']), 2)).toMatch(
      /--hint-share must be a number in \(0, 1\], got '1.5'/,
    );
    expect(expectOneLine(await krieg(['db', 'generate', '--db', at('x.sqlite'), '--attack', 'much']), 2)).toMatch(
      /attack/,
    );
    expect(existsSync(at('x.sqlite'))).toBe(false);
    expect(expectOneLine(await krieg(['db', 'generate', '--db', at('no/such/dir/x.sqlite')]), 2)).toMatch(
      /cannot write it \(no such directory\)/,
    );
    mkdirSync(at('a-directory'));
    expect(
      expectOneLine(
        await krieg(['db', 'export', '--db', at('straight.sqlite'), '--format', 'json', '--out', at('a-directory')]),
        2,
      ),
    ).toMatch(/cannot write it/);
    expect(readdirSync(DIR).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to save over a file another program changed since it was opened', async () => {
    const path = at('shared.sqlite');
    copyFileSync(at('straight.sqlite'), path);
    const first = await ProblemDb.open(path);
    const second = await ProblemDb.open(path);
    second.transaction(() => second.setMeta('note', 'written by the second'));
    second.close();
    expect(() => first.transaction(() => first.setMeta('note', 'written by the first'))).toThrow(
      /changed by another program/,
    );
    first.close();
    const after = await ProblemDb.open(path);
    expect(after.meta('note')).toBe('written by the second');
    after.close();
  });

  it('a re-analysis whose witness search runs out of nodes is unknown, not an error', async () => {
    // instance 727 of the shipped database: its 5-ply disproof takes about 7,000 nodes, the proof
    // of the covered positions it starts from about 24,000 (found in review)
    const db = await ProblemDb.open(join(packageRoot(), 'data/problems.sqlite'));
    const deeper = db.instance(727)!;
    const source = db.instance(deeper.sourceId!)!;
    db.close();
    const problem = { rules: parseRulesJson(deeper.rulesJson), ply: 5, positions: deeper.positions };
    const c = classify(createEngine('wasm'), problem, { nodes: 10_000, greedyNodes: 400_000 }, source.covered);
    expect(c.cls).toBe('unknown');
  });
});
