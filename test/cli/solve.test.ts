// `krieg solve` and `krieg verify` through the built CLI: proven and disproven answers with their
// strategies, the strategy file checked by the verifier (and a problem it does not cover rejected),
// --belief-table (same answer, its hits reported), a problem from a game view (its belief estimated
// first), the limits (unknown, exit 4, memory never past the cap), and bad input (exit 2, one line).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';
import { bigProblemsFile } from '../lib/bigProblem';
import { optionWithoutValue } from '../../host/io/args';

let DIR = '';
const krieg = (args: string[]) => runKrieg(args, DIR);

// K+R v K, Black's king on h8 or f8, White's king g6: Ra1-e1 (silent in both), any reply, Re8
// mates (worked in the README's strategy example). With the king also possibly on e8, Re1 checks
// there ("check (File)"), a branch the two-position strategy lacks.
const ROOK = ['7k/8/6K1/8/8/8/8/R7 w - - 0 1', '5k2/8/6K1/8/8/8/8/R7 w - - 0 1'];
const ROOK3 = [...ROOK, '4k3/8/6K1/8/8/8/8/R7 w - - 0 1'];
const PROBLEMS = 'problems.json';
/** A 3-ply near-miss on which dfs meets belief states again (test/solver/incremental.test.ts). */
const SET_3PLY = fileURLToPath(new URL('../data/problems/set-3ply.json', import.meta.url));

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-solve-'));
  writeFileSync(
    join(DIR, PROBLEMS),
    JSON.stringify({
      format: 'krieg-problems',
      version: 1,
      problems: [
        { id: 'rook-two', rules: 'berkeley', ply: 3, positions: ROOK },
        { id: 'rook-three-deep', rules: 'berkeley', ply: 7, positions: ROOK3 },
      ],
    }),
  );
  const header = (filtered: string) =>
    `[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "berkeley"]\n[Filtered "${filtered}"]\n\n`;
  writeFileSync(join(DIR, 'two.kpgn'), `${header('no')}1. e2e4 {,:}\n1... e7e5 {,:}\n*\n`);
  writeFileSync(join(DIR, 'one.kpgn'), `${header('no')}1. e2e4 {,:}\n*\n`);
  writeFileSync(join(DIR, 'bad.kpgn'), `${header('white')}1. e2e4 {,:}\n1... ?? {e4,:0}\n*\n`);
});

