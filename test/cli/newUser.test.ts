// What a new user meets first (issue #18 §1 and §4): the command list from a bare `krieg`, usage
// errors in one line pointing to the sub-command's help, numeric options typed in the help and
// refused in one line, progress on a stderr that is not a terminal (and --quiet), time limits that
// cover a whole command and a default one with a hint, and --mode auto.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg as runKrieg, ROOT } from '../lib/cli';
import { progressSettings } from '../../host/cli/common';
import { parseTimeLimit, timeLimitText, DEFAULT_LIMIT_SECONDS } from '../../host/io/args';
import { createEngine } from '../../host/node';
import { estimateBelief } from '../../host/belief/estimate';
import { viewInFile } from '../../host/sources/problems.node';
import { storeBase } from '../../host/core/estimator';
import { POSITION_WORDS } from '../../host/constants';

let DIR = '';
const krieg = (args: string[], progress = false) => runKrieg(args, DIR, progress);
const LONG = 'long.kpgn'; // 40 plies of random play: beliefs of millions of positions
const SHORT = 'short.kpgn'; // 10 plies: a belief breadth-first finds at once

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-newuser-'));
  for (const [out, seed, plies] of [
    [LONG, '11', '40'],
    [SHORT, '5', '10'],
  ]) {
    const play = await krieg(['play', '--games', '1', '--seed', seed, '--max-plies', plies, '--out', out]);
    expect(play.status, play.stderr).toBe(0);
  }
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

afterEach(() => {
  Object.assign(progressSettings, { quiet: false, ttyMs: 200, delayMs: 2000, everyMs: 5000 });
});

describe('the command list and usage errors', () => {
  it('bare krieg prints the list of commands, then one line', async () => {
    const run = await krieg([]);
    for (const command of ['perft', 'moves', 'play', 'view', 'belief', 'infoset', 'solve', 'verify', 'db', 'match'])
      expect(run.stdout).toContain(`krieg ${command}`);
    expect(expectOneLine(run, 2)).toBe("krieg: name a command (the list above); run 'krieg --help' for usage");
    const db = await krieg(['db']);
    expect(db.stdout).toContain('krieg db generate');
    expect(expectOneLine(db, 2)).toMatch(/^krieg: db: name a db command: .*; run 'krieg db --help' for usage$/);
  });

  it("says what is wrong in the house style and points to the sub-command's help", async () => {
    const cases: [string[], string][] = [
      [
        ['perft', 'startpos'],
        "perft: missing <depth> (usage: krieg perft <position> <depth>); run 'krieg perft --help'",
      ],
      [['belief'], "belief: missing <file> (usage: krieg belief <file>); run 'krieg belief --help'"],
      [['db', 'show'], "db show: missing <id> (usage: krieg db show <id>); run 'krieg db show --help'"],
      [['perft', 'startpos', '3', 'extra'], "perft: unknown argument 'extra'; run 'krieg perft --help'"],
      [['belief', SHORT, '--bogus'], "belief: unknown option --bogus; run 'krieg belief --help'"],
      [['belief', SHORT, '--mode', 'x'], "belief: --mode must be one of auto, bfs, dfs, sample, track, got 'x'"],
      [['belief', SHORT, '--as'], 'belief: --as needs a value (one of white, black)'],
      [['infoset', SHORT, '--count', '--list'], 'infoset: --count and --list exclude each other: give one'],
      [['nosuch'], "unknown command 'nosuch'; run 'krieg --help' for the list of commands"],
    ];
    for (const [args, message] of cases) {
      const run = await krieg(args);
      const line = expectOneLine(run, 2);
      expect(line, args.join(' ')).toContain(message);
      expect(line, args.join(' ')).not.toMatch(/Not enough|Unknown argument|Invalid values|mutually exclusive/);
    }
  });
});

