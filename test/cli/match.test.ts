// `krieg match` (issue 14), in-process (its --jobs workers run the built dist/worker.js): the same
// bytes whatever the number of jobs; a match killed with SIGKILL (the built CLI, spawned) and
// resumed ends with exactly the file of an uninterrupted one (and a game cut short in the file is
// played again); a resume with other options is refused without touching the file; the summary,
// the material graph (written only when asked: --summary, --svg) and the progress line; records
// that `krieg view` reads back.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync, copyFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg, CLI, ROOT, killWhenGames } from '../lib/cli';
import { gamesInProgress, gamesDone } from '../../host/cli/match';
import { runMatch, type MatchParams } from '../../host/players/match.node';
import { parsePlayerSpec } from '../../host/players/registry';
import { preset } from '../../host/record/rules';
import type { GameRecord } from '../../host/record/record';

let DIR = '';
const at = (name: string) => join(DIR, name);
const GAMES = 6;
const ARGS = ['aos', 'random', '--max-plies', '30', '--nodes', '3000', '--seed', '11'];
let reference = '';
let referenceRun = { status: 0 as number | null, stdout: '', stderr: '' };

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-match-'));
  referenceRun = await krieg(
    [
      'match',
      ...ARGS,
      '--games',
      String(GAMES),
      '--jobs',
      '2',
      '--out',
      at('two.kpgn'),
      '--summary',
      at('report.json'),
      '--svg',
      at('graph.svg'),
    ],
    ROOT,
    true,
  );
  expect(referenceRun.status, referenceRun.stderr).toBe(0);
  reference = readFileSync(at('two.kpgn'), 'utf8');
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg match', () => {
  it('plays the games with alternating colours, each a full record krieg view reads back', async () => {
    expect(reference.match(/^\[Event "krieg match"\]$/gm)).toHaveLength(GAMES);
    expect(reference).toMatch(/\[Round "1"\]\n(?:.*\n)*?\[White "aos"\]\n\[Black "random"\]/);
    expect(reference).toMatch(/\[Round "2"\]\n(?:.*\n)*?\[White "random"\]\n\[Black "aos"\]/);
    const view = await krieg(['view', at('two.kpgn'), '--as', 'black', '--game', '2']);
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/\[Filtered "black"\]/);
  });

  it('gives the same bytes with one job as with two', async () => {
    const run = await krieg(['match', ...ARGS, '--games', String(GAMES), '--jobs', '1', '--out', at('one.kpgn')]);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(at('one.kpgn'), 'utf8')).toBe(reference);
    // and the same summary table (the report is made from the records)
    const table = (s: string) => s.slice(0, s.lastIndexOf('\n\n'));
    expect(table(run.stdout)).toBe(table(referenceRun.stdout));
  });

  it('writes the JSON summary and the SVG graph only when asked (--summary, --svg), and says so in --help', async () => {
    const run = await krieg(['match', ...ARGS, '--games', '1', '--jobs', '1', '--out', at('alone.kpgn')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\| wins \|/);
    expect(run.stdout).not.toMatch(/summary \/|material graph \//);
    for (const name of ['alone.summary.json', 'alone.material.svg', 'two.summary.json', 'two.material.svg'])
      expect(existsSync(at(name)), name).toBe(false);
    expect(referenceRun.stdout).toContain(`summary ${at('report.json')}; material graph ${at('graph.svg')}; `);
    const help = (await krieg(['match', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--summary .*written only when asked/);
    expect(help).toMatch(/--svg .*written only when asked/);
  });

  it('reports wins, losses and draws with Wilson intervals, JSON and an SVG material graph', async () => {
    expect(referenceRun.stdout).toMatch(/\| wins \| \d+ \| [\d.]+% \| [\d.]+% – [\d.]+% \|/);
    expect(referenceRun.stdout).toMatch(/adjudicated drawn/);
    const summary = JSON.parse(readFileSync(at('report.json'), 'utf8'));
    expect(summary.format).toBe('krieg-match');
    expect(summary.wins + summary.losses + summary.draws).toBe(GAMES);
    expect(summary.winRate.low).toBeLessThanOrEqual(summary.winRate.value);
    expect(summary.players[0].name).toBe('aos');
    expect(summary.players[0].asWhite.length).toBeGreaterThan(0);
    const svg = readFileSync(at('graph.svg'), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    // stderr is not a terminal here: plain progress lines, the last at the end
    expect(referenceRun.stderr).toMatch(new RegExp(`krieg match: ${GAMES}/${GAMES} games`));
    expect(referenceRun.stderr).not.toMatch(/ply/); // the plies of games in progress are for a terminal
  });

  it('resumes after SIGKILL with exactly the file of an uninterrupted run', async () => {
    const out = at('killed.kpgn');
    const child = spawn(
      process.execPath,
      [CLI, 'match', ...ARGS, '--games', String(GAMES), '--jobs', '1', '--out', out],
      { stdio: 'ignore' },
    );
    await killWhenGames(child, out, 2);
    const partial = readFileSync(out, 'utf8');
    expect(partial.length).toBeLessThan(reference.length);
    const resumed = await krieg(['match', ...ARGS, '--games', String(GAMES), '--jobs', '2', '--out', out]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/resumed from the file/);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  });

  it('plays again a game the file holds only in part', async () => {
    const out = at('cut.kpgn');
    const second = reference.indexOf('[Event', reference.indexOf('[Round "2"]'));
    writeFileSync(out, reference.slice(0, second + 200)); // two games and the start of the third
    const run = await krieg(['match', ...ARGS, '--games', String(GAMES), '--jobs', '1', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  });

  it('refuses to resume with other options, leaving the file as it was', async () => {
    const out = at('other.kpgn');
    copyFileSync(at('two.kpgn'), out);
    const run = await krieg([
      'match',
      'aos',
      'random',
      '--max-plies',
      '30',
      '--nodes',
      '4000',
      '--seed',
      '11',
      '--games',
      String(GAMES + 1),
      '--out',
      out,
    ]);
    expect(expectOneLine(run, 2)).toMatch(/belongs to another match/);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  });

  it('extends a finished match to more games', async () => {
    const out = at('longer.kpgn');
    copyFileSync(at('two.kpgn'), out);
    const run = await krieg(['match', ...ARGS, '--games', String(GAMES + 1), '--jobs', '1', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith(reference)).toBe(true);
    expect(text.match(/^\[Event /gm)).toHaveLength(GAMES + 1);
  });

  it('names a bad player, option or budget in one line', async () => {
    expect(expectOneLine(await krieg(['match', 'aosp', 'nobody', '--out', at('x.kpgn')]), 2)).toMatch(
      /unknown player 'nobody'/,
    );
    expect(expectOneLine(await krieg(['match', 'aosp:width=3', 'random', '--out', at('x.kpgn')]), 2)).toMatch(
      /no option 'width'.*sample, depth/,
    );
    expect(expectOneLine(await krieg(['match', 'human', 'random', '--out', at('x.kpgn')]), 2)).toMatch(
      /krieg play --white human/,
    );
    expect(
      expectOneLine(await krieg(['match', 'aosp', 'random', '--time-per-move', 'soon', '--out', at('x.kpgn')]), 2),
    ).toMatch(/time-per-move/);
    expect(existsSync(at('x.kpgn'))).toBe(false);
  });
});

describe('progress within games (the terminal bar)', () => {
  const params: MatchParams = {
    players: [parsePlayerSpec('aos'), parsePlayerSpec('random')],
    games: 3,
    seed: 11,
    rules: preset('berkeley'),
    maxPlies: 30,
    nodes: 3000,
    backend: 'wasm',
  };
  const pliesOf = (record: GameRecord) =>
    record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;

  it('names the games in progress with their plies', () => {
    expect(gamesInProgress(new Map([[3, 57]]), 20)).toBe('game 3/20 (ply 57)');
    expect(
      gamesInProgress(
        new Map([
          [4, 12],
          [3, 57],
        ]),
        20,
      ),
    ).toBe('games 3 (ply 57), 4 (ply 12) of 20');
    const six = new Map([5, 6, 7, 8, 9, 10].map((g) => [g, g * 2]));
    expect(gamesInProgress(six, 20)).toBe('games 5 (ply 10), 6 (ply 12), 7 (ply 14), 8 (ply 16), +2 more of 20');
    expect(gamesInProgress(new Map(), 20, 4)).toBe('starting');
    expect(gamesInProgress(new Map(), 20, 20)).toBe('done');
  });

  it('moves the bar within games: each game in progress counts its plies over the mean length, under one game', () => {
    expect(gamesDone(2, new Map(), 40)).toBe(2);
    expect(gamesDone(2, new Map([[3, 10]]), 40)).toBe(2.25);
    expect(gamesDone(2, new Map([[3, 10]]), 40) < gamesDone(2, new Map([[3, 20]]), 40)).toBe(true);
    expect(gamesDone(2, new Map([[3, 80]]), 40)).toBe(2.95); // longer than the mean: not a whole game yet
    expect(gamesDone(0, new Map([[1, 5]]), 0)).toBe(0.95); // no mean yet (0): still under one game
  });

  const heard: [number, number][] = [];
  let one: GameRecord[] = [];
  beforeAll(async () => {
    one = (
      await runMatch(params, join(DIR, 'plies-one.kpgn'), 1, undefined, (game, plies) => heard.push([game, plies]))
    ).records;
  });

  it('hears every ply of each game on one job, in order', () => {
    const expected = one.flatMap((record, i) =>
      Array.from({ length: pliesOf(record) }, (_, k): [number, number] => [i + 1, k + 1]),
    );
    expect(heard).toEqual(expected);
  });

  it('hears the plies of the games the workers are playing, and gives the same games', async () => {
    const heard = new Map<number, number[]>();
    const out = join(DIR, 'plies-two.kpgn');
    const run = await runMatch(
      params,
      out,
      2,
      undefined,
      (game, plies) => heard.set(game, [...(heard.get(game) ?? []), plies]),
      1,
    );
    expect(heard.size).toBeGreaterThan(0);
    for (const [game, plies] of heard) {
      expect(
        plies.every((n, i) => n > 0 && (i === 0 || n > plies[i - 1])),
        `game ${game}`,
      ).toBe(true);
      expect(plies.at(-1)!).toBeLessThanOrEqual(pliesOf(run.records[game - 1]));
    }
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(DIR, 'plies-one.kpgn'), 'utf8'));
  });
});
