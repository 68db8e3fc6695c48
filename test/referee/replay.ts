// Replays a game record through the chessops oracle (oracle.ts) and checks every event: the
// pawn-try announcements and "Any?" answers, the answer to every attempt, every legal move's
// percept, the turn structure and the result. Counters record what was seen, for coverage checks.
import { expect } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { makeFen } from 'chessops/fen';
import type { RuleSet } from '../../host/record/rules';
import type { GameRecord, Side, PawnTriesEvent } from '../../host/record/record';
import type { End, Percept } from '../../host/record/percept';
import {
  analyse,
  positionFromFen,
  playLegal,
  samePercept,
  isPawnCaptureAttempt,
  pawnTryRuledOut,
  announcedTrySquares,
  type Analysis,
} from '../../host/verify/independentReferee';

// ---- counters ----

export type Counter = Map<string, number>;
export const bump = (c: Counter, key: string, n = 1) => c.set(key, (c.get(key) ?? 0) + n);
export const get = (c: Counter, key: string) => c.get(key) ?? 0;
export const addInto = (into: Counter, from: Counter) => {
  for (const [k, v] of from) bump(into, k, v);
};

export const DIRECTION_NAMES = ['knight', 'rank', 'file', 'long', 'short'];

// ---- failures: show the position and event, so a disagreement reproduces from a FEN ----

function mismatch(
  record: GameRecord,
  index: number,
  a: Analysis,
  what: string,
  actual: unknown,
  expected: unknown,
): never {
  const detail = {
    rules: record.rules,
    start: record.start,
    seed: record.tags.Seed,
    event: index,
    fen: makeFen({ ...a.pos.toSetup(), halfmoves: a.pos.halfmoves }), // toSetup caps the clock at 150 attempt: (record.events[index] as { attempt?: string } | undefined)?.attempt,
  };
  expect({ ...detail, [what]: actual }).toEqual({ ...detail, [what]: expected });
  throw new Error(`unreachable: ${what} differs`);
}

function expectedPawnTries(rules: RuleSet, side: Side, a: Analysis): PawnTriesEvent {
  if (rules.pawnTries === 'count') return { type: 'pawn-tries', side, count: a.pawnCaptures };
  if (rules.pawnTries === 'exists') return { type: 'pawn-tries', side, exists: a.pawnCaptures > 0 };
  return { type: 'pawn-tries', side, squares: announcedTrySquares(a, rules) };
}

export const announcesPawnTries = (rules: RuleSet) =>
  ['count', 'exists', 'squares', 'pawn-squares'].includes(rules.pawnTries);
export const asksAny = (rules: RuleSet) => rules.pawnTries === 'any-secret' || rules.pawnTries === 'any-open';

// ---- the record against chessops ----

