// Kriegspiel.org's live game state read as a krieg view (docs/online.md). The site's backend is
// open source (github.com/Kriegspiel/ks-backend, read at commit 7d566bcee3c2: src/app/models/game.py
// for the shapes, src/app/services/state_projection.py for how a state is rendered). Its bot API
// hands a player `GET /game/{ref}/state`: his colour, whose turn, the allowed moves, the clock and
// his scoresheet, turn by turn, each side's entries in order:
//   { "kind": "move" | "capture" | "illegal_move" | "ask_any" | "status", "actor": "self" | "opponent",
//     "messages": ["Capture done at E4", "Check on rank", …], "move_uci": his own attempts only, … }
// The answers come as the site's English texts (state_projection's _PUBLIC_ANNOUNCEMENT_TEXT) of the
// codes the ks-game package announces; the codes mean for krieg what they mean in a ks-game save, so
// their mapping is notation/ksGame.ts's (KS_GAME_RULESETS, KS_CHECKS, KS_ENDS), not a second one.
// A "status" entry is the pawn-try announcement made before that side's turn.
//
// What a state cannot mean is an error naming the game: an entry of an unknown kind or text, an
// attempt after the legal move of its turn, a turn after the game's end, a colour or turn that
// contradicts the scoresheet; and SiteGameView refuses a state that contradicts the one before.
import { fail, type KriegError } from '../errors';
import { START_FEN } from '../notation/fen';
import { KS_CHECKS, KS_ENDS, initialTries, ksGameRules } from '../notation/ksGame';
import { other, type Result, type Side, type View, type ViewEvent } from '../record/record';
import type { Percept } from '../record/percept';
import type { RuleSet } from '../record/rules';

/** The site's seven rule variants (ks-backend models/game.py RuleVariant). */
export const SITE_VARIANTS = ['berkeley', 'berkeley_any', 'cincinnati', 'wild16', 'rand', 'english', 'crazykrieg'];
/**
 * The variants a krieg bot plays and advertises: those the contract test (test/online/contract.test.ts)
 * plays whole games of. The others are mapped for saved games (ksGame.ts) but their live texts
 * (pawn-try statuses, captured-piece names) are untested, and crazykrieg has no krieg rules.
 */
export const PLAYED_VARIANTS = ['berkeley', 'berkeley_any'];

/** One entry of a scoresheet turn (ks-backend AnnouncementEntry); older states may hold bare strings. */
export interface SiteEntry {
  kind: 'move' | 'ask_any' | 'illegal_move' | 'capture' | 'status';
  actor?: 'self' | 'opponent' | null;
  prompt?: string | null;
  message: string;
  messages?: string[];
  move_uci?: string | null;
  question_type?: string | null;
}
export interface SiteTurn {
  turn: number;
  white: (SiteEntry | string)[];
  black: (SiteEntry | string)[];
}
export interface SiteClock {
  white_remaining: number;
  black_remaining: number;
  active_color?: Side | null;
}
/** The response of GET /game/{ref}/state (ks-backend GameStateResponse), the fields krieg reads. */
export interface SiteState {
  game_id: string;
  state: 'waiting' | 'active' | 'completed';
  turn?: Side | null;
  move_number: number;
  your_color: Side;
  your_fen?: string;
  allowed_moves: string[];
  scoresheet: { viewer_color: Side; last_move_number: number; turns: SiteTurn[] };
  possible_actions: ('move' | 'ask_any')[];
  result?: { winner?: Side | null; reason?: string } | null;
  clock: SiteClock;
}

