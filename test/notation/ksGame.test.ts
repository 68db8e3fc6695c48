// Kriegspiel.org's ks-game saves read as krieg records (issue #18 §6). The fixtures in
// test/data/ks-game/ are games written for these tests in ks-game's format (schema 9, as its
// serialization.py writes them), one or more per rule set krieg maps. Each must parse to the
// mapped rules, replay through krieg's referee (validateRecord, both backends) AND through the
// independent chessops referee (test/referee/replay.ts), and give each player a belief that holds
// the true position. Damaged and unmappable files are refused with one line naming the place.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, BACKENDS } from '../../host/node';
import { preset, withOverrides, describeRules } from '../../host/record/rules';
import { parseKsGame, parseKsGameGames, isKsGameText, KS_GAME_RULESETS } from '../../host/notation/ksGame';
import { validateRecord } from '../../host/referee/validate';
import { viewOf, type GameRecord, type Side } from '../../host/record/record';
import { estimateBelief } from '../../host/belief/estimate';
import { KriegError } from '../../host/errors';
import { verifyRecord } from '../referee/replay';
import { ROOT, expectOneLine, krieg as runKrieg } from '../lib/cli';

const DATA = join(ROOT, 'test/data/ks-game');
const read = (name: string) => readFileSync(join(DATA, name), 'utf8');

const FIXTURES = [
  { file: 'berkeley-any-mate.json', ruleset: 'berkeley_any', plies: 4, result: '0-1' },
  { file: 'berkeley-any-open.json', ruleset: 'berkeley_any', plies: 13, result: '*' },
  { file: 'berkeley.json', ruleset: 'berkeley', plies: 10, result: '*' },
  { file: 'cincinnati.json', ruleset: 'cincinnati', plies: 10, result: '*' },
  { file: 'english.json', ruleset: 'english', plies: 11, result: '*' },
  { file: 'english-repeat.json', ruleset: 'english', plies: 3, result: '*' },
  { file: 'rand.json', ruleset: 'rand', plies: 8, result: '*' },
  { file: 'wild16.json', ruleset: 'wild16', plies: 10, result: '*' },
] as const;

const record = (text: string): GameRecord => {
  const parsed = parseKsGame(text);
  if (parsed.kind !== 'record') throw new Error('a view');
  return parsed.record;
};

