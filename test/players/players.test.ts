// The players (host/players, issue 14), on both backends with node budgets (deterministic, quick):
// - every player only ever attempts moves possible on its own board: over seeded games under
//   several rule sets, no attempt of any player is answered Nonsense (and none is repeated in a turn);
// - no player reads hidden state: two games whose hidden moves differ but whose views for the
//   player are equal get the same choice from it (the player API gives it nothing else);
// - a player is deterministic given its seed and budget, and the same on WASM and JS.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type BackendName } from '../../host/node';
import { preset } from '../../host/record/rules';
import { randomGame, seededRandom } from '../../host/referee/game';
import { viewOf, type GameRecord, type Side, type RecordEvent } from '../../host/record/record';
import { START_FEN } from '../../host/notation/fen';
import { makeRecordKpgn } from '../../host/notation/kpgn';
import { parseUci, attemptCode, makeUci } from '../../host/notation/move';
import { answerAttempt } from '../../host/core/referee';
import { runGame } from '../../host/players/game';
import { GameSession } from '../../host/referee/session';
import { PlayerEngines, createPlayerEngine } from '../../host/players/engines.node';
import { parsePlayerSpec, playerFactory, PLAYER_NAMES } from '../../host/players/registry';
import { turnOf, triedThisTurn, type Player, type PlayerSetup } from '../../host/players/player';

const PROGRAMS = PLAYER_NAMES.filter((n) => n !== 'human');
const FULL = !!process.env.KRIEG_PLAYERS_FULL;
/** Games per player in the own-board sweep on WASM (KRIEG_PLAYERS_FULL=1: 60). */
const SWEEP_GAMES = FULL ? 60 : 6;
/**
 * The sweep's games each player replays on JS, where its record and counters must equal WASM's (so
 * its attempts are the ones checked there, answer for answer). The JS core is the same source, about
 * 3 times slower: one game a player, rotated so that the players between them replay every rule set
 * (the slow samplers the shortest games); KRIEG_PLAYERS_FULL=1: all 60.
 */
const jsReplays = (player: number): number[] =>
  FULL ? Array.from({ length: SWEEP_GAMES }, (_, i) => i + 1) : [1 + ((player + 2) % 4)];
const BUDGET = { nodes: 1500 };

function makePlayer(
  name: string,
  side: Side,
  seed: number,
  engines: PlayerEngines,
  rules = preset('berkeley'),
): Player {
  const spec = parsePlayerSpec(name);
  const setup: PlayerSetup = { side, rules, start: START_FEN, seed, budget: BUDGET, options: spec.options };
  return playerFactory(spec)(setup, engines.for(side, rules));
}

/** Every attempt of `side` in the record: none Nonsense, none repeated within its turn. */
function checkAttempts(record: GameRecord, side: Side): number {
  let tried = new Set<string>();
  let count = 0;
  for (const e of record.events) {
    if (e.type !== 'attempt') continue;
    if (e.side !== side) {
      tried = new Set();
      continue;
    }
    count++;
    expect(e.percept.answer, `${side} attempt ${e.attempt}`).not.toBe('nonsense');
    expect(tried.has(e.attempt), `${e.attempt} repeated in a turn`).toBe(false);
    tried.add(e.attempt);
    if (e.percept.answer === 'legal') tried = new Set();
  }
  return count;
}

/**
 * The sweep's rule sets, game g under the (g mod 4)-th. Under rand a pawn capture that the announced
 * squares rule out is Nonsense (RAND rules 7 and 10), so a player must rule it out too.
 */
const VARIANTS = ['berkeley', 'wild16', 'cincinnati', 'rand'];

/** The referee and the players' engines of a backend, made once and reused game after game. */
const sweepEngines = new Map<BackendName, { referee: ReturnType<typeof createEngine>; engines: PlayerEngines }>();

interface SweepGame {
  /** The player's side: White in odd games. */
  side: Side;
  record: GameRecord;
  stats: Record<string, number> | undefined;
}

