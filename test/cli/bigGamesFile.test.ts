// A games file of a million games (50 MB of KPGN, each game its tags and a result), read by the
// built executable (dist/cli.js) the way a user would (issue #38, G4): view, belief and track on the
// last game answer in seconds with memory under 3× the file, a game past the last is refused
// quickly, and belief's --limit-time bounds the reading too. Before, each read built records of
// every game: 1 GiB and minutes. Memory is the child's peak RSS (process.resourceUsage, reported by
// a small wrapper); the time bounds are wide (a loaded machine), far below the minutes of before.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, expectOneLine, type CliRun } from '../lib/cli';

const GAMES = 1_000_000;
const GAME = '[Event "e"]\n[Variant "berkeley"]\n[Result "*"]\n\n*\n\n';
const LAST = '[Event "e"]\n[White "the last"]\n[Variant "berkeley"]\n[Result "*"]\n\n*\n';

let DIR = '';
let FILE = '';
let SIZE = 0;

/** Runs `node dist/cli.js args…` through a wrapper that reports its peak RSS: the run, its peak memory (bytes) and wall time (s). */
function measured(args: string[]): CliRun & { rss: number; seconds: number } {
  const rssFile = join(DIR, 'rss');
  rmSync(rssFile, { force: true });
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(DIR, 'wrapper.mjs'), ...args], {
    cwd: DIR,
    encoding: 'utf8',
    env: { ...process.env, KRIEG_QUIET: '1', KRIEG_RSS_FILE: rssFile },
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    rss: Number(readFileSync(rssFile, 'utf8')) * 1024,
    seconds,
  };
}

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-big-'));
  FILE = join(DIR, 'big.kpgn');
  writeFileSync(FILE, GAME.repeat(GAMES - 1) + LAST);
  SIZE = statSync(FILE).size;
  writeFileSync(
    join(DIR, 'wrapper.mjs'),
    [
      "import { writeFileSync } from 'node:fs';",
      "process.on('exit', () => writeFileSync(process.env.KRIEG_RSS_FILE, String(process.resourceUsage().maxRSS)));",
      `await import(${JSON.stringify(pathToFileURL(CLI).href)});`,
    ].join('\n'),
  );
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('a games file of a million games (G4)', () => {
  it('view, belief and track read the last game quickly, in memory under 3x the file', () => {
    expect(SIZE).toBeGreaterThan(49_000_000);
    const view = measured(['view', 'big.kpgn', '--as', 'white', '--game', String(GAMES)]);
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toContain('[White "the last"]');
    expect(view.seconds, 'view --game N').toBeLessThan(20);
    expect(view.rss, 'view --game N: peak memory').toBeLessThan(3 * SIZE);

    const belief = measured(['belief', 'big.kpgn', '--as', 'white', '--game', String(GAMES), '--limit-time', '5']);
    expect(belief.status, belief.stderr).toBe(0);
    expect(belief.stdout).toMatch(/^positions: 1$/m);
    expect(belief.seconds, 'belief --limit-time 5').toBeLessThan(20);
    expect(belief.rss, 'belief: peak memory').toBeLessThan(3 * SIZE);

    const track = measured(['track', 'big.kpgn', '--as', 'white', '--game', String(GAMES)]);
    expect(track.status, track.stderr).toBe(0);
    expect(track.stdout).toMatch(/^plies: 0 /m);
    expect(track.seconds, 'track --game N').toBeLessThan(20);
    expect(track.rss, 'track: peak memory').toBeLessThan(3 * SIZE);
  }, 300_000);

  it('a game past the last is refused quickly, naming how many there are', () => {
    const past = measured(['track', 'big.kpgn', '--as', 'white', '--game', String(GAMES + 1)]);
    expect(expectOneLine(past, 2)).toMatch(
      new RegExp(`^krieg: game must be an integer from 1 to ${GAMES}, got '${GAMES + 1}'$`),
    );
    expect(past.seconds).toBeLessThan(20);
    expect(past.rss).toBeLessThan(3 * SIZE);
  }, 300_000);

  it("belief's time limit bounds reading the file too (exit 4)", () => {
    const run = measured(['belief', 'big.kpgn', '--as', 'white', '--game', String(GAMES), '--limit-time', '0.001']);
    expect(expectOneLine(run, 4)).toMatch(
      /^krieg: big\.kpgn: reading it reached the time limit of 0\.001 s \(--limit-time\)$/,
    );
    expect(run.seconds).toBeLessThan(20);
  }, 300_000);
});