describe('reading ks-game saves', () => {
  it("detects the format, and not krieg's own JSON", () => {
    for (const { file } of FIXTURES) expect(isKsGameText(read(file)), file).toBe(true);
    expect(isKsGameText(`[${read('wild16.json')}]`)).toBe(true);
    expect(isKsGameText('{"format": "krieg-record", "version": 1}')).toBe(false);
    expect(isKsGameText('[Variant "berkeley"]\n')).toBe(false);
  });

  it.each(FIXTURES)(
    "$file: $ruleset maps to krieg's rules, $plies plies, result $result",
    ({ file, ruleset, plies, result }) => {
      const r = record(read(file));
      const mapped = KS_GAME_RULESETS[ruleset] as { variant: string; overrides: object };
      expect(r.rules).toEqual(withOverrides(preset(mapped.variant), mapped.overrides as Record<string, unknown>));
      expect(describeRules(r.rules).variant).toBe(mapped.variant);
      expect(r.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal')).toHaveLength(plies);
      expect(r.result).toBe(result);
      expect(r.tags).toMatchObject({ Source: 'ks-game', KsGameRuleset: ruleset, KsGameSchema: '9' });
    },
  );

  it("maps each rule set as ks-game plays it (its draws, English repeats, RAND's pawn squares); crazykrieg is refused", () => {
    const rules = (id: string) =>
      withOverrides(
        preset((KS_GAME_RULESETS[id] as { variant: string }).variant as 'berkeley'),
        (KS_GAME_RULESETS[id] as { overrides: Record<string, unknown> }).overrides,
      );
    for (const id of ['berkeley', 'berkeley_any', 'cincinnati', 'english', 'rand', 'wild16']) {
      expect(rules(id).insufficientMaterialDraw, id).toBe('dead'); // python-chess's is_insufficient_material
      expect(rules(id).fiftyMoveDraw || rules(id).repetitionDraw, id).toBe(false);
    }
    expect(rules('english').repeatIsNonsense).toBe(false);
    expect(rules('rand')).toMatchObject({
      pawnTries: 'pawn-squares',
      pawnTryNonsense: true,
      stalemate: 'loss',
      promotionAnnounced: true,
    });
    expect(rules('wild16')).toMatchObject({ illegalHeardBy: 'mover', pawnTries: 'count' });
    expect(rules('cincinnati')).toMatchObject({
      pawnTries: 'exists',
      pawnTryNonsense: true,
      captureDetail: 'square+kind',
    });
    expect(KS_GAME_RULESETS.crazykrieg).toHaveProperty('refused');
  });

  it('reads the announcements ks-game makes: Any? where asked, e.p. on the landing square, pawn squares, counts', () => {
    const english = record(read('english.json'));
    const anyAt = english.events.findIndex((e) => e.type === 'any' && e.side === 'white');
    expect(english.events[anyAt]).toEqual({ type: 'any', side: 'white', yes: true });
    expect(english.events[anyAt + 1]).toMatchObject({ attempt: 'e5f6', percept: { answer: 'illegal' } });
    expect(english.events[anyAt + 2]).toMatchObject({
      attempt: 'e5d6',
      percept: { answer: 'legal', capture: 43, enPassant: true },
    });
    const late = record(read('berkeley-any-open.json'))
      .events.filter((e) => e.side === 'white')
      .slice(0, 4);
    expect(late.map((e) => (e.type === 'attempt' ? `${e.attempt} ${e.percept.answer}` : e.type))).toEqual([
      'e2e4 legal',
      'e4f5 illegal',
      'any',
      'e4d5 legal',
    ]);
    const rand = record(read('rand.json'));
    expect(rand.events.filter((e) => e.type === 'pawn-tries').slice(0, 3)).toEqual([
      { type: 'pawn-tries', side: 'white', squares: [] },
      { type: 'pawn-tries', side: 'black', squares: [] },
      { type: 'pawn-tries', side: 'white', squares: [28] }, // the pawn on e4 can take
    ]);
    expect(rand.events.find((e) => e.type === 'attempt' && e.attempt === 'a2b3')).toMatchObject({
      percept: { answer: 'nonsense' },
    });
    const wild = record(read('wild16.json'));
    expect(wild.events.filter((e) => e.type === 'pawn-tries').map((e) => e.type === 'pawn-tries' && e.count)).toContain(
      1,
    );
  });

  it('reads a list of saves as several games', () => {
    const games = parseKsGameGames(`[${read('rand.json')}, ${read('wild16.json')}]`);
    expect(games.map((g) => g.kind === 'record' && g.record.tags.KsGameRuleset)).toEqual(['rand', 'wild16']);
  });
});

describe.each(BACKENDS)('ks-game records on %s', (backend) => {
  const engine = createEngine(backend, 1 << 16);

  it.each(FIXTURES)(
    "$file replays through krieg's referee and the independent one, and each belief holds the true position",
    ({ file, plies }) => {
      const parsed = parseKsGame(read(file));
      if (parsed.kind !== 'record') throw new Error('a view');
      const validated = validateRecord(engine, parsed.record, parsed.positions, parsed.startAt, parsed);
      verifyRecord(validated, validated.result === '*' ? plies : 1000, new Map());
      // the true position, replayed
      engine.setFen(8, validated.start);
      let h = 8;
      for (const e of validated.events)
        if (e.type === 'attempt' && e.percept.answer === 'legal') {
          engine.playUci(h, e.attempt, h ^ 1);
          h ^= 1;
        }
      const truth = engine.key(h);
      for (const as of ['white', 'black'] as Side[]) {
        const belief = estimateBelief(engine, viewOf(validated, as), 'bfs', { positions: 60_000 });
        expect(belief.outcome, `${file} as ${as}`).toBe('complete');
        expect(
          belief.handles.map((k) => engine.key(k)),
          `${file}: the true position in ${as}'s belief`,
        ).toContain(truth);
      }
    },
  );

  it("completes a mate's check from the referee (ks-game announces only the end)", () => {
    const parsed = parseKsGame(read('berkeley-any-mate.json'));
    if (parsed.kind !== 'record') throw new Error('a view');
    const last = parsed.record.events[parsed.record.events.length - 1];
    expect(last).toMatchObject({ attempt: 'd8h4', percept: { answer: 'legal', end: 'checkmate' } });
    expect(last.type === 'attempt' && last.percept.check).toBeUndefined();
    const validated = validateRecord(engine, parsed.record, parsed.positions, parsed.startAt, parsed);
    expect(validated.events[validated.events.length - 1]).toMatchObject({
      percept: { check: true, directions: 16, end: 'checkmate' },
    }); // Qh4: the short diagonal
  });
});

// ---- damaged and unmappable files ----

type Doc = { game_state: Record<string, any>; [k: string]: any };
const doc = (name: string): Doc => JSON.parse(read(name));
const white = (d: Doc) => d.game_state.white_scoresheet.moves_own;

/** Each case: a file made from a fixture, and what the one-line refusal must say. */
const BROKEN: { name: string; text: () => string; code: string; says: RegExp }[] = [
  {
    name: 'crazykrieg.json',
    code: 'ks-game-unmapped',
    says: /line 6, column 19 \(ks-game game_state\.ruleset_id\): cannot be read as a krieg record: crazykrieg \(Crazyhouse Kriegspiel/,
    text: () => read('berkeley-any-mate.json').replace('"ruleset_id": "berkeley_any"', '"ruleset_id": "crazykrieg"'),
  },
  {
    name: 'unknown-ruleset.json',
    code: 'ks-game-unmapped',
    says: /unknown ks-game ruleset "dark_chess" \(krieg maps berkeley, berkeley_any, cincinnati, english, rand, wild16\)/,
    text: () => read('rand.json').replace('"ruleset_id": "rand"', '"ruleset_id": "dark_chess"'),
  },
  {
    name: 'schema.json',
    code: 'ks-game-unmapped',
    says: /\(ks-game schema_version\): cannot be read as a krieg record: schema_version 2 \(krieg reads ks-game schema versions 3 to 9\)/,
    text: () => read('rand.json').replace('"schema_version": 9', '"schema_version": 2'),
  },
  {
    name: 'game-type.json',
    code: 'bad-ks-game',
    says: /\(ks-game game_type\): expected "BerkeleyGame", found "ChessGame"/,
    text: () => read('rand.json').replace('"game_type": "BerkeleyGame"', '"game_type": "ChessGame"'),
  },
  {
    name: 'exact-capture.json',
    code: 'ks-game-unmapped',
    says: /captured_piece_announcement\): cannot be read as a krieg record: the captured man named exactly \("KNIGHT"\)/,
    text: () => {
      const d = doc('cincinnati.json');
      white(d)[1][0][1].captured_piece_announcement = 'KNIGHT';
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'thousand-moves.json',
    code: 'ks-game-unmapped',
    says: /special_announcement\): cannot be read as a krieg record: ks-game's draw after 2,000 half-moves/,
    text: () => {
      const d = doc('wild16.json');
      white(d)[4][0][1].special_announcement = 'DRAW_TOOMANYREVERSIBLEMOVES';
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'drop.json',
    code: 'ks-game-unmapped',
    says: /chess_move\): cannot be read as a krieg record: "N@e4" is not a board move in UCI/,
    text: () => {
      const d = doc('wild16.json');
      white(d)[0][0][0].chess_move = 'N@e4';
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'move-stack.json',
    code: 'bad-ks-game',
    says: /\(ks-game game_state\.move_stack\.2\): move 3 is "b1c3", the scoresheets say "e4f5"/,
    text: () => {
      const d = doc('rand.json');
      d.game_state.move_stack[2] = 'b1c3';
      white(d)[1] = [white(d)[1][0], white(d)[1][2]];
      white(d)[1][1][0].chess_move = 'e4f5';
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'after-move.json',
    code: 'bad-ks-game',
    says: /white's turn goes on after its legal move/,
    text: () => {
      const d = doc('wild16.json');
      white(d)[0].push(white(d)[0][0]);
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'missing-tries.json',
    code: 'bad-ks-game',
    says: /the count pawn-try announcement for black's turn is missing/,
    text: () => {
      const d = doc('wild16.json');
      white(d)[0][0][1].next_turn_pawn_tries = null;
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'bad-square.json',
    code: 'bad-ks-game',
    says: /capture_at_square\): expected a square number 0-63, found 64/,
    text: () => {
      const d = doc('cincinnati.json');
      white(d)[1][0][1].capture_at_square = 64;
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'no-scoresheet.json',
    code: 'bad-ks-game',
    says: /\(ks-game game_state\.black_scoresheet\): expected an object, found nothing/,
    text: () => {
      const d = doc('rand.json');
      delete d.game_state.black_scoresheet;
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'syntax.json',
    code: 'bad-json',
    says: /line 3, column \d+: invalid JSON/,
    text: () => read('rand.json').replace('"library_version": "1.7.3",', '"library_version": "1.7.3",,'),
  },
  // answers krieg's referee gives otherwise: refused by validateRecord, with the place and a note
  {
    name: 'wrong-capture.json',
    code: 'record-mismatch',
    says: /the referee gives white's e4d5 answered legal \{d5p,\}, the record says white's e4d5 answered legal \{d4p,\} \(ks-game's cincinnati referee answered otherwise than krieg's cincinnati with the mapped rules: this game cannot be mapped\)/,
    text: () => {
      const d = doc('cincinnati.json');
      white(d)[1][0][1].capture_at_square = 27;
      return JSON.stringify(d, null, 2);
    },
  },
  {
    name: 'impossible-illegal.json',
    code: 'record-mismatch',
    says: /the referee gives white's e1e3 answered nonsense, the record says white's e1e3 answered illegal \(ks-game's english referee/,
    // ks-game's English answers a move impossible on the own board ILLEGAL_MOVE, heard by both: krieg's English calls it Nonsense
    text: () => {
      const d = doc('english-repeat.json');
      white(d)[0].unshift([{ question_type: 'COMMON', chess_move: 'e1e3' }, { ...white(d)[1][0][1] }]);
      return JSON.stringify(d, null, 2);
    },
  },
];

describe('refusing what cannot be read', () => {
  const engine = createEngine('wasm', 1 << 12);
  it.each(BROKEN)('$name: $code', ({ text, code, says }) => {
    const attempt = () => {
      const parsed = parseKsGame(text());
      if (parsed.kind === 'record') validateRecord(engine, parsed.record, parsed.positions, parsed.startAt, parsed);
    };
    let error: unknown;
    try {
      attempt();
    } catch (e) {
      error = e;
    }
    expect(error, 'refused').toBeInstanceOf(KriegError);
    expect((error as KriegError).code).toBe(code);
    expect((error as KriegError).message).toMatch(says);
    expect((error as KriegError).message).not.toContain('\n');
  });
});

describe('krieg view, belief and solve read ks-game files', () => {
  let DIR = '';
  const krieg = (args: string[]) => runKrieg(args, DIR);
  beforeAll(() => {
    DIR = mkdtempSync(join(tmpdir(), 'krieg-ks-'));
    for (const b of BROKEN) writeFileSync(join(DIR, b.name), b.text());
    writeFileSync(join(DIR, 'two.json'), `[${read('rand.json')},${read('wild16.json')}]`);
  });
  afterAll(() => {
    if (DIR) rmSync(DIR, { recursive: true, force: true });
  });

  it("view: each player's view in KPGN, from the file as ks-game wrote it", async () => {
    const run = await krieg(['view', join(DATA, 'english.json'), '--as', 'black']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('[Variant "english"]');
    expect(run.stdout).toContain('[Rules "repeatIsNonsense=false fiftyMoveDraw=false repetitionDraw=false"]');
    expect(run.stdout).toContain('[Source "ks-game"]');
    expect(run.stdout).toContain('3. ?? {d6ep,:1;A+}'); // White asked "Any?" (heard: English), one Illegal try, e.p. on d6
    const second = await krieg(['view', 'two.json', '--as', 'white', '--game', '2', '--format', 'json']);
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ format: 'krieg-view', variant: 'wild16', as: 'white' });
  });

  it('belief and solve: the belief at the end of a ks-game game', async () => {
    const belief = await krieg(['belief', join(DATA, 'rand.json'), '--as', 'white', '--json']);
    expect(belief.status, belief.stderr).toBe(0);
    expect(JSON.parse(belief.stdout)).toMatchObject({ as: 'white', complete: true, count: expect.any(Number) });
    expect(JSON.parse(belief.stdout).count).toBeGreaterThan(0);
    const solve = await krieg(['solve', join(DATA, 'rand.json'), '--as', 'white', '--ply', '1', '--json']);
    expect(solve.status, solve.stderr).toBe(0);
    expect(JSON.parse(solve.stdout)).toMatchObject({ answer: 'disproven' });
  });

  it.each(BROKEN.map((b) => b.name))('refuses %s in one line naming the file (exit 2)', async (name) => {
    const line = expectOneLine(await krieg(['view', name, '--as', 'white']), 2);
    expect(line.startsWith(`krieg: ${name}: line `)).toBe(true);
  });
});