describe('numeric options', () => {
  // [command words, option, a valid rest of the command]
  const OPTIONS: [string[], string][] = [
    [['perft', 'startpos', '--depth'], 'depth'],
    [['belief', SHORT, '--as', 'white'], 'game'],
    [['belief', SHORT, '--as', 'white', '--mode', 'sample'], 'k'],
    [['belief', SHORT, '--as', 'white', '--mode', 'sample'], 'seed'],
    [['belief', SHORT, '--as', 'white'], 'limit-positions'],
    [['belief', SHORT, '--as', 'white'], 'limit-time'],
    [['belief', SHORT, '--as', 'white'], 'limit-work'],
    [['infoset', SHORT, '--as', 'white', '--count'], 'limit-histories'],
    [['solve', SHORT, '--as', 'white'], 'ply'],
    [['solve', SHORT, '--as', 'white'], 'limit-nodes'],
    [['solve', SHORT, '--as', 'white'], 'memory'],
    [['solve', SHORT, '--as', 'white'], 'limit-belief'],
    [['play', '--out', 'x.kpgn'], 'games'],
    [['db', 'list'], 'limit'],
  ];

  it('show as [number] in every help', async () => {
    for (const words of [
      ['perft'],
      ['belief'],
      ['infoset'],
      ['solve'],
      ['verify'],
      ['play'],
      ['match'],
      ['db', 'list'],
      ['db', 'bench'],
      ['db', 'generate'],
    ]) {
      const help = (await krieg([...words, '--help'])).stdout;
      for (const line of help.split('\n'))
        expect(line, `${words.join(' ')}: ${line}`).not.toMatch(
          /^\s+(-k|--(game|seed|ply|limit[\w-]*|memory|games|jobs|mates|near-misses|max-[\w-]+|reanalyse|nodes|time-per-move)|depth|id)\s.*\[string\]/,
        );
      expect(help, words.join(' ')).toMatch(/\[number\]/);
    }
  });

  it('are refused in one line naming the option when the value is not a number', async () => {
    for (const [args, option] of OPTIONS) {
      const full =
        option === 'depth' ? ['perft', 'startpos', 'abc'] : [...args, option === 'k' ? '-k' : `--${option}`, 'abc'];
      const line = expectOneLine(await krieg(full), 2);
      expect(line, full.join(' ')).toMatch(new RegExp(`^krieg: ${option} must be .*, got 'abc'$`));
    }
  });
});

describe('progress on a stderr that is not a terminal', () => {
  const quick = () => Object.assign(progressSettings, { delayMs: 0, everyMs: 0 });

  it('belief, infoset, solve and perft write plain progress lines; --quiet silences them', async () => {
    quick();
    const belief = await krieg(['belief', LONG, '--as', 'white', '--mode', 'dfs', '--limit-work', '200000'], true);
    expect(belief.status).toBe(4);
    const lines = belief.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(/^krieg belief \(dfs\): \d+ positions, work \d+, \d+\.\d s$/);
    expect(lines.at(-1)).toMatch(/^krieg: limit reached: work limit/);
    const infoset = await krieg(['infoset', LONG, '--as', 'white', '--count', '--limit-work', '200000'], true);
    expect(infoset.stderr).toMatch(/^krieg infoset: \d+ histories, work \d+, \d+\.\d s$/m);
    const solve = await krieg(['solve', LONG, '--as', 'white', '--limit-belief', '100'], true);
    expect(solve.stderr).toMatch(/^krieg solve: estimating the belief: \d+ positions, work \d+, \d+\.\d s$/m);
    const perft = await krieg(['perft', 'startpos', '3'], true);
    expect(perft.stderr).toMatch(/^krieg perft: \d+ leaves, root move \d+ of 20, \d+\.\d s$/m);
    expect(perft.stdout).toMatch(/^nodes: 8902$/m);
    const divide = await krieg(['perft', 'startpos', '3', '--divide'], true);
    expect(divide.stderr).toMatch(/^krieg perft: \d+ leaves, \d+ of 20 root moves done, \d+\.\d s$/m);

    for (const args of [
      ['belief', LONG, '--as', 'white', '--mode', 'dfs', '--limit-work', '200000', '--quiet'],
      ['perft', 'startpos', '3', '--quiet'],
    ]) {
      const run = await krieg(args, true);
      expect(run.stderr, args.join(' ')).not.toMatch(/^krieg (belief|perft) /m);
    }
  });

  it('a short run prints no progress', async () => {
    const run = await krieg(['perft', 'startpos', '3'], true);
    expect(run.stderr).toBe('');
  });
});

