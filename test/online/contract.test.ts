// The contract test of krieg bot (issue 39): a local server implementing Kriegspiel.org's bot routes
// as ks-backend defines them (commit 7d566bcee3c28ffa9652cf807cc41cfed4f139bf; the files are named
// in siteServer.ts), refereed by krieg's own referee, plays whole games against the bot under
// berkeley and berkeley-any — Illegal attempts, "Any?" of both sides, promotions, a timeout each way,
// 500s and dropped connections, a restart in the middle — and each game's record as the server keeps
// it, seen from the bot's side, must equal the view the bot built from the site's states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SiteServer, type GameSpec } from './siteServer';
import { spawn } from 'node:child_process';
import { krieg, expectOneLine, CLI } from '../lib/cli';
import { Bot, timeForMove } from '../../host/online/bot.node';
import { SiteClient, checkServer, type SiteError } from '../../host/online/client';
import { KriegError } from '../../host/errors';
import { parsePlayerSpec } from '../../host/players/registry';
import { randomPlayer } from '../../host/players/random';
import type { PlayerFactory } from '../../host/players/player';
import { seededRandom } from '../../host/referee/game';
import { viewOf, type View, type ViewEvent } from '../../host/record/record';

/** Random attempts, and "Any?" at the start of half its turns where the rules have it. */
const askingRandom: PlayerFactory = (setup, engine) => {
  const inner = randomPlayer(setup, engine);
  const random = seededRandom(setup.seed ^ 77);
  return {
    name: 'random-any',
    observe: (e) => inner.observe(e),
    choose: (turn) => (turn.canAskAny && turn.tried.length === 0 && random() < 0.5 ? 'any' : inner.choose(turn)),
  };
};

/** The view as the site can say it: a game's end comes without its check (ks-game announces only the end). */
function asTheSiteSays(events: ViewEvent[]): ViewEvent[] {
  return events.map((e) => {
    if ((e.type === 'attempt' || e.type === 'opponent-move') && e.percept?.end) {
      const { check: _c, directions: _d, ...rest } = e.percept;
      return { ...e, percept: rest };
    }
    return e;
  });
}

