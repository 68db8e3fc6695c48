// Kriegspiel.org's ks-game saved games (the Python `kriegspiel` package's save_game JSON, schema
// versions 3 to 9) read as krieg records. docs/rules-and-notation.md ("ks-game records") documents the mapping; in
// short, a file is
//   { "schema_version": 9, "library_version": "…", "game_type": "BerkeleyGame",
//     "game_state": { "ruleset_id": "berkeley" | "berkeley_any" | "cincinnati" | "english" | "rand"
//       | "wild16" | "crazykrieg" (absent before schema 5: "any_rule" decides berkeley(_any)),
//       "any_rule", "board_fen", "move_stack": [UCI…], "must_use_pawns", "game_over", "possible_to_ask",
//       "white_scoresheet" / "black_scoresheet": { "color", "moves_own": [turn…], "moves_opponent", "last_move_number" } } }
// where a turn is a list of [question, answer] pairs: question {"question_type": "COMMON" | "ASK_ANY",
// "chess_move": UCI | null}, answer {"main_announcement", "capture_at_square", "captured_piece_announcement",
// "special_announcement", "check_1", "check_2", "next_turn_pawn_tries", "next_turn_has_pawn_capture",
// "next_turn_pawn_try_squares", "promotion_announced", "en_passant_announced", …}.
// Games start from the initial position. The record is the two players' own scoresheets, turn by
// turn (White's turn n, then Black's); the pawn-try announcement carried by a legal move's answer
// is the next turn's. What krieg cannot express is refused with the place and the reason; whether
// every answer is the one krieg's referee gives under the mapped rules is validateRecord's to say.
import { fail } from '../errors';
import { START_FEN } from './fen';
import { locate, parseJson } from './recordJson';
import { preset, withOverrides, type RuleSet, type PresetName } from '../record/rules';
import type { Percept, End } from '../record/percept';
import type { GameRecord, RecordEvent, Side, Result } from '../record/record';
import type { ParsedKpgn, SourcePosition } from './kpgn';

/**
 * ks-game's rule sets as krieg presets with overrides: what ks-game's referee (kriegspiel/rulesets.py,
 * game.py) does where it differs from krieg's preset. Every ks-game rule set ends a game on
 * python-chess's insufficient material (krieg's `dead`) and has no fifty-move or repetition draw;
 * English answers a repeated attempt Illegal again; RAND names the squares where the capturing pawns stand.
 */
export const KS_GAME_RULESETS: Record<
  string,
  { variant: PresetName; overrides: Partial<RuleSet> } | { refused: string }
> = {
  berkeley: { variant: 'berkeley', overrides: { insufficientMaterialDraw: 'dead' } },
  berkeley_any: { variant: 'berkeley-any', overrides: { insufficientMaterialDraw: 'dead' } },
  cincinnati: { variant: 'cincinnati', overrides: { fiftyMoveDraw: false, repetitionDraw: false } },
  english: { variant: 'english', overrides: { repeatIsNonsense: false, fiftyMoveDraw: false, repetitionDraw: false } },
  rand: { variant: 'rand', overrides: { pawnTries: 'pawn-squares', fiftyMoveDraw: false, repetitionDraw: false } },
  wild16: { variant: 'wild16', overrides: { fiftyMoveDraw: false, repetitionDraw: false } },
  crazykrieg: {
    refused: 'crazykrieg (Crazyhouse Kriegspiel: captured men are dropped back from reserves) has no krieg rule set',
  },
};