/** Sweep game `game` of player `name` against random (seeded, 16 to 38 plies): its record and the player's counters. */
function sweepGame(backend: BackendName, name: string, game: number): SweepGame {
  let made = sweepEngines.get(backend);
  if (!made)
    sweepEngines.set(backend, (made = { referee: createEngine(backend, 16), engines: new PlayerEngines(backend) }));
  const rules = preset(VARIANTS[game % VARIANTS.length]);
  made.referee.setRules(rules);
  const side: Side = game % 2 ? 'white' : 'black';
  const other: Side = side === 'white' ? 'black' : 'white';
  const players = {
    [side]: makePlayer(name, side, game, made.engines, rules),
    [other]: makePlayer('random', other, 100 + game, made.engines, rules),
  } as Record<Side, Player>;
  const record = runGame(new GameSession(made.referee, { maxPlies: 16 + 2 * (game % 12) }), players);
  return { side, record, stats: players[side].stats?.() };
}

/** WASM's sweep games, played once whichever test asks first. */
const wasmSweep = new Map<string, SweepGame>();
const wasmSweepGame = (name: string, game: number) => {
  const key = `${name} ${game}`;
  if (!wasmSweep.has(key)) wasmSweep.set(key, sweepGame('wasm', name, game));
  return wasmSweep.get(key)!;
};

describe('players on their own boards', () => {
  it.each(PROGRAMS)(
    '%s only attempts moves possible on its own board (seeded games, four rule sets, on WASM)',
    (name) => {
      let attempts = 0;
      for (let game = 1; game <= SWEEP_GAMES; game++) {
        const { side, record } = wasmSweepGame(name, game);
        attempts += checkAttempts(record, side);
      }
      expect(attempts).toBeGreaterThan(40);
    },
  );

  it.each(PROGRAMS.map((name, i) => [name, jsReplays(i)] as const))(
    '%s plays the same sweep games on JS, attempt for attempt and counter for counter (games %j)',
    (name, games) => {
      for (const game of games) {
        const js = sweepGame('js', name, game);
        const wasm = wasmSweepGame(name, game);
        expect(checkAttempts(js.record, js.side), `game ${game}`).toBeGreaterThan(0);
        expect(makeRecordKpgn(js.record), `game ${game}`).toBe(makeRecordKpgn(wasm.record));
        expect(js.stats, `game ${game}`).toEqual(wasm.stats);
      }
    },
  );
});

/**
 * Two records that differ in Black's last (hidden) move but give White the same view: the prefix
 * of a random game up to Black's legal move at ply `ply`, and the same with another legal move of
 * Black that the referee announces alike.
 */
function twinRecords(seed: number, ply: number): [GameRecord, GameRecord] | undefined {
  const engine = createEngine('wasm', 16);
  const record = randomGame(engine, seed, { maxPlies: 200 });
  let plies = 0;
  const cut = record.events.findIndex((e) => e.type === 'attempt' && e.percept.answer === 'legal' && ++plies === ply);
  if (cut < 0) return undefined;
  const moved = record.events[cut] as Extract<RecordEvent, { type: 'attempt' }>;
  if (moved.side !== 'black' || moved.percept.end) return undefined;
  // the position before Black's move
  engine.setFen(0, START_FEN);
  let at = 0;
  for (const e of record.events.slice(0, cut)) {
    if (e.type === 'attempt' && e.percept.answer === 'legal') {
      engine.playUci(at, e.attempt, at ^ 1);
      at ^= 1;
    }
  }
  const heard = (attempt: number) => JSON.stringify(answerAttempt(engine, at, attempt, 4));
  const original = heard(parseUci(moved.attempt)!);
  for (const move of engine.moves(at)) {
    const attempt = attemptCode(move);
    if (attempt === parseUci(moved.attempt) || heard(attempt) !== original) continue;
    const twin: RecordEvent = { ...moved, attempt: makeUci(move) };
    return [
      { ...record, result: '*', events: record.events.slice(0, cut + 1) },
      { ...record, result: '*', events: [...record.events.slice(0, cut), twin] },
    ];
  }
  return undefined;
}

