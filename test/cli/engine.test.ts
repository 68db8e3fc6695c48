// Outside programs through the engine protocol (docs/protocol.md), from the command line: krieg
// playing itself through it (krieg match driving `krieg engine`, spawned, on worker threads) plays
// the same games as in process; small programs written here, and the tutorial's bots of examples/
// (docs/first-bot.md), play krieg play and krieg match games; a program that crashes, stalls,
// answers garbage, attempts Nonsense, speaks another version or does not start loses its game with
// the reason in [Termination], and the match goes on.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg, kriegProcess, ROOT } from '../lib/cli';
import { parseKpgnGames } from '../../host/notation/kpgn';
import { BACKENDS } from '../../host/node';
import type { GameRecord } from '../../host/record/record';

const DIR = mkdtempSync(join(tmpdir(), 'krieg-engine-'));
const at = (name: string) => join(DIR, name);
const quote = (path: string) => `'${path}'`;
/** `ext:` spawning the built krieg engine with these arguments (ext:krieg: this krieg's dist/cli.js). */
const kriegEngine = (args: string) => `ext:krieg engine ${args}`;

/**
 * A program that plays the first attempt it is offered, and misbehaves as `mode` says: crash,
 * stall, garbage, nonsense (an attempt not offered), version (speaks protocol 2), silent (never
 * greets), crash-as-white (crashes only when it has White), any-always (asks "Any?" every time);
 * or plays: none, any (asks "Any?" whenever it may).
 */
const BOT = `import json, sys, time
mode = sys.argv[1]
side = None
def send(m):
    print(json.dumps(m), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        if mode == "silent":
            time.sleep(600)  # never greets, nor answers the game after it
        send({"type": "hello", "protocol": 2 if mode == "version" else 1, "name": "test bot"})
    elif m["type"] == "game":
        side = m["side"]
        send({"type": "ready"})
    elif m["type"] == "go":
        if mode == "crash" or (mode == "crash-as-white" and side == "white"):
            raise RuntimeError("the bot broke down")
        if mode == "stall":
            time.sleep(600)
        if mode == "any-always" or (mode == "any" and m["canAskAny"]):
            send({"type": "any"})
        elif mode == "garbage":
            print("e2e4 please", flush=True)
        elif mode == "nonsense":
            send({"type": "attempt", "attempt": "a1a8" if side == "white" else "a8a1"})
        else:
            send({"type": "info", "text": "thinking"})
            send({"type": "attempt", "attempt": m["attempts"][0]})
    elif m["type"] == "quit":
        break
`;
const bot = (mode: string) => `ext:python3 ${quote(at('bot.py'))} ${mode}`;

beforeAll(() => {
  writeFileSync(at('bot.py'), BOT);
});

afterAll(() => {
  rmSync(DIR, { recursive: true, force: true });
});

function games(file: string): GameRecord[] {
  return parseKpgnGames(readFileSync(file, 'utf8')).map((g) => {
    if (g.kind !== 'record') throw new Error('a view');
    return g.record;
  });
}