const SCHEMAS = [3, 4, 5, 6, 7, 8, 9];
const MAIN = [
  'IMPOSSIBLE_TO_ASK',
  'ILLEGAL_MOVE',
  'REGULAR_MOVE',
  'CAPTURE_DONE',
  'HAS_ANY',
  'NO_ANY',
  'NONSENSE',
] as const;
/** ks-game's check announcements as krieg's CHECK_* direction bits (the live site's API uses the same codes). */
export const KS_CHECKS: Record<string, number> = {
  CHECK_KNIGHT: 1,
  CHECK_RANK: 2,
  CHECK_FILE: 4,
  CHECK_LONG_DIAGONAL: 8,
  CHECK_SHORT_DIAGONAL: 16,
};
/** ks-game's game-ending special announcements as krieg's game ends and results. */
export const KS_ENDS: Record<string, { end: End; result: Result }> = {
  CHECKMATE_WHITE_WINS: { end: 'checkmate', result: '1-0' },
  CHECKMATE_BLACK_WINS: { end: 'checkmate', result: '0-1' },
  STALEMATE_WHITE_WINS: { end: 'stalemate', result: '1-0' },
  STALEMATE_BLACK_WINS: { end: 'stalemate', result: '0-1' },
  DRAW_STALEMATE: { end: 'stalemate', result: '1/2-1/2' },
  DRAW_INSUFFICIENT: { end: 'draw-material', result: '1/2-1/2' },
};
const SPECIALS = [
  'NONE',
  'CHECK_DOUBLE',
  'DRAW_TOOMANYREVERSIBLEMOVES',
  ...Object.keys(KS_CHECKS),
  ...Object.keys(KS_ENDS),
];
const UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

/** Does this text look like a ks-game save (rather than krieg's own JSON)? */
export function isKsGameText(text: string): boolean {
  const head = text.slice(0, 4096);
  return (
    /^\s*[[{]/.test(head) && /"(schema_version|game_state)"\s*:/.test(head) && !/"format"\s*:\s*"krieg-/.test(head)
  );
}

class Doc {
  constructor(private where: Map<string, SourcePosition>) {}
  at(path: string): SourcePosition {
    let key = path;
    while (!this.where.has(key) && key.includes('.')) key = key.slice(0, key.lastIndexOf('.'));
    return this.where.get(key) ?? { line: 1, column: 1 };
  }
  fail(path: string, reason: string): never {
    throw fail('bad-ks-game', { ...this.at(path), path, reason });
  }
  refuse(path: string, reason: string): never {
    throw fail('ks-game-unmapped', { ...this.at(path), path, reason });
  }
  object(v: unknown, path: string): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      this.fail(path, `expected an object, found ${shown(v)}`);
    return v as Record<string, unknown>;
  }
  list(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.fail(path, `expected a list, found ${shown(v)}`);
    return v;
  }
  text(v: unknown, path: string): string {
    if (typeof v !== 'string') this.fail(path, v === undefined ? 'missing' : `expected a string, found ${shown(v)}`);
    return v;
  }
  oneOf<T extends string>(v: unknown, choices: readonly T[], path: string): T {
    if (!choices.includes(v as T)) this.fail(path, `expected one of ${choices.join(', ')}, found ${shown(v)}`);
    return v as T;
  }
  square(v: unknown, path: string): number {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 63)
      this.fail(path, `expected a square number 0-63, found ${shown(v)}`);
    return v as number;
  }
}

const shown = (v: unknown) => (v === undefined ? 'nothing' : (JSON.stringify(v)?.slice(0, 40) ?? String(v)));

/** The rules a ks-game document's ruleset maps to (or a refusal naming what cannot be mapped). */
function rulesOf(
  d: Doc,
  state: Record<string, unknown>,
  path: string,
): { rules: RuleSet; id: string; variant: PresetName } {
  let id = state.ruleset_id;
  if (id === undefined || id === null) {
    if (typeof state.any_rule !== 'boolean') d.fail(`${path}.any_rule`, 'expected true or false (no ruleset_id)');
    id = state.any_rule ? 'berkeley_any' : 'berkeley';
  }
  const name = d.text(id, `${path}.ruleset_id`);
  const mapped = ksGameRules(name);
  if ('refused' in mapped) d.refuse(`${path}.ruleset_id`, mapped.refused);
  return { ...mapped, id: name };
}