describe('no player reads hidden state', () => {
  const pairs: [GameRecord, GameRecord][] = [];
  for (let seed = 1; pairs.length < 3 && seed < 60; seed++) {
    const pair = twinRecords(seed, 2 * (3 + (seed % 4))); // Black's 3rd to 6th move
    if (pair) pairs.push(pair);
  }

  it('the twin games differ in their hidden moves and give White equal views', () => {
    expect(pairs.length).toBe(3);
    for (const [a, b] of pairs) {
      expect(makeRecordKpgn(a)).not.toBe(makeRecordKpgn(b));
      expect(viewOf(a, 'white')).toEqual(viewOf(b, 'white'));
    }
  });

  describe.each(BACKENDS)('on %s', (backend) => {
    const engines = new PlayerEngines(backend);
    const scratch = createPlayerEngine(backend, 8);
    it.each(PROGRAMS)('%s makes the same choice in both games of every pair', (name) => {
      for (const [i, pair] of pairs.entries()) {
        const choices = pair.map((record) => {
          const player = makePlayer(name, 'white', 7 + i, engines); // a new player on a cleared engine
          const view = viewOf(record, 'white');
          for (const event of view.events) player.observe(event);
          return player.choose(turnOf(view, scratch, 1));
        });
        expect(choices[0], `pair ${i}`).toBe(choices[1]);
        expect(triedThisTurn(viewOf(pair[0], 'white'))).toEqual([]);
      }
    });
  });
});

describe('players are deterministic, and the same on WASM and JS', () => {
  const play = (backend: 'wasm' | 'js', white: string, black: string, seed: number, maxPlies: number) => {
    const referee = createEngine(backend, 16);
    const engines = new PlayerEngines(backend);
    const players = {
      white: makePlayer(white, 'white', seed, engines),
      black: makePlayer(black, 'black', seed + 1, engines),
    };
    return runGame(new GameSession(referee, { maxPlies }), players);
  };
  /** The events of a record up to its `plies`-th legal move. */
  const opening = (record: GameRecord, plies: number) => {
    let moves = 0;
    const end = record.events.findIndex(
      (e) => e.type === 'attempt' && e.percept.answer === 'legal' && ++moves === plies,
    );
    return record.events.slice(0, end + 1);
  };
  const OPENING = 8;

  // each game as short as still crosses an Illegal answer and a capture (checked below): krieg v los,
  // the slowest pair (los's sampling and krieg's search on every move), 10 plies (its first Illegal
  // answer at ply 4, its first capture at 8); aosp v hs 22 (18 and 11); aos v rw 20 (4 and 19)
  it.each([
    ['aosp', 'hs', 22],
    ['krieg', 'los', 10],
    ['aos', 'rw', 20],
  ] as const)('%s v %s: the same game twice, on WASM then JS', (white, black, plies) => {
    const record = play('wasm', white, black, 3, plies);
    const wasm = makeRecordKpgn(record);
    const answers = new Set(record.events.map((e) => (e.type === 'attempt' ? e.percept.answer : e.type)));
    expect([...answers]).toEqual(expect.arrayContaining(['legal', 'illegal']));
    expect(record.events.some((e) => e.type === 'attempt' && e.percept.capture !== undefined)).toBe(true);
    // the same game again, on the other backend, after a game in this process: no clock, no
    // unseeded randomness and no state left from the first game may change it (a second WASM run
    // checked nothing this one does not)
    expect(makeRecordKpgn(play('js', white, black, 3, plies))).toBe(wasm);
    // another seed plays another game, different within its first moves already
    expect(opening(play('wasm', white, black, 4, OPENING), OPENING)).not.toEqual(opening(record, OPENING));
  });
});

describe('the game runner', () => {
  it('tells a player exactly its view, and gives every choice of a turn (Illegal retries too) the same deadline', () => {
    const referee = createEngine('wasm', 16);
    const seen: Record<Side, unknown[]> = { white: [], black: [] };
    const deadlines: { turn: number; deadline: number | undefined }[] = [];
    let turns = 0;
    const probe = (side: Side): Player => ({
      name: `probe-${side}`,
      observe: (event) => {
        seen[side].push(event);
      },
      // the first attempt in file order: often Illegal, so turns have retries
      choose: (turn) => {
        if (turn.tried.length === 0) turns++;
        deadlines.push({ turn: turns, deadline: turn.deadline });
        return turn.attempts[0];
      },
    });
    const record = runGame(
      new GameSession(referee, { maxPlies: 40 }),
      { white: probe('white'), black: probe('black') },
      { timePerMove: 1000 },
    );
    for (const side of ['white', 'black'] as const) expect(seen[side]).toEqual(viewOf(record, side).events);
    expect(deadlines.length).toBeGreaterThan(turns); // some retries
    for (let t = 1; t <= turns; t++) {
      const d = deadlines.filter((x) => x.turn === t).map((x) => x.deadline);
      expect(new Set(d).size, `turn ${t}`).toBe(1);
      expect(d[0]).toBeGreaterThan(0);
    }
  });
});