describe('time limits', () => {
  it('belief, infoset and solve have a default limit, 0 for none; the message says how to raise it', async () => {
    expect(DEFAULT_LIMIT_SECONDS).toBe(60);
    expect(parseTimeLimit('limit-time', undefined)).toEqual({ ms: 60_000, isDefault: true });
    expect(parseTimeLimit('limit-time', '0')).toEqual({ ms: undefined, isDefault: false });
    expect(parseTimeLimit('limit-time', '2.5')).toEqual({ ms: 2500, isDefault: false });
    expect(() => parseTimeLimit('limit-time', '-1')).toThrow(/limit-time must be a number of seconds/);
    expect(timeLimitText(60_000, true)).toBe(
      'the default time limit of 60 s (--limit-time S for another, --limit-time 0 for none)',
    );
    for (const command of ['belief', 'infoset', 'solve']) {
      const help = (await krieg([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help, command).toMatch(/--limit-time .*0 for no limit \[number\] \[default: 60/);
    }
  });

  it('a time limit ends belief with exit 4 and what to try', async () => {
    const run = await krieg(['belief', LONG, '--as', 'white', '--mode', 'dfs', '--limit-time', '0.2']);
    expect(expectOneLine(run, 4)).toMatch(
      /the time limit of 0.2 s \(--limit-time\); the count is partial; to go faster try --mode bfs .*a shorter view/,
    );
    expect(run.stdout).toMatch(/^positions: \d+ \(partial\)$/m);
  });

  it("solve's --limit-time covers the belief's estimation from a game file", async () => {
    // LONG's belief has millions of positions: with a belief limit this large, only the clock stops it
    const run = await krieg(['solve', LONG, '--as', 'white', '--limit-belief', '1000000', '--limit-time', '0.2']);
    expect(expectOneLine(run, 4)).toMatch(
      /^krieg: long\.kpgn: estimating white's belief reached the time limit of 0\.2 s \(--limit-time\); try a shorter view/,
    );
    expect(run.stdout).toBe('');
  });
});

describe.each(['wasm', 'js'] as const)('--mode auto (%s)', (backend) => {
  it('is the default, runs breadth-first while the layers fit, and agrees with depth-first', async () => {
    const auto = JSON.parse((await krieg(['belief', SHORT, '--as', 'white', '--json', '--backend', backend])).stdout);
    const dfs = JSON.parse(
      (await krieg(['belief', SHORT, '--as', 'white', '--json', '--mode', 'dfs', '--backend', backend])).stdout,
    );
    expect(auto).toMatchObject({ mode: 'bfs', outcome: 'complete', count: dfs.count });
    expect(auto.work).toBeLessThanOrEqual(dfs.work);
  });

  it('falls back to depth-first when a layer outgrows the memory budget', () => {
    const engine = createEngine(backend, 2);
    const { view } = viewInFile(engine, join(DIR, SHORT), 'white', undefined);
    const exact = estimateBelief(engine, view, 'dfs');
    expect(exact.outcome).toBe('complete');
    const count = exact.handles.length;
    // room for the belief (depth-first) but not for two layers of it (breadth-first)
    const small = createEngine(backend, 2);
    const memoryBytes = (storeBase(small) + count + 2) * POSITION_WORDS * 4;
    const bfs = estimateBelief(small, view, 'bfs', { memoryBytes });
    expect(bfs.outcome).toBe('limit-positions');
    const auto = estimateBelief(createEngine(backend, 2), view, 'auto', { memoryBytes });
    expect(auto).toMatchObject({ mode: 'dfs', outcome: 'complete' });
    expect(auto.handles).toHaveLength(count);
  });
});

describe('the quick start leaves the checkout as it was', () => {
  const digest = (file: string) =>
    createHash('sha256')
      .update(readFileSync(join(ROOT, file)))
      .digest('hex');

  it('db generate and db bench write only a database named with --db', async () => {
    const before = digest('data/problems.sqlite');
    for (const args of [
      ['db', 'bench', '--limit', '1'],
      ['db', 'generate', '--mates', '1', '--near-misses', '0'],
    ]) {
      const line = expectOneLine(await krieg(args), 2);
      expect(line).toBe(
        `krieg: ${args.slice(0, 2).join(' ')} writes to the database: name one with --db FILE (a new file, or one of yours); the shipped databases are read-only`,
      );
    }
    expect(digest('data/problems.sqlite')).toBe(before);
  });

  it('no bench rewrites the README by itself; the quick start runs only quick benches and --db writes', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts['bench:update-readme']).toBe('node scripts/update-readme.mjs');
    for (const [name, command] of Object.entries(scripts))
      if (name !== 'bench:update-readme') expect(command, name).not.toMatch(/update-readme/);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const quickStart = /Then, on the shipped data:\n\n```sh\n([\s\S]*?)```/.exec(readme)![1];
    for (const line of quickStart.split('\n').filter((l) => l.trim())) {
      if (/npm run bench:/.test(line)) expect(line).toMatch(/-- --quick/);
      if (/krieg db (generate|bench)/.test(line)) expect(line).toMatch(/--db /);
    }
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8')).toMatch(/^bench\/results\/\*-quick\.\*$/m);
  });
});

describe('one spelling per rule flag', () => {
  it('krieg variants, the options and [Rules] spell a flag alike; camelCase is read too', async () => {
    const variants = (await krieg(['variants'])).stdout.split('\n').slice(1).filter(Boolean);
    const help = (await krieg(['play', '--help'])).stdout;
    expect(variants.length).toBeGreaterThan(10);
    for (const row of variants) {
      const flag = row.split(/\s+/)[0];
      expect(flag).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(help, flag).toContain(`--${flag} `);
    }
    const kebab = await krieg([
      'play',
      '--pawn-tries',
      'squares',
      '--no-castling',
      '--max-plies',
      '4',
      '--out',
      'k.kpgn',
    ]);
    const camel = await krieg([
      'play',
      '--pawnTries',
      'squares',
      '--castling',
      'false',
      '--max-plies',
      '4',
      '--out',
      'c.kpgn',
    ]);
    expect(kebab.status, kebab.stderr).toBe(0);
    expect(camel.status, camel.stderr).toBe(0);
    const written = readFileSync(join(DIR, 'k.kpgn'), 'utf8');
    expect(written).toContain('[Rules "pawn-tries=squares castling=false"]');
    expect(readFileSync(join(DIR, 'c.kpgn'), 'utf8')).toBe(written);
    // a record written with camelCase [Rules] (as krieg once did) reads as the same rules
    writeFileSync(join(DIR, 'old.kpgn'), written.replace('pawn-tries=squares', 'pawnTries=squares'));
    const old = await krieg(['view', 'old.kpgn', '--as', 'white']);
    const now = await krieg(['view', 'k.kpgn', '--as', 'white']);
    expect(old.status, old.stderr).toBe(0);
    expect(old.stdout).toBe(now.stdout);
    writeFileSync(join(DIR, 'bad.kpgn'), written.replace('pawn-tries=squares', 'pawn-tries=maybe'));
    expect(expectOneLine(await krieg(['view', 'bad.kpgn', '--as', 'white']), 2)).toMatch(
      /rule 'pawn-tries' cannot be "maybe"/,
    );
  });
});