/** The krieg rules of ks-game ruleset (the site's rule variant) `name`, or why krieg cannot play it. */
export function ksGameRules(name: string): { rules: RuleSet; variant: PresetName } | { refused: string } {
  const mapped = Object.hasOwn(KS_GAME_RULESETS, name) ? KS_GAME_RULESETS[name] : undefined;
  if (!mapped)
    return {
      refused: `unknown ks-game ruleset ${shown(name)} (krieg maps ${Object.keys(KS_GAME_RULESETS)
        .filter((k) => !('refused' in KS_GAME_RULESETS[k]))
        .join(', ')})`,
    };
  if ('refused' in mapped) return mapped;
  return { rules: withOverrides(preset(mapped.variant), mapped.overrides), variant: mapped.variant };
}

/** The percept of a COMMON question's answer. */
function perceptOf(d: Doc, a: Record<string, unknown>, path: string, main: (typeof MAIN)[number]): Percept {
  if (main === 'ILLEGAL_MOVE') return { answer: 'illegal' };
  // Impossible (Berkeley's Nonsense, not recorded by ks-game) and Nonsense are both krieg's Nonsense
  if (main === 'NONSENSE' || main === 'IMPOSSIBLE_TO_ASK') return { answer: 'nonsense' };
  const p: Percept = { answer: 'legal' };
  const capture = a.capture_at_square;
  if (main === 'CAPTURE_DONE') p.capture = d.square(capture, `${path}.capture_at_square`);
  else if (capture !== undefined && capture !== null)
    d.fail(`${path}.capture_at_square`, 'a capture square on a move that captured nothing (REGULAR_MOVE)');
  const kind = a.captured_piece_announcement;
  if (kind !== undefined && kind !== null) {
    if (kind !== 'PAWN' && kind !== 'PIECE')
      d.refuse(
        `${path}.captured_piece_announcement`,
        `the captured man named exactly (${shown(kind)}): krieg announces a pawn or a piece`,
      );
    if (p.capture === undefined) d.fail(`${path}.captured_piece_announcement`, 'a captured man without a capture');
    p.captured = kind === 'PAWN' ? 'pawn' : 'piece';
  }
  if (a.dropped_piece_announcement !== undefined && a.dropped_piece_announcement !== null)
    d.refuse(`${path}.dropped_piece_announcement`, 'a piece dropped from the reserve (crazykrieg)');
  if (a.en_passant_announced === true) p.enPassant = true;
  if (a.promotion_announced === true) p.promotion = true;
  const special = d.oneOf(a.special_announcement ?? 'NONE', SPECIALS, `${path}.special_announcement`);
  if (special === 'CHECK_DOUBLE') {
    const bits =
      KS_CHECKS[d.oneOf(a.check_1, Object.keys(KS_CHECKS), `${path}.check_1`)] |
      KS_CHECKS[d.oneOf(a.check_2, Object.keys(KS_CHECKS), `${path}.check_2`)];
    p.check = true;
    p.directions = bits;
  } else if (special in KS_CHECKS) {
    p.check = true;
    p.directions = KS_CHECKS[special];
  } else if (special in KS_ENDS) p.end = KS_ENDS[special].end;
  else if (special === 'DRAW_TOOMANYREVERSIBLEMOVES')
    d.refuse(
      `${path}.special_announcement`,
      "ks-game's draw after 2,000 half-moves without capture or pawn move has no krieg rule",
    );
  return p;
}