describe('krieg follows a proven mate', () => {
  it.each(BACKENDS)(
    "from a known queen ending it mates in 3 plies (the strategy followed through the opponent's reply) on %s",
    (backend) => {
      const start = '7k/8/6K1/8/8/8/8/6Q1 w - - 0 1';
      const rules = preset('berkeley');
      const referee = createEngine(backend, 16);
      const engines = new PlayerEngines(backend);
      const setup = (side: Side, seed: number): PlayerSetup => ({
        side,
        rules,
        start,
        seed,
        budget: BUDGET,
        // the endgame technique (host/players/endgame.ts) would answer first against this bare king
        options: parsePlayerSpec(side === 'white' ? 'krieg:endgame=0' : 'random').options,
      });
      const white = playerFactory(parsePlayerSpec('krieg:endgame=0'))(setup('white', 1), engines.for('white', rules));
      const black = playerFactory(parsePlayerSpec('random'))(setup('black', 2), engines.for('black', rules));
      const record = runGame(new GameSession(referee, { start, maxPlies: 20 }), { white, black });
      expect(record.result).toBe('1-0');
      expect(record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal')).toHaveLength(3);
      expect(white.stats!()).toMatchObject({ matesProven: 1, strategyAttempts: 2 });
    },
  );
});

describe("players' JS engines", () => {
  it('are cores of their own: two JS player engines and another JS engine keep their own positions', () => {
    const a = createPlayerEngine('js', 16);
    const b = createPlayerEngine('js', 16);
    const shared = createEngine('js', 16);
    a.setFen(3, '8/8/8/4k3/8/8/8/4K3 w - - 0 1');
    b.setFen(3, START_FEN);
    shared.setFen(3, '7k/8/6K1/8/8/8/8/6Q1 w - - 0 1');
    expect(a.fen(3)).toBe('8/8/8/4k3/8/8/8/4K3 w - - 0 1');
    expect(b.fen(3)).toBe(START_FEN);
    expect(shared.fen(3)).toBe('7k/8/6K1/8/8/8/8/6Q1 w - - 0 1');
    const wasm = createEngine('wasm', 16);
    wasm.setFen(3, a.fen(3));
    expect(a.perft(3, 3, true)).toBe(wasm.perft(3, 3, true));
  });
});

describe('a player that asks "Any?"', () => {
  it.each(['berkeley-any', 'english'])(
    'under %s is offered only the pawn captures it then owes, released as the rules say, and never hears Nonsense',
    (variant) => {
      const rules = preset(variant);
      const referee = createEngine('wasm', 16);
      referee.setRules(rules);
      let asked = 0;
      let late = 0; // asked after an Illegal attempt of the turn
      let yes = 0;
      const asker = (side: Side, random: () => number): Player => ({
        name: `asker-${side}`,
        observe: (event) => {
          if (event.type === 'any' && event.side === side && event.yes) yes++;
        },
        // "Any?" once a turn, at any point of it (before its first attempt or after Illegal ones)
        choose: (turn) => {
          if (turn.canAskAny && (turn.tried.length === 0 ? random() < 0.7 : random() < 0.5)) {
            asked++;
            if (turn.tried.length > 0) late++;
            return 'any';
          }
          return turn.attempts[Math.floor(random() * turn.attempts.length)];
        },
      });
      for (let seed = 1; seed <= 4; seed++) {
        const record = runGame(new GameSession(referee, { maxPlies: 60 }), {
          white: asker('white', seededRandom(seed)),
          black: asker('black', seededRandom(seed + 100)),
        });
        checkAttempts(record, 'white');
        checkAttempts(record, 'black');
      }
      expect(asked).toBeGreaterThan(40);
      expect(late).toBeGreaterThan(3);
      expect(yes).toBeGreaterThan(3);
    },
  );
});
