// `krieg play` with the players of issue 14: any two programs and any preset give full records that
// `krieg view` reads back (in-process); a person plays from standard input and reads the referee's
// answers as a referee would give them (the built CLI, spawned: it needs a standard input).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, expectOneLine, krieg, kriegProcess, killWhenGames } from '../lib/cli';

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

  it('the end of the input mid-game (Ctrl-D) saves the game so far unfinished and says so (exit 130)', async () => {
    const out = at('eof.kpgn');
    const run = withInput(['play', '--white', 'human', '--black', 'random', '--out', out], 'e2e4\n');
    expect(expectOneLine(run, 130)).toMatch(
      /game 1 stopped \(the input ended\): saved unfinished \(\[Result "\*"\]\) to .*eof\.kpgn/,
    );
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('[Result "*"]');
    expect(text).toMatch(/^1\. e2e4 \{/m);
    expect(text).toMatch(/^1\.\.\. \w+ \{/m); // Black's reply is in it
    expect((await krieg(['view', out, '--as', 'white'])).status).toBe(0);
  });

  it('Ctrl-C (SIGINT) mid-game saves the game so far with the games before it (exit 130)', async () => {
    const out = at('sigint.kpgn');
    const child = spawn(
      process.execPath,
      [CLI, 'play', '--white', 'human', '--black', 'random', '--games', '2', '--max-plies', '4', '--out', out],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, KRIEG_QUIET: '1' } },
    );
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (data) => {
      stdout += data;
      // game 1 played to its 4-ply cap, then one move of game 2: interrupt at the next prompt
      if (!sent && /Game 2:[^]*Move 2, White to attempt/.test(stdout)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (data) => (stderr += data));
    child.stdin.write('e2e4\nd2d4\ne2e4\n');
    const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
    expect(sent, stdout).toBe(true);
    expect(expectOneLine({ status: code as number, stdout, stderr }, 130)).toMatch(
      /game 2 stopped \(Ctrl-C\): saved unfinished \(\[Result "\*"\]\) to .*sigint\.kpgn after the 1 game before it/,
    );
    const text = readFileSync(out, 'utf8');
    expect(text.match(/^\[Result "\*"\]/gm)).toHaveLength(2); // the first at the ply cap, the second stopped
    expect(text).toContain('[Termination "unfinished: the game was stopped (Ctrl-C)"]');
    expect((await krieg(['view', out, '--as', 'white', '--game', '2'])).status).toBe(0);
  });

  it('a game saved unfinished by quit is played again from its start by the same command', () => {
    const out = at('again.kpgn');
    const args = ['play', '--white', 'human', '--black', 'random', '--max-plies', '2', '--out', out];
    expect(withInput(args, 'quit\n').status).toBe(130);
    expect(readFileSync(out, 'utf8')).toContain('[Termination "unfinished: the game was stopped (quit)"]');
    const run = withInput(args, 'e2e4\n');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Game 1: /);
    const text = readFileSync(out, 'utf8');
    expect(text.match(/^\[Event /gm)).toHaveLength(1);
    expect(text).not.toContain('Termination');
    expect(text).toMatch(/^1\. e2e4 \{/m);
  });

  it('shows the move number, lists the commands on help, and resign loses the game (a normal result)', async () => {
    const out = at('resign.kpgn');
    const run = withInput(
      ['play', '--white', 'random', '--black', 'human', '--max-plies', '40', '--out', out],
      ['help', 'e7e5', 'resign', ''].join('\n'),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /Move 1, Black to attempt \(UCI, or moves \/ board \/ belief \/ help \/ resign \/ quit\): /,
    );
    expect(run.stdout).toMatch(/Move 2, Black to attempt/);
    expect(run.stdout).toMatch(/Commands:\n(.*\n)*  resign {13}resign this game \(a loss\)\n(.*\n)*  quit /);
    expect(run.stdout).toMatch(/Black resigns\.\nWhite wins \(1-0\)\./);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('[Result "1-0"]');
    expect(text).toContain('[Termination "Black resigned"]');
    expect((await krieg(['view', out, '--as', 'black'])).status).toBe(0);
  });

  it('belief at the prompt prints the heatmap of where the opponent may stand', () => {
    const run = withInput(
      ['play', '--white', 'human', '--black', 'random', '--seed', '1', '--out', at('belief.kpgn')],
      ['belief', 'e2e4', 'belief', ''].join('\n'),
    );
    expect(run.status, run.stderr).toBe(130);
    // before any move: one position, Black's men where they start; after e2e4 and Black's reply: 20
    expect(run.stdout).toMatch(/Where Black's men may stand: over all 1 positions you may face/);
    expect(run.stdout).toMatch(/\n8 +1 100% +1 100% +1 100%/);
    expect(run.stdout).toMatch(/Where Black's men may stand: over all 20 positions you may face/);
    expect(run.stdout).toMatch(/\n1 +0 +0% +0 +0%/);
  });

  it('quotes input back with control characters escaped and long lines cut', () => {
    const long = 'x'.repeat(100_000);
    const run = withInput(
      ['play', '--white', 'human', '--black', 'random', '--out', at('echo.kpgn')],
      ['\x1b[2J\x1b]0;pwned\x07', long, 'quit', ''].join('\n'),
    );
    expect(run.status, run.stderr).toBe(130);
    expect(run.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/); // no escape sequence reaches the terminal
    expect(run.stdout).toContain("'\\x1b[2J\\x1b]0;pwned\\x07' is not a move in UCI");
    expect(run.stdout).toContain(`'${'x'.repeat(40)}…' is not a move in UCI`);
    expect(run.stdout.length).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/stopped \(quit\)/);
  });

  it('names an unknown player in one line', async () => {
    expect(expectOneLine(await krieg(['play', '--white', 'gnuchess', '--out', at('x.kpgn')]), 2)).toMatch(
      /unknown player 'gnuchess'/,
    );
  });

  it('checks every other option before saying --out is missing', async () => {
    expect(expectOneLine(await krieg(['play', '--variant', 'berkely']), 2)).toMatch(/--variant must be one of/);
    expect(expectOneLine(await krieg(['play', '--games', 'x']), 2)).toMatch(/games/);
    expect(expectOneLine(await krieg(['play', '--white', 'hs']), 2)).toMatch(/play: missing --out/);
  });

  it('the help says a person can play, and the exit code of a stopped game', async () => {
    expect((await krieg(['--help'])).stdout.replace(/\s+/g, ' ')).toMatch(/krieg play play games .*yourself .*\(human/);
    const help = (await krieg(['play', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/130 a person stopped the game/);
    expect(help).toMatch(/resign \(a loss\), quit/);
  });
});

describe('krieg play --out resumes', () => {
  const ARGS = ['play', '--white', 'rw', '--black', 'random', '--nodes', '200', '--max-plies', '40', '--seed', '4'];
  const GAMES = 5;

  it('after SIGKILL (the built CLI) with exactly the file of an uninterrupted run', async () => {
    const reference = at('play-ref.kpgn');
    expect((await krieg([...ARGS, '--games', String(GAMES), '--out', reference])).status).toBe(0);
    const expected = readFileSync(reference, 'utf8');
    const out = at('play-killed.kpgn');
    const child = spawn(process.execPath, [CLI, ...ARGS, '--games', String(GAMES), '--out', out], {
      stdio: 'ignore',
    });
    await killWhenGames(child, out, 2);
    expect(readFileSync(out, 'utf8').length).toBeLessThan(expected.length);
    const resumed = await krieg([...ARGS, '--games', String(GAMES), '--out', out]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/resumed from the file/);
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });

  it('plays again a game cut short, and extends a finished run (random games, KPGN and JSON)', async () => {
    for (const name of ['resume.kpgn', 'resume.json']) {
      const whole = at(`whole-${name}`);
      const out = at(name);
      expect((await krieg(['play', '--games', '5', '--seed', '3', '--out', whole])).status).toBe(0);
      expect((await krieg(['play', '--games', '2', '--seed', '3', '--out', out])).status).toBe(0);
      if (name.endsWith('.kpgn'))
        writeFileSync(out, readFileSync(out, 'utf8') + readFileSync(whole, 'utf8').slice(0, 300));
      const run = await krieg(['play', '--games', '5', '--seed', '3', '--out', out]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/5 games written to .* \(2 resumed from the file\)/);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    }
  });

  it('refuses a file of another run (other options), leaving it as it was', async () => {
    const out = at('other.kpgn');
    expect((await krieg(['play', '--games', '2', '--seed', '3', '--out', out])).status).toBe(0);
    const before = readFileSync(out, 'utf8');
    for (const args of [
      ['--max-plies', '300'],
      ['--variant', 'wild16'],
      ['--white', 'rw'],
    ]) {
      const line = expectOneLine(await krieg(['play', '--games', '3', '--seed', '3', ...args, '--out', out]), 2);
      expect(line).toMatch(/other\.kpgn: game 1 \(line 1\) belongs to another run of krieg play/);
      expect(line).toMatch(/resume with the same players and options, or choose a new file/);
    }
    expect(readFileSync(out, 'utf8')).toBe(before);
  });
});