/** The match both served matches must equal, played once, in process, on WASM. */
const COMMON = ['--games', '2', '--nodes', '300', '--max-plies', '16', '--seed', '3'];
let inProcess: Promise<GameRecord[]> | undefined;
const inProcessGames = () =>
  (inProcess ??= (async () => {
    const run = await krieg([
      'match',
      'krieg:sample=8',
      'random',
      ...COMMON,
      '--backend',
      'wasm',
      '--jobs',
      '1',
      '--out',
      at('in-process.kpgn'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    return games(at('in-process.kpgn'));
  })());

// The served player on either core must play the in-process games: the JS core plays what the WASM
// core plays (test/players/players.test.ts replays every player's games on both), so the JS case
// compares with WASM's in-process match rather than play it again on the slower core.
describe.each(BACKENDS)('krieg playing itself through the protocol, on %s', (backend) => {
  it('gives the games krieg plays in process (krieg match, 300 nodes a move, fixed seed)', async () => {
    const served = kriegEngine(`--player krieg:sample=8 --backend ${backend}`);
    // on two worker threads, each game's engine spawned by its worker
    const through = await krieg([
      'match',
      served,
      'random',
      ...COMMON,
      '--backend',
      backend,
      '--jobs',
      '2',
      '--out',
      at(`ext-${backend}.kpgn`),
    ]);
    expect(through.status, through.stderr).toBe(0);
    const [a, b] = [await inProcessGames(), games(at(`ext-${backend}.kpgn`))];
    expect(b).toHaveLength(2);
    expect(b[0].white).toBe(served);
    for (let i = 0; i < 2; i++) {
      expect(b[i].events).toEqual(a[i].events);
      expect(b[i].result).toBe(a[i].result);
      expect(b[i].tags.Termination).toBe(a[i].tags.Termination);
    }
  });
});

describe('outside programs in krieg play and krieg match', () => {
  it('a Python program written here plays krieg play games to their end, recorded under its spec', async () => {
    const run = await krieg([
      'play',
      '--white',
      bot('none'),
      '--black',
      'random',
      '--games',
      '2',
      '--max-plies',
      '40',
      '--out',
      at('play.kpgn'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const records = games(at('play.kpgn'));
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record.white).toBe(bot('none'));
      expect(record.tags.Termination ?? '').not.toMatch(/forfeits/);
      expect(record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length).toBeGreaterThan(
        10,
      );
    }
  });

  const FAULTS: [string, string, RegExp, string[]?][] = [
    ['crash', bot('crash'), /forfeits: .* exited with code 1 \(its last words: "RuntimeError: the bot broke down"\)$/],
    // the limits a stalled or silent program is waited for, short (the test waits them out twice)
    [
      'stall',
      `ext:move=0.2:python3 ${quote(at('bot.py'))} stall`,
      /forfeits: .* did not answer within 0.2 s \(waiting for an attempt\)$/,
    ],
    // under --time-per-move 0.1: the move's 0.1 s and the grace
    [
      'stall-timed',
      `ext:grace=0.1:python3 ${quote(at('bot.py'))} stall`,
      /forfeits: .* did not answer within 0.2 s \(waiting for an attempt\)$/,
      ['--time-per-move', '0.1'],
    ],
    ['garbage', bot('garbage'), /forfeits: .* sent "e2e4 please": not JSON$/],
    [
      'nonsense',
      bot('nonsense'),
      /forfeits: .* attempted a[18]a[18]: Nonsense \(not among the attempts "go" listed\)$/,
    ],
    [
      'any-always',
      bot('any-always'),
      /forfeits: .* attempted "Any\?": the rules have no "Any\?", or it was asked this turn$/,
    ],
    ['version', bot('version'), /forfeits: .* did not start: it speaks protocol 2, krieg speaks 1$/],
    [
      'silent',
      `ext:startup=0.2:python3 ${quote(at('bot.py'))} silent`,
      /forfeits: .* did not answer within 0.2 s \(waiting for its hello\)$/,
    ],
    ['missing', `ext:${quote(at('no-such-bot'))}`, /forfeits: .* did not start: spawn .*no-such-bot ENOENT$/],
  ];
  it.each(FAULTS)(
    'a program that fails (%s) loses each game with the reason recorded; the match goes on',
    async (name, spec, reason, extra = []) => {
      const run = await krieg([
        'match',
        spec,
        'random',
        '--games',
        '2',
        '--max-plies',
        '20',
        '--jobs',
        '1',
        '--out',
        at(`${name}.kpgn`),
        ...extra,
      ]);
      expect(run.status, run.stderr).toBe(0);
      const records = games(at(`${name}.kpgn`));
      expect(records).toHaveLength(2);
      expect(records.map((r) => r.result)).toEqual(['0-1', '1-0']); // White in game 1, Black in game 2
      expect(records[0].tags.Termination).toMatch(/^White forfeits: /);
      expect(records[1].tags.Termination).toMatch(/^Black forfeits: /);
      for (const record of records) expect(record.tags.Termination).toMatch(reason);
    },
  );

  it('a program asks "Any?" where the rules have it, and hears the answer (berkeley-any)', async () => {
    const run = await krieg([
      'play',
      '--white',
      bot('any'),
      '--black',
      'random',
      '--variant',
      'berkeley-any',
      '--max-plies',
      '30',
      '--out',
      at('any.kpgn'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const [record] = games(at('any.kpgn'));
    expect(record.tags.Termination ?? '').not.toMatch(/forfeits/);
    const asked = record.events.filter((e) => e.type === 'any' && e.side === 'white');
    expect(asked.length).toBeGreaterThanOrEqual(10); // each of its turns
  });

  it('a program that fails in one game plays the next: crash as White, play as Black', async () => {
    const run = await krieg([
      'match',
      bot('crash-as-white'),
      'random',
      '--games',
      '2',
      '--max-plies',
      '20',
      '--jobs',
      '1',
      '--out',
      at('mixed.kpgn'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const [first, second] = games(at('mixed.kpgn'));
    expect(first.result).toBe('0-1');
    expect(first.events).toHaveLength(0); // White's first turn
    expect(second.tags.Termination).toMatch(/^stopped at the 20-ply cap/);
  });

  it('refuses a bad ext spec in one line (exit 2)', async () => {
    const line = expectOneLine(await krieg(['match', "ext:python3 'bot", 'random', '--out', at('x.kpgn')]), 2);
    expect(line).toBe(`krieg: player 'ext:python3 'bot': unclosed ' in python3 'bot`);
  });
});

describe("the tutorial's bots (examples/, docs/first-bot.md)", () => {
  it.each([
    ['first-bot.py', 'python3'],
    ['first-bot.mjs', quote(process.execPath)],
  ])('%s plays krieg match games against random to their end', async (file, runner) => {
    const spec = `ext:${runner} ${quote(join(ROOT, 'examples', file))}`;
    const run = await krieg([
      'match',
      spec,
      'random',
      '--games',
      '2',
      '--max-plies',
      '40',
      '--jobs',
      '1',
      '--out',
      at(`${file}.kpgn`),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const records = games(at(`${file}.kpgn`));
    expect(records).toHaveLength(2);
    for (const record of records) expect(record.tags.Termination ?? '').not.toMatch(/forfeits/);
  });
});

describe('krieg engine, spawned', () => {
  it('serves its handshake and a first move, and stops at the end of its input', () => {
    const input = [
      { type: 'hello', protocol: 1 },
      { type: 'game', variant: 'berkeley', side: 'white', seed: 1, budget: { nodes: 100 } },
      { type: 'go', attempts: [], tried: [], canAskAny: false },
    ]
      .map((m) => JSON.stringify(m) + '\n')
      .join('');
    const run = kriegProcess(['engine', '--player', 'random'], ROOT, input);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['hello', 'ready', 'attempt']);
    expect(run.stderr).toBe('');
  });

  it('refuses a person and a bad player in one line (exit 2)', async () => {
    expect(expectOneLine(await krieg(['engine', '--player', 'human']), 2)).toBe(
      'krieg: krieg engine serves a program, not a person',
    );
    expect(expectOneLine(await krieg(['engine', '--player', 'deep-blue']), 2)).toMatch(/unknown player 'deep-blue'/);
  });
});

describe("the tutorial's bot is the one shipped", () => {
  it('docs/first-bot.md shows examples/first-bot.py as it is, line for line', () => {
    const page = readFileSync(join(ROOT, 'docs/first-bot.md'), 'utf8');
    const shown = /```python\n([\s\S]*?)```/.exec(page)![1];
    expect(readFileSync(join(ROOT, 'examples/first-bot.py'), 'utf8')).toContain(shown);
  });
});