/** The pawn-try announcement a legal move's answer carries for the next turn, as the rules announce it. */
function triesOf(
  d: Doc,
  a: Record<string, unknown>,
  path: string,
  rules: RuleSet,
  side: Side,
): RecordEvent | undefined {
  const missing = (field: string): never =>
    d.fail(`${path}.${field}`, `the ${rules.pawnTries} pawn-try announcement for ${side}'s turn is missing`);
  if (rules.pawnTries === 'count') {
    const n = a.next_turn_pawn_tries;
    if (n === undefined || n === null) missing('next_turn_pawn_tries');
    if (!Number.isInteger(n) || (n as number) < 0)
      d.fail(`${path}.next_turn_pawn_tries`, `expected a count, found ${shown(n)}`);
    return { type: 'pawn-tries', side, count: n as number };
  }
  if (rules.pawnTries === 'exists') {
    const yes = a.next_turn_has_pawn_capture;
    if (yes === undefined || yes === null) missing('next_turn_has_pawn_capture');
    if (typeof yes !== 'boolean')
      d.fail(`${path}.next_turn_has_pawn_capture`, `expected true or false, found ${shown(yes)}`);
    return { type: 'pawn-tries', side, exists: yes };
  }
  if (rules.pawnTries === 'pawn-squares') {
    const list = a.next_turn_pawn_try_squares;
    if (list === undefined || list === null) missing('next_turn_pawn_try_squares');
    const squares = d
      .list(list, `${path}.next_turn_pawn_try_squares`)
      .map((sq, k) => d.square(sq, `${path}.next_turn_pawn_try_squares.${k}`));
    return { type: 'pawn-tries', side, squares: [...new Set(squares)].sort((x, y) => x - y) };
  }
  return undefined;
}

