// Endgames against a bare king (assembly/players/endgame.ts) as host values: a metaposition (the
// attacker's men, the set of squares the lone king may be on) built from belief positions, the
// worst-case search's value of each attempt, and the metaposition's transitions under the
// referee's answers. With host/engine.ts and the other files of host/core/, the only host code
// that calls the core's exports.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  ENDGAME_OK,
  ENDGAME_NOT_BARE,
  ENDGAME_BAD_DEPTH,
  ENDGAME_NO_ROOM,
  ENDGAME_OTHER_MEN,
  ENDGAME_PERCEPT,
  ENDGAME_MAX_DEPTH,
  ENDGAME_RECORDS,
} from '../constants';

export { ENDGAME_FAIL, ENDGAME_WIN, ENDGAME_MAX_DEPTH, ENDGAME_RECORDS } from '../constants';

const ENDGAME_TEXT: Record<number, string> = {
  [ENDGAME_NO_ROOM]: 'a position or the endgame stack lies outside the arena',
  [ENDGAME_BAD_DEPTH]: `the endgame search depth must be 1 to ${ENDGAME_MAX_DEPTH}`,
  [ENDGAME_OTHER_MEN]: "a belief position whose attacker's men or side to move differ from the first",
  [ENDGAME_PERCEPT]: 'an answer no square of the metaposition gives, or a transition out of turn',
};

function check(status: number): void {
  if (status !== ENDGAME_OK) throw fail('endgame-status', { text: ENDGAME_TEXT[status] ?? `endgame status ${status}` });
}

/** The records the endgame module uses, from `stack` (default: the top of the arena). */
export const endgameStack = (engine: Engine) => engine.capacity - ENDGAME_RECORDS;

/**
 * Starts the core's metaposition from belief positions `handles` (the same men, the attacker to
 * move): false when the defender has more than a bare king and frozen pawns (each blocked, none
 * with a man to take), or his pawns differ between the positions. `widen` (the positions a sample,
 * not the whole belief): the squares one king step from theirs where his king may stand join the set.
 */
export function endgameBegin(engine: Engine, handles: number[], stack = endgameStack(engine), widen = false): boolean {
  const x = engine.core.exports;
  const status = x.endgameBegin(handles[0], stack);
  if (status === ENDGAME_NOT_BARE) return false;
  check(status);
  for (const handle of handles.slice(1)) {
    const added = x.endgameAddKing(handle);
    if (added === ENDGAME_NOT_BARE) return false; // his pawns differ over the belief
    check(added);
  }
  if (widen) check(x.endgameWiden());
  return true;
}

/**
 * Starts the metaposition from the attacker's men with the lone king's set `squares` (not empty):
 * `place(record, square)` writes record `record` (the attacker to move) with his king on `square`.
 * The record is the stack's second (stack + 1), which the search overwrites later; false as
 * endgameBegin's.
 */
export function endgameBeginSet(
  engine: Engine,
  squares: number[],
  place: (record: number, square: number) => void,
  stack = endgameStack(engine),
): boolean {
  const x = engine.core.exports;
  const record = stack + 1;
  place(record, squares[0]);
  const status = x.endgameBegin(record, stack);
  if (status === ENDGAME_NOT_BARE) return false;
  check(status);
  for (const square of squares.slice(1)) {
    place(record, square);
    const added = x.endgameAddKing(record);
    if (added === ENDGAME_NOT_BARE) return false;
    check(added);
  }
  return true;
}

export interface EndgameValue {
  attempt: number;
  /** Worst case over the referee's answers: ENDGAME_WIN − d a sure mate, ENDGAME_FAIL a possible loss of a man or stalemate. */
  value: number;
}

/**
 * Every attempt of the metaposition valued by the worst-case search `depth` attacker moves deep. `sound`: the set
 * holds every square his king may stand on (false against unknown men, whose set is a guess); from a sound set wider
 * than 12 squares an attempt is worth the mean of its classes' values by their squares, not the worst's.
 */
export function endgameValues(
  engine: Engine,
  depth: number,
  { sound }: { sound: boolean },
): { values: EndgameValue[]; nodes: number } {
  const x = engine.core.exports;
  check(x.endgameSearch(depth, sound ? 1 : 0));
  const n = x.endgameCount();
  const out = engine.core.view(x.endgameBuffer());
  const values: EndgameValue[] = [];
  for (let i = 0; i < n; i++) values.push({ attempt: out[2 * i], value: out[2 * i + 1] });
  return { values, nodes: x.endgameNodes() };
}

/**
 * The metaposition begun plays against his unknown men until the next begin: the referee's answer without an end
 * keeps the squares where a bare king would be mated or stalemated (a man of his may block a line or have a move),
 * and `blocked`, squares where a man of his is read to stand, stop the player's lines in its transitions and search;
 * `shielded` joins the set: squares his king may stand on only because a blocked square shields them (no record
 * with his king there loads: it stands in check on the player's board alone). `loadedOn`: a square the metaposition
 * was begun on only to hold a record (every square of the set shielded), which leaves the set.
 */
export function endgameAgainstUnknown(
  engine: Engine,
  blocked: readonly number[],
  shielded: readonly number[] = [],
  loadedOn?: number,
): void {
  let lo = 0;
  let hi = 0;
  for (const sq of blocked) {
    if (sq < 32) lo |= 1 << sq;
    else hi |= 1 << (sq - 32);
  }
  const x = engine.core.exports;
  check(x.endgameAgainstUnknown(lo, hi));
  for (const sq of shielded) check(x.endgameAddSquare(sq));
  if (loadedOn !== undefined) check(x.endgameDropSquare(loadedOn));
}

/** The squares the lone king may be on, ascending. */
export function endgameSquares(engine: Engine): number[] {
  const x = engine.core.exports;
  const words = [x.endgameSetLow(), x.endgameSetHigh()];
  const squares: number[] = [];
  for (let sq = 0; sq < 64; sq++) if ((words[sq >> 5] >>> (sq & 31)) & 1) squares.push(sq);
  return squares;
}

/** The metaposition after the attacker's attempt answered with `percept` (an encoded percept). */
export function endgameAttempt(engine: Engine, attempt: number, percept: number): void {
  check(engine.core.exports.endgameAttempt(attempt, percept));
}

/** The metaposition after the defender's move announced with `percept`, `illegal` Illegal attempts heard before it. */
export function endgameReply(engine: Engine, percept: number, illegal: number): void {
  check(engine.core.exports.endgameReply(percept, illegal));
}
