// krieg egtb build|probe|stats (issue #35): a small table written beside the test (built around
// the mate in 2 of test/players/egtb.test.ts: Kb6, Rd1 against the king on a8 or c8), read back by
// stats and probe; the strategy a probe writes, which `krieg verify` passes on both squares of the
// king within 3 ply; a probe from a game file (White's view after Ka8-b8: the king known on b8);
// the one-line errors (no table, a full table, a bad ending, table or square); and build's
// checkpoint: one of another build (a small table's, stopped) refused naming the file, before any
// work, and removed by --restart.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { egtbBuild, egtbEntries } from '../../host/core/egtb';
import { egtbTableName } from '../../host/players/egtb';
import { egtbPath, saveTable } from '../../host/players/egtbFile.node';
import { buildTable, BuildStopped } from '../../host/players/egtbBuild.node';
import { partialPath } from '../../host/players/egtbResume.node';
import { GameSession } from '../../host/referee/session';
import { makeRecordKpgn } from '../../host/notation/kpgn/write';
import { parseUci } from '../../host/notation/move';
import { krieg, expectOneLine } from '../lib/cli';

let DIR = '';
const FEN = '8/8/1K6/8/7k/8/8/3R4 w - - 0 1';

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-egtb-'));
  const engine = createEngine('wasm', 16);
  engine.setRules(preset('berkeley'));
  engine.setFen(0, FEN);
  const built = egtbBuild(engine, 'krk', { log2: 12, around: [{ handle: 0, squares: [56, 58] }], depth: 2 });
  const byValue = [...built.byValue];
  byValue[0] = built.states - byValue.reduce((a, b) => a + b, 0);
  saveTable(
    egtbPath(DIR, 'krk', egtbTableName(preset('berkeley'))),
    { ending: 'krk', table: 'dirs-draw', states: built.states, starts: built.starts, longest: built.longest, byValue },
    egtbEntries(engine),
  );
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg egtb', () => {
  it('probe: the value and an attempt, from the table the rules name', async () => {
    let run = await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--fen', FEN, '--squares', 'a8,c8']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^mate in 2 \(attacker moves, the mating move included\): d1d[2-5]\n$/);
    run = await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--fen', FEN, '--squares', 'b8', '--json']);
    expect(JSON.parse(run.stdout)).toEqual({ value: 1, attempt: 'd1d8', inTable: false, bound: false });
    // rand's stalemate rule makes another table, not built here
    run = await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--fen', FEN, '--variant', 'rand']);
    expect(expectOneLine(run, 2)).toMatch(/no krk tablebase for the rules' table dirs-loss/);
  });

  it('probe --strategy: the mate in 2 as a tree that krieg verify passes', async () => {
    const strategy = join(DIR, 'strategy.json');
    let run = await krieg([
      'egtb',
      'probe',
      'krk',
      '--dir',
      DIR,
      '--fen',
      FEN,
      '--squares',
      'a8,c8',
      '--strategy',
      strategy,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const problems = join(DIR, 'problems.json');
    const positions = ['k7/8/1K6/8/8/8/8/3R4 w - - 0 1', '2k5/8/1K6/8/8/8/8/3R4 w - - 0 1'];
    const problem = { id: 'krk', rules: 'berkeley', ply: 3, expect: 'proven', positions };
    writeFileSync(problems, JSON.stringify({ format: 'krieg-problems', version: 1, problems: [problem] }));
    run = await krieg(['verify', problems, strategy]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/verified: the strategy mates in all 2 positions/);
    run = await krieg([
      'egtb',
      'probe',
      'krk',
      '--dir',
      DIR,
      '--fen',
      FEN,
      '--squares',
      'anywhere',
      '--strategy',
      strategy,
    ]);
    expect(expectOneLine(run, 2)).toMatch(/--strategy needs the king's squares/);
  });

  it('probe --view: the squares of the king from the exact belief at the end of a game file', async () => {
    const referee = createEngine('wasm', 16);
    referee.setRules(preset('berkeley'));
    const session = new GameSession(referee, { start: 'k7/8/1K6/8/8/8/8/3R4 b - - 0 1' });
    expect(session.attempt(parseUci('a8b8')!).answer).toBe('legal');
    const game = join(DIR, 'game.kpgn');
    writeFileSync(game, makeRecordKpgn(session.record()));
    const run = await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--view', game, '--as', 'white', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ value: 1, attempt: 'd1d8' });
  });

  it('stats: counts by value, the starts', async () => {
    const run = await krieg(['egtb', 'stats', 'krk', '--dir', DIR, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(stats.startsByValue).toEqual([0, 0, 1]);
    expect(stats.longestStarts[0].state).toBe('Kb6 Rd1, king on a8 c8');
  });

  it('errors are one line: a full table, a bad ending, a bad square, a bad table', async () => {
    expect(expectOneLine(await krieg(['egtb', 'build', 'krk', '--dir', DIR, '--log2', '8']), 2)).toMatch(
      /the tablebase is full/,
    );
    expect(expectOneLine(await krieg(['egtb', 'stats', 'kpk', '--dir', DIR]), 2)).toMatch(
      /not a tablebase ending: 'kpk'/,
    );
    expect(
      expectOneLine(await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--fen', FEN, '--squares', 'z9']), 2),
    ).toMatch(/not a square: 'z9'/);
    expect(
      expectOneLine(await krieg(['egtb', 'probe', 'krk', '--dir', DIR, '--fen', FEN, '--squares', 'd8']), 2),
    ).toMatch(/attacked square/);
    expect(expectOneLine(await krieg(['egtb', 'build', 'all', '--dir', DIR, '--tables', 'dirs-none']), 2)).toMatch(
      /not a tablebase table: 'dirs-none'/,
    );
  });

  it('build: a checkpoint of another build is refused, naming the file; --restart removes it', async () => {
    const dir = join(DIR, 'partial');
    const stopped = () =>
      buildTable({
        ending: 'krk',
        table: 'dirs-draw',
        dir,
        backend: 'wasm',
        log2: 12,
        around: [{ fen: FEN, squares: [56, 58] }],
        depth: 2,
        slice: 10,
        checkpointSeconds: 0,
        stopAfter: 1,
      });
    expect(stopped).toThrow(BuildStopped);
    const partial = partialPath(dir, 'krk', 'dirs-draw');
    expect(existsSync(partial)).toBe(true);
    const refused = expectOneLine(await krieg(['egtb', 'build', 'krk', '--dir', dir]), 2);
    expect(refused).toContain(`${partial}: the checkpoint of another build (log2 12, not 20)`);
    expect(refused).toMatch(/--restart to replace it/);
    // --restart: the checkpoint goes, then this build stops at once (its table is too small)
    const run = await krieg(['egtb', 'build', 'krk', '--dir', dir, '--log2', '9', '--restart']);
    expect(expectOneLine(run, 2)).toMatch(/the tablebase is full/);
    expect(existsSync(partial)).toBe(false);
  });
});