/** The initial position's pawn tries (no pawn capture is possible there), announced before White's first turn. */
export function initialTries(rules: RuleSet): RecordEvent | undefined {
  if (rules.pawnTries === 'count') return { type: 'pawn-tries', side: 'white', count: 0 };
  if (rules.pawnTries === 'exists') return { type: 'pawn-tries', side: 'white', exists: false };
  if (rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares')
    return { type: 'pawn-tries', side: 'white', squares: [] };
  return undefined;
}

function readDocument(d: Doc, doc: unknown, prefix: string): ParsedKpgn {
  const o = d.object(doc, prefix.slice(0, -1));
  const version = o.schema_version;
  if (!SCHEMAS.includes(version as number))
    d.refuse(
      `${prefix}schema_version`,
      `schema_version ${shown(version)} (krieg reads ks-game schema versions ${SCHEMAS[0]} to ${SCHEMAS[SCHEMAS.length - 1]})`,
    );
  if (o.game_type !== 'BerkeleyGame')
    d.fail(`${prefix}game_type`, `expected "BerkeleyGame", found ${shown(o.game_type)}`);
  const statePath = `${prefix}game_state`;
  const state = d.object(o.game_state, statePath);
  const { rules, id, variant } = rulesOf(d, state, statePath);
  const sheets = { white: `${statePath}.white_scoresheet`, black: `${statePath}.black_scoresheet` } as const;
  const turns = { white: [] as unknown[], black: [] as unknown[] };
  for (const side of ['white', 'black'] as const) {
    const sheet = d.object(state[`${side}_scoresheet`], sheets[side]);
    if (sheet.color !== side.toUpperCase())
      d.fail(`${sheets[side]}.color`, `expected "${side.toUpperCase()}", found ${shown(sheet.color)}`);
    turns[side] = d.list(sheet.moves_own, `${sheets[side]}.moves_own`);
  }
  const events: RecordEvent[] = [];
  const positions: SourcePosition[] = [];
  const push = (e: RecordEvent, path: string) => {
    events.push(e);
    positions.push(d.at(path));
  };
  const first = initialTries(rules);
  if (first) push(first, `${sheets.white}.moves_own`);
  const moves: string[] = [];
  let result: Result = '*';
  let resultAt: SourcePosition | undefined;
  let ended = '';
  let open = ''; // a turn without a legal move: only the game's last turn may be one
  const count = Math.max(turns.white.length, turns.black.length);
  for (let t = 0; t < count; t++) {
    for (const side of ['white', 'black'] as const) {
      if (t >= turns[side].length) continue;
      const turnPath = `${sheets[side]}.moves_own.${t}`;
      if (ended) d.fail(turnPath, `${side} plays on after the game ended (${ended})`);
      if (open) d.fail(turnPath, `${side}'s turn ${t + 1} follows a turn without a legal move (${open})`);
      const pairs = d.list(turns[side][t], turnPath);
      if (pairs.length === 0) d.fail(turnPath, 'an empty turn');
      let moved = false;
      pairs.forEach((pair, k) => {
        const path = `${turnPath}.${k}`;
        const both = d.list(pair, path);
        if (both.length !== 2) d.fail(path, 'expected a [question, answer] pair');
        const [q, a] = both;
        const question = d.object(q, `${path}.0`);
        const answer = d.object(a, `${path}.1`);
        if (moved) d.fail(path, `${side}'s turn goes on after its legal move`);
        const type = d.oneOf(question.question_type, ['COMMON', 'ASK_ANY'] as const, `${path}.0.question_type`);
        const main = d.oneOf(answer.main_announcement, MAIN, `${path}.1.main_announcement`);
        if (type === 'ASK_ANY') {
          if (main !== 'HAS_ANY' && main !== 'NO_ANY')
            d.fail(`${path}.1.main_announcement`, `"Any?" answered ${main} (expected HAS_ANY or NO_ANY)`);
          push({ type: 'any', side, yes: main === 'HAS_ANY' }, path);
          return;
        }
        if (main === 'HAS_ANY' || main === 'NO_ANY') d.fail(`${path}.1.main_announcement`, `a move answered ${main}`);
        const uci = d.text(question.chess_move, `${path}.0.chess_move`);
        if (!UCI.test(uci))
          d.refuse(
            `${path}.0.chess_move`,
            `${shown(uci)} is not a board move in UCI (drops and null moves have no krieg form)`,
          );
        const percept = perceptOf(d, answer, `${path}.1`, main);
        push({ type: 'attempt', side, attempt: uci, percept }, path);
        if (percept.answer !== 'legal') return;
        moved = true;
        moves.push(uci);
        const special = answer.special_announcement as string;
        if (percept.end) {
          ended = `${special} after ${side}'s ${uci}`;
          result = KS_ENDS[special].result;
          resultAt = d.at(`${path}.1.special_announcement`);
          return;
        }
        const tries = triesOf(d, answer, `${path}.1`, rules, side === 'white' ? 'black' : 'white');
        if (tries) push(tries, `${path}.1`);
      });
      if (!moved && !ended) open = `${side}'s turn ${t + 1}`;
    }
  }
  // ks-game checks its move stack against the scoresheets on loading; so does krieg
  const stack = state.move_stack;
  if (stack !== undefined) {
    const list = d.list(stack, `${statePath}.move_stack`);
    list.forEach((m, i) => {
      if (m !== moves[i])
        d.fail(`${statePath}.move_stack.${i}`, `move ${i + 1} is ${shown(m)}, the scoresheets say ${shown(moves[i])}`);
    });
    if (list.length !== moves.length)
      d.fail(`${statePath}.move_stack`, `${list.length} moves, the scoresheets hold ${moves.length}`);
  }
  const tags: Record<string, string> = { Source: 'ks-game', KsGameRuleset: id, KsGameSchema: String(version) };
  if (typeof o.library_version === 'string') tags.KsGameLibrary = o.library_version;
  const record: GameRecord = { rules, start: START_FEN, white: '?', black: '?', result, tags, events };
  const mismatchNote = `ks-game's ${id} referee answered otherwise than krieg's ${variant} with the mapped rules: this game cannot be mapped`;
  return { kind: 'record', record, positions, resultAt, endWithoutCheck: true, mismatchNote };
}

/** Parses a ks-game save file: one game, or (krieg's extension) a JSON list of them. */
export function parseKsGameGames(text: string): ParsedKpgn[] {
  const doc = parseJson(text);
  const d = new Doc(locate(text));
  if (Array.isArray(doc)) {
    if (doc.length === 0) d.fail('', 'no game found (an empty list)');
    return doc.map((g, i) => readDocument(d, g, `${i}.`));
  }
  return [readDocument(d, doc, '')];
}

/** Parses a ks-game save file holding exactly one game. */
export function parseKsGame(text: string): ParsedKpgn {
  const games = parseKsGameGames(text);
  if (games.length !== 1)
    throw fail('bad-ks-game', { line: 1, column: 1, reason: `expected one game, found ${games.length}` });
  return games[0];
}