afterAll(async () => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg solve', () => {
  it('proves a mate, prints the strategy, and writes it for the verifier', async () => {
    const run = await krieg(['solve', '--positions', ...ROOK, '--ply', '3', '--out', 's.json']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/answer: proven/);
    expect(run.stdout).toMatch(/try a1e1[\s\S]*try e1e8[\s\S]*checkmate: won/);
    expect(run.stdout).toMatch(
      /search: auto \([^)]+\), answered by [a-z-]+, \d+ belief nodes, \d+ positions generated/,
    );
    const verified = await krieg(['verify', '-', 's.json', '--positions', ...ROOK]);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/verified: the strategy mates in all 2 positions/);
  });

  it('the verifier rejects the strategy on a belief it does not cover (exit 5, the failing line)', async () => {
    await krieg(['solve', '--positions', ...ROOK, '--ply', '3', '--out', 's2.json']);
    const run = await krieg(['verify', '-', 's2.json', '--positions', ...ROOK3]);
    expect(run.status).toBe(5);
    expect(run.stdout).toMatch(/FAILED in position 3 \(4k3\/8\/6K1\/8\/8\/8\/8\/R7 w - - 0 1\)/);
    expect(run.stdout).toMatch(/no branch for "check \(File\)" after a1e1/);
    const json = JSON.parse((await krieg(['verify', '-', 's2.json', '--positions', ...ROOK3, '--json'])).stdout);
    expect(json).toMatchObject({ ok: false, position: 3, path: ['try a1e1'] });
  });

  it('every algorithm (and the udb alias) gives the same answer; JSON carries the strategy', async () => {
    for (const algo of ['dfs', 'l-dfs', 'gl-dfs', 'gx-dfs', 'le-dfs', 'udb', 'pns', 'e-pns']) {
      // a two-position problem: --memory 16, since the default budget's arenas (256 MiB, made
      // whole before the search) took most of each run's time
      const run = await krieg(['solve', PROBLEMS, '--problem', 'rook-two', '--algo', algo, '--json', '--memory', '16']);
      expect(run.status, run.stderr).toBe(0);
      const doc = JSON.parse(run.stdout);
      expect(doc).toMatchObject({
        answer: 'proven',
        ply: 3,
        positions: 2,
        algorithm: algo === 'udb' ? 'le-dfs' : algo,
      });
      expect(doc.strategy).toMatchObject({ format: 'krieg-strategy', version: 1, side: 'white', ply: 3 });
      expect(doc.stats.nodes).toBeGreaterThan(0);
    }
  });

  it('--belief-table keeps the answer and reports its hits', async () => {
    const args = ['solve', SET_3PLY, '--problem', '3-krrk-s205118592-p4', '--algo', 'dfs'];
    const plain = JSON.parse((await krieg([...args, '--json'])).stdout);
    const tabled = JSON.parse((await krieg([...args, '--belief-table', '--json'])).stdout);
    expect(plain).toMatchObject({ answer: 'disproven', stats: { beliefTableHits: 0 } });
    expect(tabled).toMatchObject({ answer: 'disproven' });
    expect(tabled.stats.beliefTableHits).toBeGreaterThan(0);
    expect(tabled.stats.nodes).toBeLessThan(plain.stats.nodes);
    expect((await krieg([...args, '--belief-table'])).stdout).toMatch(
      /search: dfs, \d+ belief nodes, \d+ positions generated, \d+ belief-table hits/,
    );
  });

  it('answers disproven for the belief at the end of a game view (20 positions after 1. e4 e5)', async () => {
    // on both backends: the JS core runs one engine at a time, so the command must use only one
    for (const backend of ['wasm', 'js']) {
      const run = await krieg(['solve', 'two.kpgn', '--as', 'white', '--ply', '3', '--backend', backend]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^problem: two\.kpgn, game 1, white's belief, 20 positions, White to move$/m);
      expect(run.stdout.match(/20 positions/g), 'the belief size is printed once').toHaveLength(1);
      expect(run.stdout).toMatch(/answer: disproven/);
    }
  });

  it('a node limit answers unknown with statistics and exit 4', async () => {
    const run = await krieg([
      'solve',
      PROBLEMS,
      '--problem',
      'rook-three-deep',
      '--algo',
      'dfs',
      '--limit-nodes',
      '500',
    ]);
    expect(run.status).toBe(4);
    expect(run.stdout).toMatch(/answer: unknown — stopped by the node limit of 500/);
    expect(run.stdout).toMatch(/search: dfs, \d+ belief nodes/);
    expect(expectOneLine(run, 4)).toMatch(/limit reached: node limit of 500/);
  });

  it('a memory cap answers unknown, and the arenas never grow past it', async () => {
    const run = await krieg([
      'solve',
      PROBLEMS,
      '--problem',
      'rook-three-deep',
      '--algo',
      'pns',
      '--memory',
      '1',
      '--json',
    ]);
    expect(run.status).toBe(4);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ answer: 'unknown', limit: 'memory' });
    expect(doc.stats.peakBytes).toBeGreaterThan(0.5 * 2 ** 20);
    expect(doc.stats.peakBytes).toBeLessThanOrEqual(2 ** 20);
  });

  it('a time limit answers unknown', async () => {
    const run = await krieg([
      'solve',
      PROBLEMS,
      '--problem',
      'rook-three-deep',
      '--algo',
      'dfs',
      '--limit-time',
      '0.2',
      '--json',
    ]);
    expect(run.status).toBe(4);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: 'unknown', limit: 'time' });
  });

  it('a time limit bounds a belief state of 100,000 positions, on both backends (issue 38: minutes, no output)', async () => {
    writeFileSync(join(DIR, 'big.json'), bigProblemsFile(100_000));
    for (const backend of ['wasm', 'js']) {
      const started = performance.now();
      const run = await krieg(['solve', 'big.json', '--problem', 'big', '--limit-time', '5', '--backend', backend]);
      // about 6 s on a quiet machine (when the memory budget runs out first, sooner); generous for a loaded one
      expect((performance.now() - started) / 1000, backend).toBeLessThan(30);
      expect(run.status, backend).toBe(4);
      expect(run.stdout, backend).toMatch(/^problem: big\.json, problem big, 100000 positions, White to move$/m);
      expect(run.stdout, backend).toMatch(/^answer: unknown — stopped by (the time limit of 5 s|the memory limit)/m);
    }
  });

  it('an option given without a value is refused in one line naming it (exit 2), in every command', async () => {
    // --algo alone meant auto, --strategy alone text (their defaults), --out alone '' (": cannot write it")
    for (const option of [
      '--algo',
      '--strategy',
      '--out',
      '--problem',
      '--limit-time',
      '--limit-nodes',
      '--memory',
      '--ply',
    ]) {
      for (const args of [
        ['solve', PROBLEMS, option],
        ['solve', PROBLEMS, option, '--json'],
      ]) {
        const line = expectOneLine(await krieg(args), 2);
        expect(line, args.join(' ')).toBe(`krieg: solve: ${option} needs a value; run 'krieg solve --help' for usage`);
      }
    }
    expect(expectOneLine(await krieg(['solve', '--positions']), 2)).toMatch(/solve: --positions needs a value/);
    expect(expectOneLine(await krieg(['db', 'show', '4', '--db']), 2)).toMatch(/^krieg: db show: --db needs a value;/);
    expect(expectOneLine(await krieg(['verify', PROBLEMS, 's.json', '--ply']), 2)).toMatch(
      /verify: --ply needs a value/,
    );
    // a value that is a negative number, or given with '=', is a value; flags take none
    const ok = await krieg(['solve', '--positions=' + ROOK[0], '--ply=1', '--algo=dfs', '--json', '--quiet']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(expectOneLine(await krieg(['solve', PROBLEMS, '--ply', '-3']), 2)).toMatch(/ply must be .*, got '-3'/);
    // the reading itself (host/io/args.ts), as yargs reads the words
    const takes = (name: string) => ['algo', 'limit-time', 'k'].includes(name);
    expect(optionWithoutValue(['solve', 'x', '--limitTime'], takes)).toBe('limit-time');
    expect(optionWithoutValue(['belief', 'x', '-k', '--json'], takes)).toBe('k');
    expect(optionWithoutValue(['solve', '--algo=', '--json', '--limit-time', '.5', '-k', '-1'], takes)).toBeUndefined();
    expect(optionWithoutValue(['solve', '--', '--algo'], takes)).toBeUndefined();
  });

  it('an inconsistent view exits 3', async () => {
    expectOneLine(await krieg(['solve', 'bad.kpgn', '--ply', '3']), 3);
  });

  it('bad input: one line, exit 2, nothing written', async () => {
    const cases: [string[], RegExp][] = [
      [['solve', '--positions', ...ROOK, '--algo', 'nope'], /unknown algorithm 'nope'/],
      [['solve', '--positions', 'not a fen', '--ply', '3'], /position 1 \(not a fen\)/],
      [['solve', '--positions', ROOK[0], '7k/8/6K1/8/8/8/8/R7 b - - 0 1'], /a belief state has one side to move/],
      [['solve', '--positions', ...ROOK, '--ply', '0'], /ply must be an integer from 1 to 99/],
      [
        ['solve', '--positions', ROOK[0], '6k1/8/5K2/8/8/8/8/R7 w - - 0 1'],
        /position 2 .*white's own pieces or castling rights differ from position 1's/,
      ],
      [['solve', PROBLEMS, '--positions', ...ROOK], /either a FILE or --positions/],
      [['solve', PROBLEMS, '--problem', 'missing'], /no problem with id 'missing'/],
      [['solve', 'one.kpgn', '--as', 'white', '--ply', '3'], /ends with black to move/],
      [['solve'], /give a problem FILE/],
      [['solve', 'nowhere.json'], /nowhere.json: no such file/],
      [['verify', PROBLEMS, 'nowhere.json'], /nowhere.json: no such file/],
      [['solve', '--positions', ...ROOK, '--out', 'never.json', '--memory', '0'], /memory must be an integer/],
    ];
    for (const [args, message] of cases) expect(expectOneLine(await krieg(args), 2)).toMatch(message);
    expect(existsSync(join(DIR, 'never.json'))).toBe(false);
    writeFileSync(join(DIR, 'v2.json'), JSON.stringify({ format: 'krieg-problems', version: 2, problems: [] }));
    expect(expectOneLine(await krieg(['solve', 'v2.json']), 2)).toMatch(/unsupported version 2/);
    writeFileSync(
      join(DIR, 'broken.json'),
      '{"format": "krieg-strategy", "version": 1, "side": "white", "ply": 3, "strategy": {"attempt": "z9z9", "answers": []}}',
    );
    expect(expectOneLine(await krieg(['verify', PROBLEMS, 'broken.json']), 2)).toMatch(
      /broken.json: \$\.strategy\.attempt: expected an attempt/,
    );
    writeFileSync(join(DIR, 'notjson.json'), '{');
    expect(expectOneLine(await krieg(['verify', PROBLEMS, 'notjson.json']), 2)).toMatch(/not JSON/);
    expect(readFileSync(join(DIR, PROBLEMS), 'utf8')).toMatch(/rook-two/);
  });
});