/** The site's answer texts (state_projection.py _PUBLIC_ANNOUNCEMENT_TEXT) and the ks-game codes they render. */
const TEXT_CODES: Record<string, string> = {
  'Illegal move': 'ILLEGAL_MOVE',
  'Move complete': 'REGULAR_MOVE',
  'Has pawn captures': 'HAS_ANY',
  'No pawn captures': 'NO_ANY',
  'Draw by too many reversible moves': 'DRAW_TOOMANYREVERSIBLEMOVES',
  'Draw by stalemate': 'DRAW_STALEMATE',
  'Draw by insufficient material': 'DRAW_INSUFFICIENT',
  'Checkmate — White wins': 'CHECKMATE_WHITE_WINS',
  'Checkmate — Black wins': 'CHECKMATE_BLACK_WINS',
  'Stalemate — White wins': 'STALEMATE_WHITE_WINS',
  'Stalemate — Black wins': 'STALEMATE_BLACK_WINS',
  'Check on rank': 'CHECK_RANK',
  'Check on file': 'CHECK_FILE',
  'Check on long diagonal': 'CHECK_LONG_DIAGONAL',
  'Check on short diagonal': 'CHECK_SHORT_DIAGONAL',
  'Check by knight': 'CHECK_KNIGHT',
  'Double check': 'CHECK_DOUBLE',
};
/** Capture texts: "Capture done at E4", "Pawn captured at E4" (captured_piece_announcement), "En passant capture at E4". */
const CAPTURE =
  /^(?:Capture done|(Pawn|Piece|Knight|Bishop|Rook|Queen) captured|(En passant) capture) at ([A-H][1-8])$/;
/** Pawn-try statuses (state_projection.py _next_turn_message). */
const TRIES_SQUARES = /^Pawn tr(?:y|ies) from ([A-H][1-8](?:, [A-H][1-8])*)$/;
const TRIES_COUNT = /^(\d+) pawn tr(?:y|ies)$/;
const UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

const squareOf = (name: string) => (name.charCodeAt(1) - 49) * 8 + (name.toLowerCase().charCodeAt(0) - 97);

/** The krieg rules of a site variant, or an error saying why krieg does not play it. */
export function siteRules(variant: string): RuleSet {
  const mapped = ksGameRules(variant);
  if ('refused' in mapped) throw fail('site-variant', { variant, reason: mapped.refused });
  return mapped.rules;
}

/** A site result ({winner, reason}) as a krieg result. */
export function siteResult(result: SiteState['result']): Result {
  if (!result) return '*';
  if (result.winner === 'white') return '1-0';
  if (result.winner === 'black') return '0-1';
  return '1/2-1/2';
}

class Reader {
  constructor(readonly game: string) {}
  fail(where: string, reason: string): never {
    throw fail('site-state', { game: this.game, where, reason });
  }
}

/** The percept of a move's answer texts, in the rules' vocabulary (what the rules do not announce is not kept). */
function perceptOf(r: Reader, texts: string[], rules: RuleSet, where: string): Percept {
  const p: Percept = { answer: 'legal' };
  let main = '';
  let double = false;
  let directions = 0;
  for (const text of texts) {
    const capture = CAPTURE.exec(text);
    const code = TEXT_CODES[text];
    if (capture) {
      if (main) r.fail(where, `two answers to one attempt ("${main}", "${text}")`);
      main = text;
      p.capture = squareOf(capture[3]);
      const kind = capture[1];
      if (kind && kind !== 'Pawn' && kind !== 'Piece')
        r.fail(where, `"${text}": the captured man named exactly, which krieg's rules never announce`);
      if (kind && rules.captureDetail === 'square+kind') p.captured = kind === 'Pawn' ? 'pawn' : 'piece';
      if (capture[2] && rules.enPassantAnnounced) p.enPassant = true;
    } else if (code === 'ILLEGAL_MOVE' || code === 'REGULAR_MOVE') {
      if (main) r.fail(where, `two answers to one attempt ("${main}", "${text}")`);
      main = text;
      if (code === 'ILLEGAL_MOVE') p.answer = 'illegal';
    } else if (code === 'CHECK_DOUBLE') double = true;
    else if (code in KS_CHECKS) directions |= KS_CHECKS[code];
    else if (code in KS_ENDS) p.end = KS_ENDS[code].end;
    else if (code === 'DRAW_TOOMANYREVERSIBLEMOVES') {
      /* the site's own draw rule: no krieg percept; the state's result ends the game */
    } else if (text === 'Promotion') {
      if (rules.promotionAnnounced) p.promotion = true;
    } else if (/ dropped$/.test(text)) r.fail(where, `"${text}": a piece dropped from the reserve (crazykrieg)`);
    else r.fail(where, `unknown announcement "${text}"`);
  }
  if (!main) r.fail(where, `no answer to the attempt (texts: ${JSON.stringify(texts)})`);
  if (p.answer === 'illegal') {
    if (texts.length > 1) r.fail(where, `an Illegal answer with announcements (${JSON.stringify(texts)})`);
    return { answer: 'illegal' };
  }
  if (double && directions && (directions & (directions - 1)) === 0) r.fail(where, 'a double check with one direction');
  if (directions) {
    p.check = true;
    if (rules.checkDetail === 'directions') p.directions = directions;
  } else if (double) p.check = true;
  return p;
}