describe('krieg bot against a local Kriegspiel.org', () => {
  const site = new SiteServer();
  let server = '';
  const dir = mkdtempSync(join(tmpdir(), 'krieg-bot-'));
  beforeAll(async () => {
    server = await site.start();
  });
  afterAll(() => site.stop());

  it('registers: the token goes to a new file of mode 600 and is never printed', async () => {
    const file = join(dir, 'token');
    const args = ['bot', 'register', '--server', server, '--username', 'kriegbot', '--owner-email', 'me@example.org'];
    const run = await krieg([...args, '--token-file', file]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/registered bot kriegbot \(id b1\); token written to /);
    expect(run.stdout).not.toContain(site.bot.token);
    expect(readFileSync(file, 'utf8')).toBe(`${site.bot.token}\n`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(site.log.at(-1)).toMatch(/"supported_rule_variants":\["berkeley","berkeley_any"\]/);
    // an existing file is not overwritten
    const again = await krieg([...args, '--token-file', file]);
    expect(expectOneLine(again, 2)).toMatch(/token file .*: exists already/);
  });

  it('refuses plain http to another machine, a token file others can read, and variants krieg does not play', async () => {
    const file = join(dir, 'open-token');
    writeFileSync(file, 'ksbot_x.y\n', { mode: 0o644 });
    const closed = join(dir, 'closed-token');
    writeFileSync(closed, 'ksbot_x.y\n', { mode: 0o600 });
    const cases: [string[], RegExp][] = [
      [
        ['--server', 'http://api.kriegspiel.org', '--token-file', file],
        /--server http:\/\/api.kriegspiel.org: the token goes only over https/,
      ],
      [['--server', server, '--token-file', file], /others may read it \(chmod 600 it\)/],
      [
        ['--server', server, '--token-file', closed, '--variants', 'crazykrieg'],
        /rule variant 'crazykrieg': krieg plays only berkeley and berkeley_any/,
      ],
    ];
    const bare = await krieg(['bot']);
    expect(bare.stdout).toContain('krieg bot register');
    expect(bare.stdout).toContain('krieg bot run');
    expect(expectOneLine(bare, 2)).toMatch(/^krieg: bot: name a bot command: register or run; run 'krieg bot --help'/);
    const missing = await krieg(['bot', 'run', '--server', server]);
    expect(expectOneLine(missing, 2)).toMatch(/token-file/);
    for (const [args, message] of cases) {
      const run = await krieg(['bot', 'run', ...args]);
      expect(expectOneLine(run, 2)).toMatch(message);
      expect(run.stderr).not.toContain('ksbot_x.y');
    }
  });

  /** A server of the test's own, so the tests run in any order. */
  async function ownSite(): Promise<{ site: SiteServer; server: string }> {
    const site = new SiteServer();
    const server = await site.start();
    sites.push(site);
    return { site, server };
  }
  const sites: SiteServer[] = [];
  afterAll(() => Promise.all(sites.map((s) => s.stop())));

  it('plays whole games under berkeley and berkeley-any through faults and a restart; the views equal the records', async () => {
    const { site, server } = await ownSite();
    const specs: GameSpec[] = [
      { variant: 'berkeley', botSide: 'white', seed: 13, maxPlies: 100 },
      { variant: 'berkeley_any', botSide: 'black', seed: 12, maxPlies: 100, anyChance: 0.4 },
      // the bot's own flag falls: 25 s, 1 s a request, no increment
      { variant: 'berkeley', botSide: 'black', seed: 13, maxPlies: 400, clock: 25, increment: 0 },
    ];
    const ids = specs.map((s) => site.addGame(s));
    site.lobbyJoins = [{ variant: '', botSide: 'white', seed: 14, maxPlies: 60, anyChance: 0.4 }];
    site.faults.push(
      { method: 'POST', path: /\/move$/, nth: 3, kind: '500-after' },
      { method: 'POST', path: /\/move$/, nth: 9, kind: 'drop-after' },
      { method: 'POST', path: /\/ask-any$/, nth: 2, kind: 'drop-after' },
      { method: 'GET', path: /\/state$/, nth: 7, kind: 'drop-before' },
      { method: 'GET', path: /\/state$/, nth: 12, kind: '500-before' },
      { method: 'GET', path: /^\/game\/mine\/active$/, nth: 2, kind: '500-before' },
    );
    const token = site.bot.token;
    const lines: string[] = [];
    const views = new Map<string, View | undefined>();
    const bot = (maxGames: number) =>
      new Bot({
        client: new SiteClient({ server, token, backoffMs: 1, log: (l) => lines.push(l) }),
        player: parsePlayerSpec('random'),
        factory: askingRandom,
        variants: ['berkeley_any', 'berkeley'],
        maxGames,
        openLobbyGame: true,
        backend: 'wasm',
        nodes: 100,
        pollMs: 0,
        capacity: 1024,
        log: (l) => lines.push(l),
        onGameOver: (game, view) => views.set(game.game_id, view),
      });
    // one game ends, the bot stops; a new bot (a restart) takes up the others from their states
    expect(await bot(1).run()).toBe(1);
    expect(views.size).toBe(1);
    expect(await bot(3).run()).toBe(3);
    const all = [...ids, 'g4'];
    expect([...views.keys()].sort()).toEqual(all);

    for (const id of all) {
      const record = site.record(id);
      const view = views.get(id)!;
      const expected = { ...viewOf(record, view.as), tags: {} };
      expect(view.result, id).toBe(record.result);
      expect(view.events, id).toEqual(asTheSiteSays(expected.events));
    }
    // what the games went through
    const events = all.flatMap((id) => site.record(id).events);
    const own = all.flatMap((id) => views.get(id)!.events.filter((e) => e.type === 'attempt' || e.type === 'any'));
    expect(own.some((e) => e.type === 'attempt' && e.percept.answer === 'illegal')).toBe(true);
    expect(own.some((e) => e.type === 'any')).toBe(true);
    // the opponent's "Any?" (g2: the bot is Black) is in the record, and kept from the bot's view (berkeley-any)
    expect(site.record('g2').events.some((e) => e.type === 'any' && e.side === 'white')).toBe(true);
    expect(views.get('g2')!.events.some((e) => e.type === 'any' && e.side === 'white')).toBe(false);
    const heard = all.flatMap((id) => views.get(id)!.events.filter((e) => e.type === 'opponent-move'));
    expect(heard.some((e) => e.type === 'opponent-move' && (e.illegal ?? 0) > 0)).toBe(true);
    expect(events.some((e) => e.type === 'attempt' && e.percept.answer === 'legal' && e.attempt.length === 5)).toBe(
      true,
    );
    const results = all.map((id) => site.games.get(id)!.result!);
    expect(results[2]).toEqual({ winner: 'white', reason: 'timeout' });
    expect(site.faults.filter((f) => !f.fired)).toEqual([]);
    expect(lines.some((l) => /retry GET \/game\/.*\/state in 1 ms/.test(l))).toBe(true);
    expect(lines.some((l) => /lobby: opened game/.test(l))).toBe(true);
    // the token travels only in the Authorization header, and appears in no line the bot logs
    expect(lines.join('\n')).not.toContain(token);
    expect(site.log.filter((l) => l.includes(token)).every((l) => l.endsWith(`auth=Bearer ${token}`))).toBe(true);
    expect(site.bot.variants).toEqual(['berkeley_any', 'berkeley']);
  });

  it('runs as a process (node dist/cli.js bot run) with the krieg player at a small node budget', async () => {
    const { site, server } = await ownSite();
    const id = site.addGame({ variant: 'berkeley_any', botSide: 'white', seed: 21, maxPlies: 12, anyChance: 0.5 });
    const file = join(dir, 'process-token');
    writeFileSync(file, `${site.bot.token}\n`, { mode: 0o600 });
    const args = [
      'bot',
      'run',
      '--server',
      server,
      '--token-file',
      file,
      '--player',
      'krieg:sample=4',
      '--nodes',
      '200',
    ];
    const child = spawn(process.execPath, [CLI, ...args, '--max-games', '1', '--poll', '0'], {
      env: { ...process.env, KRIEG_QUIET: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const game = site.games.get(id)!;
    expect(game.state).toBe('completed');
    // one line an event: the start, the game, each attempt, its end, the stop
    const lines = stdout.trim().split('\n');
    const attempts = site.record(id).events.filter((e) => e.side === 'white' && e.type !== 'pawn-tries').length;
    expect(lines.filter((l) => / white (?:[a-h][1-8][a-h][1-8][qrbn]?|Any\?): /.test(l))).toHaveLength(attempts);
    expect(lines.at(-2)).toMatch(new RegExp(`game ${game.code} over: white \\(timeout\\)$`));
    expect(lines.at(-1)).toMatch(/bot stops: 1 game\(s\) ended$/);
    expect(stdout).not.toContain(site.bot.token);
  });

  it("reads the site's errors: the envelope, FastAPI's detail; retries a 5xx, a 429 after its Retry-After, never a move", async () => {
    const { site, server } = await ownSite();
    const id = site.addGame({ variant: 'berkeley', botSide: 'black', seed: 5, maxPlies: 10 });
    const waits: number[] = [];
    const client = new SiteClient({
      server,
      token: site.bot.token,
      backoffMs: 10,
      sleep: async (ms) => void waits.push(ms),
    });
    const failure = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => undefined,
        (e) => e,
      );
      expect(error).toBeInstanceOf(KriegError);
      return error as SiteError;
    };
    const missing = await failure(client.move('nope', 'e2e4'));
    expect([missing.code, missing.status, missing.siteCode]).toEqual(['site-http', 404, 'GAME_NOT_FOUND']);
    expect(missing.message).toBe('Kriegspiel.org POST /game/nope/move: HTTP 404 GAME_NOT_FOUND: Game not found');
    const stranger = await failure(new SiteClient({ server, token: 'ksbot_b1.wrong' }).activeGames());
    expect(stranger.message).toBe('Kriegspiel.org GET /game/mine/active: HTTP 401 HTTP_401: Authentication required');
    expect(stranger.message).not.toContain('wrong');
    site.faults.push(
      { method: 'GET', path: /\/state$/, nth: 1, kind: '500-before' },
      { method: 'GET', path: /\/state$/, nth: 2, kind: '429-before' },
      { method: 'GET', path: /\/state$/, nth: 3, kind: 'drop-before' },
    );
    expect((await client.state(id)).your_color).toBe('black');
    expect(waits).toEqual([10, 2000, 40]);
    site.faults.push({ method: 'POST', path: /\/move$/, nth: 1, kind: '500-before' });
    site.faults.push({ method: 'GET', path: /\/mine\/active$/, nth: 1, kind: '500-before' });
    const moved = await failure(client.move(id, 'e7e5'));
    expect(moved.status).toBe(500);
    expect(site.faults.filter((f) => !f.fired)).toEqual([site.faults.at(-1)]);
    expect(await failure(new SiteClient({ server, token: site.bot.token, tries: 1 }).activeGames())).toMatchObject({
      status: 500,
    });
    for (const [url, ok] of [
      ['https://api.kriegspiel.org/', 'https://api.kriegspiel.org'],
      ['http://localhost:8000', 'http://localhost:8000'],
      ['http://127.0.0.1:9', 'http://127.0.0.1:9'],
      ['http://kriegspiel.org', undefined],
      ['https://user:pw@api.kriegspiel.org', undefined],
      ['api.kriegspiel.org', undefined],
    ] as const) {
      if (ok) expect(checkServer(url)).toBe(ok);
      else expect(() => checkServer(url)).toThrow(/--server/);
    }
  });

  it("plays on the clock's time when given no node budget, and loses on time when it runs out", async () => {
    const { site, server } = await ownSite();
    // 4 s on the clock, 1 s a request, no increment: the flag falls after the bot's fourth attempt
    const id = site.addGame({ variant: 'berkeley', botSide: 'white', seed: 31, maxPlies: 100, clock: 4, increment: 0 });
    const lines: string[] = [];
    let last: View | undefined;
    const ended = await new Bot({
      client: new SiteClient({ server, token: site.bot.token, backoffMs: 1 }),
      player: parsePlayerSpec('hs:sample=2'),
      variants: ['berkeley'],
      maxGames: 1,
      backend: 'wasm',
      pollMs: 0,
      log: (l) => lines.push(l),
      onGameOver: (_game, view) => (last = view),
    }).run();
    expect(ended).toBe(1);
    expect(site.games.get(id)!.result).toEqual({ winner: 'black', reason: 'timeout' });
    expect(last!.result).toBe('0-1');
    expect(last!.events.filter((e) => e.type === 'attempt')).toHaveLength(4);
    expect(last!.events).toEqual(asTheSiteSays({ ...viewOf(site.record(id), 'white'), tags: {} }.events));
    expect(lines.at(-2)).toMatch(/ over: black \(timeout\)$/);
  });

  it('gives a move the time the clock allows', () => {
    expect(timeForMove(1500, 10)).toBeCloseTo(1495 / 30 + 8, 6);
    expect(timeForMove(20, 10)).toBeCloseTo(15 / 4, 6);
    expect(timeForMove(3, 10)).toBe(0.05);
  });
});