/** Replays `record` in chessops and checks every event; returns the number of plies. */
export function verifyRecord(record: GameRecord, maxPlies: number, t: Counter): number {
  const rules = record.rules;
  let a = analyse(positionFromFen(record.start), rules);
  const history = rules.repetitionDraw ? [a.key] : [];
  const events = record.events;
  let i = 0;
  let plies = 0;
  let end: End | undefined;
  let lastMover: Side = 'white';
  const fail: (what: string, actual: unknown, expected: unknown) => never = (what, actual, expected) =>
    mismatch(record, i, a, what, actual, expected);
  for (;;) {
    if (end !== undefined) {
      if (i !== events.length) fail('events after the game end', events.length - i, 0);
      break;
    }
    const side: Side = a.pos.turn;
    if (announcesPawnTries(rules)) {
      const expected = expectedPawnTries(rules, side, a);
      if (!isDeepStrictEqual(events[i], expected)) fail('pawn-try announcement', events[i], expected);
      bump(t, 'pawn-tries');
      bump(t, a.pawnCaptures > 0 ? 'pawn-tries>0' : 'pawn-tries=0');
      if (a.pawnCaptures > 1) bump(t, 'pawn-tries>1');
      i++;
    }
    if (plies === maxPlies) {
      if (i !== events.length) fail('events after the ply limit', events.length - i, 0);
      break;
    }
    if (i === events.length) fail('record ends inside the game', 'end of record', 'a turn');
    let obligation: 'none' | 'until-legal' | 'one' = 'none';
    const rejected = new Set<string>();
    let asked = false;
    let tries = 0;
    for (;;) {
      const e = events[i];
      if (e === undefined) fail('turn ends without a legal attempt', 'end of record', 'an attempt');
      // "Any?" may be asked at any point of the turn, once (Berkeley: "during her turn"; English rule 11)
      if (e.type === 'any') {
        if (!asksAny(rules)) fail('"Any?" under these rules', e, 'no Any event');
        if (asked) fail('"Any?" asked twice in a turn', e, 'one question');
        const expected = { type: 'any', side, yes: a.pawnCaptures > 0 };
        if (!isDeepStrictEqual(e, expected)) fail('"Any?" answer', e, expected);
        bump(t, e.yes ? 'any-yes' : 'any-no');
        if (tries > 0) bump(t, 'any-after-attempts');
        if (e.yes) obligation = rules.pawnTries === 'any-secret' ? 'until-legal' : 'one';
        asked = true;
        i++;
        continue;
      }
      if (e.type !== 'attempt' || e.side !== side) fail('event in a turn', e, `an attempt by ${side}`);
      const uci = e.attempt;
      const pawnCapture = isPawnCaptureAttempt(a.pos, uci);
      let nonsense: string | undefined;
      if (rejected.has(uci) && rules.repeatIsNonsense) nonsense = 'nonsense-repeat';
      else if (obligation !== 'none' && !pawnCapture) nonsense = 'nonsense-obligation';
      else if (!a.canAttempt(uci)) nonsense = 'nonsense-impossible';
      else if (pawnTryRuledOut(a, uci, rules)) nonsense = 'nonsense-pawn-try';
      const move = nonsense ? undefined : a.legal.get(uci);
      bump(t, 'attempts');
      tries++;
      if (rejected.has(uci)) bump(t, 'repeats');
      if (!move) {
        const expected: Percept = { answer: nonsense ? 'nonsense' : 'illegal' };
        if (!samePercept(e.percept, expected)) fail('answer', e.percept, expected);
        bump(t, nonsense ?? 'illegal');
        if (!nonsense && rejected.has(uci)) bump(t, 'illegal-repeat');
        if (!nonsense && pawnCapture) bump(t, 'illegal-pawn-try');
        // an attempt refused for the obligation was not judged: once released it is answered anew
        if (nonsense !== 'nonsense-obligation') rejected.add(uci);
        if (!nonsense && obligation === 'one') obligation = 'none';
        i++;
        continue;
      }
      const played = playLegal(a, move, rules, history);
      if (!samePercept(e.percept, played.percept)) fail('percept', e.percept, played.percept);
      bump(t, 'legal');
      if (obligation !== 'none') bump(t, `legal-under-${obligation}`);
      if (played.capture) bump(t, `capture-${rules.captureDetail}`);
      if (played.percept.captured) bump(t, `captured-${played.percept.captured}`);
      if (played.enPassant) bump(t, rules.enPassantSquare === 'landing' ? 'ep-landing' : 'ep-pawn-square');
      if (played.percept.enPassant) bump(t, 'ep-announced');
      if (played.promotion) bump(t, played.percept.promotion ? 'promotion-announced' : 'promotion-silent');
      if (played.percept.check) bump(t, 'check');
      if (played.checkers > 1) bump(t, 'double-check');
      DIRECTION_NAMES.forEach((n, k) => {
        if (played.directions & (1 << k)) bump(t, `check-${n}`);
      });
      if (played.after.checkers.intersects(played.after.pos.board.pawn)) bump(t, 'check-by-pawn');
      a = played.after;
      lastMover = side;
      plies++;
      end = played.percept.end;
      if (end) bump(t, end);
      i++;
      break;
    }
  }
  let result: GameRecord['result'] = '*';
  const winner = lastMover === 'white' ? '1-0' : '0-1';
  if (end === 'checkmate') result = winner;
  else if (end === 'stalemate') result = rules.stalemate === 'loss' ? winner : '1/2-1/2';
  else if (end !== undefined) result = '1/2-1/2';
  if (end === 'stalemate' && rules.stalemate === 'loss') bump(t, 'stalemate-lost');
  if (record.result !== result) fail('result', record.result, result);
  bump(t, 'games');
  bump(t, 'plies', plies);
  bump(t, 'events', events.length);
  return plies;
}