/** The pawn-try announcement of a status text, as the rules announce them. */
function triesOf(r: Reader, text: string, rules: RuleSet, side: Side, where: string): ViewEvent {
  const squares = TRIES_SQUARES.exec(text);
  const count = TRIES_COUNT.exec(text);
  const none = text === 'No pawn captures';
  if (rules.pawnTries === 'count' && (none || count)) return { type: 'pawn-tries', side, count: none ? 0 : +count![1] };
  if (rules.pawnTries === 'exists' && (none || text === 'Has pawn capture'))
    return { type: 'pawn-tries', side, exists: !none };
  if ((rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares') && (none || squares)) {
    const list = none ? [] : squares![1].split(', ').map(squareOf);
    return { type: 'pawn-tries', side, squares: [...new Set(list)].sort((a, b) => a - b) };
  }
  return r.fail(where, `"${text}" is no pawn-try announcement of these rules (pawn tries: ${rules.pawnTries})`);
}

/**
 * The view of the player whose state `state` is (game `game`, site variant `variant`): his own
 * attempts and answers, the opponent's turns as heard, the pawn-try and "Any?" announcements the
 * rules make known (an opponent's "Any?", which the site shows, is dropped where krieg's rules
 * keep it secret, as viewOf does). Throws site-state naming the game and the turn on a state that
 * cannot be a game.
 */
export function siteView(state: SiteState, game: string, variant: string): View {
  const r = new Reader(game);
  const rules = siteRules(variant);
  const as = state.your_color;
  if (as !== 'white' && as !== 'black') r.fail('your_color', `expected white or black, found ${String(as)}`);
  if (state.scoresheet?.viewer_color !== as)
    r.fail('scoresheet', `the scoresheet is ${state.scoresheet?.viewer_color}'s, the state ${as}'s`);
  const events: ViewEvent[] = [];
  const first = initialTries(rules);
  if (first) events.push(first);
  let toMove: Side = 'white';
  let ended = '';
  let lastTurn = 0;
  let illegal = 0;
  const heard = rules.illegalHeardBy === 'both';
  for (const turn of state.scoresheet.turns) {
    if (!Number.isInteger(turn.turn) || turn.turn <= lastTurn)
      r.fail(`turn ${turn.turn}`, `turn numbers must rise from 1 (after ${lastTurn})`);
    lastTurn = turn.turn;
    for (const side of ['white', 'black'] as const) {
      const where = `turn ${turn.turn} ${side}`;
      const entries = turn[side] ?? [];
      if (!Array.isArray(entries)) r.fail(where, 'expected a list of entries');
      for (const [k, raw] of entries.entries()) {
        const at = `${where} entry ${k + 1}`;
        if (typeof raw !== 'object' || raw === null)
          r.fail(at, `expected an entry object, found ${JSON.stringify(raw)}`);
        const entry = raw as SiteEntry;
        if (ended) r.fail(at, `an entry after the game ended (${ended})`);
        const texts = Array.isArray(entry.messages) && entry.messages.length ? entry.messages : [entry.message];
        if (entry.kind === 'status') {
          if (texts.length !== 1) r.fail(at, 'a status with several texts');
          events.push(triesOf(r, texts[0], rules, side, at));
          continue;
        }
        if (side !== toMove) r.fail(at, `${side} plays, but ${toMove} is to move`);
        if ((entry.actor === 'self') !== (side === as))
          r.fail(at, `${entry.actor ?? 'no actor'} plays ${side}, and this state is ${as}'s`);
        if (entry.kind === 'ask_any') {
          const code = texts.length === 1 ? TEXT_CODES[texts[0]] : undefined;
          if (code !== 'HAS_ANY' && code !== 'NO_ANY') r.fail(at, `"Any?" answered ${JSON.stringify(texts)}`);
          if (!rules.pawnTries.startsWith('any')) r.fail(at, `"Any?" under rules without it`);
          if (side === as || rules.pawnTries === 'any-open')
            events.push({ type: 'any', side, yes: code === 'HAS_ANY' });
          continue;
        }
        if (!['move', 'capture', 'illegal_move'].includes(entry.kind)) r.fail(at, `unknown entry kind "${entry.kind}"`);
        const percept = perceptOf(r, texts, rules, at);
        const kind = percept.answer === 'illegal' ? 'illegal_move' : percept.capture !== undefined ? 'capture' : 'move';
        if (kind !== entry.kind) r.fail(at, `an entry of kind "${entry.kind}" says ${JSON.stringify(texts)}`);
        if (side === as) {
          const uci = entry.move_uci;
          if (typeof uci !== 'string' || !UCI.test(uci)) r.fail(at, `his own attempt has no UCI move (${uci})`);
          events.push({ type: 'attempt', side, attempt: uci as string, percept });
        } else if (percept.answer === 'illegal') illegal++;
        else {
          events.push(
            heard ? { type: 'opponent-move', side, illegal, percept } : { type: 'opponent-move', side, percept },
          );
          illegal = 0;
        }
        if (percept.answer === 'legal') {
          toMove = other(side);
          if (percept.end) ended = `${percept.end} after ${side}'s move`;
        }
      }
    }
  }
  if (illegal > 0 && heard) events.push({ type: 'opponent-move', side: other(as), illegal });
  if (state.state === 'active' && state.turn !== toMove)
    r.fail('turn', `the state says ${state.turn} is to move, the scoresheet ${toMove}`);
  if (ended && state.state !== 'completed') r.fail('state', `"${state.state}" after the game ended (${ended})`);
  const result = state.state === 'completed' ? siteResult(state.result) : '*';
  return {
    rules,
    start: START_FEN,
    as,
    white: '?',
    black: '?',
    result,
    tags: { Site: 'Kriegspiel.org', Game: game, KsGameRuleset: variant },
    events,
  };
}

/** Is this view event the unfinished opponent turn that a later state completes? */
const unfinished = (event: ViewEvent | undefined) => event?.type === 'opponent-move' && event.percept === undefined;

/**
 * One game's view across polls: each state must extend what the states before said (the site is
 * the referee, but a state that rewrites the past is refused, not played on). `update` returns the
 * events not seen before, to hand to the player in order; `view` is the latest state's view.
 */
export class SiteGameView {
  private events: ViewEvent[] = [];
  view?: View;
  constructor(
    readonly game: string,
    readonly variant: string,
  ) {}

  update(state: SiteState): ViewEvent[] {
    const view = siteView(state, this.game, this.variant);
    if (this.view && this.view.as !== view.as)
      throw fail('site-state', { game: this.game, where: 'your_color', reason: `was ${this.view.as}, now ${view.as}` });
    for (let i = 0; i < this.events.length; i++) {
      if (JSON.stringify(view.events[i]) !== JSON.stringify(this.events[i]))
        throw contradiction(this.game, i, this.events[i], view.events[i]);
    }
    this.view = view;
    // an opponent turn in progress (his Illegal attempts so far) is handed over once it is finished
    const end = unfinished(view.events[view.events.length - 1]) ? view.events.length - 1 : view.events.length;
    const fresh = view.events.slice(this.events.length, end);
    this.events.push(...fresh);
    return fresh;
  }
}

function contradiction(game: string, i: number, before: ViewEvent, now: ViewEvent | undefined): KriegError {
  return fail('site-state', {
    game,
    where: `event ${i + 1}`,
    reason: `the state contradicts the one before: was ${JSON.stringify(before)}, now ${now === undefined ? 'missing' : JSON.stringify(now)}`,
  });
}
