// `krieg play` with the players of issue 14: any two programs and any preset give full records that
// `krieg view` reads back (in-process); a person plays from standard input and reads the referee's
// answers as a referee would give them (the built CLI, spawned: it needs a standard input).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg, kriegProcess } from '../lib/cli';

let DIR = '';
const at = (name: string) => join(DIR, name);

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-play-'));
});
afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

const withInput = (args: string[], input: string) => kriegProcess(args, DIR, input);

describe('krieg play with players', () => {
  it.each([
    ['hs', 'rw', 'wild16'],
    ['krieg:sample=4', 'los', 'rand'],
    ['aosp', 'random', 'english'],
  ])('%s v %s under %s: a record krieg view reads back', async (white, black, variant) => {
    const out = at(`${variant}.kpgn`);
    const run = await krieg([
      'play',
      '--white',
      white,
      '--black',
      black,
      '--variant',
      variant,
      '--max-plies',
      '20',
      '--nodes',
      '2000',
      '--games',
      '2',
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/2 games written/);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`[White "${white}"]`);
    expect(text).toContain(`[Variant "${variant}"]`);
    for (const as of ['white', 'black']) expect((await krieg(['view', out, '--as', as, '--game', '2'])).status).toBe(0);
  });

  it("with a time budget per move (Parker's timed players): games that are still full records", async () => {
    const out = at('timed.kpgn');
    const run = await krieg([
      'play',
      '--white',
      'aosp',
      '--black',
      'hs',
      '--time-per-move',
      '0.05',
      '--max-plies',
      '12',
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect((await krieg(['view', out, '--as', 'black'])).status).toBe(0);
  });

  it('a person plays White from standard input and hears what a referee would say', async () => {
    const out = at('human.kpgn');
    const input = ['board', 'zz', 'e2e5', 'moves', 'e2e4', 'd1h5', 'g1f3', ''].join('\n');
    const run = withInput(
      ['play', '--white', 'human', '--black', 'random', '--seed', '3', '--max-plies', '4', '--out', out],
      input,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Game 1: human \(White\) v random \(Black\)/);
    expect(run.stdout).toMatch(/8 {2}\. \. \. \. \. \. \. \.\n/); // his own board: no black pieces on it
    expect(run.stdout).toMatch(/1 {2}R N B Q K B N R\n {3}a b c d e f g h/);
    expect(run.stdout).toMatch(/'zz' is not a move in UCI/);
    expect(run.stdout).toMatch(/e2e5 is not a move of your own pieces \(the referee would say Nonsense\)/);
    expect(run.stdout).toMatch(/e2e4: White has moved\./);
    expect(run.stdout).toMatch(/Black has moved( after \d+ illegal attempts?)?\./);
    expect(run.stdout).toMatch(/Unfinished \(\*\)\./);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('[White "human"]');
    expect(text).toMatch(/^1\. e2e4 \{/m);
    expect((await krieg(['view', out, '--as', 'white'])).status).toBe(0);
  });

  it('stops with one line when the input ends before the game does, writing nothing', async () => {
    const out = at('eof.kpgn');
    const run = withInput(['play', '--white', 'human', '--black', 'random', '--out', out], 'e2e4\n');
    expectOneLine(run, 2);
    expect(run.stderr).toMatch(/input ended before the game did/);
    expect(existsSync(out)).toBe(false);
  });

  it('names an unknown player in one line', async () => {
    expect(expectOneLine(await krieg(['play', '--white', 'gnuchess', '--out', at('x.kpgn')]), 2)).toMatch(
      /unknown player 'gnuchess'/,
    );
  });
});
