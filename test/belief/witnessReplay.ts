// Replays a belief tracker's witness — the opponent's moves of one history — together with the
// player's view through the independent chessops referee (host/verify/independentReferee.ts), checking
// every event as the referee would have answered it, and returns the position reached. A tracker
// position is right when its witness replays to it: the history exists and fits the view.
import { makeFen } from 'chessops/fen';
import type { View } from '../../host/record/record';
import type { Percept } from '../../host/record/percept';
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

export interface Replayed {
  /** The position reached, as chessops writes it, and its repetition identity (placement, side, castling, usable en passant). */
  fen: string;
  key: string;
  halfmoves: number;
  fullmoves: number;
  /** Percepts that differed only by a repetition draw (the estimators' documented leniency: a draw by repetition depends on the history, not on the position). */
  repetitionLeniency: number;
}

const withoutEnd = (p: Percept): Percept => {
  const { end: _, ...rest } = p;
  return rest;
};

/** Same percept, except that a repetition draw on either side is not compared (see Replayed). */
function sameUpToRepetition(a: Percept, b: Percept): 'same' | 'lenient' | 'different' {
  if (samePercept(a, b)) return 'same';
  if ((a.end === 'draw-repetition' || b.end === 'draw-repetition') && samePercept(withoutEnd(a), withoutEnd(b)))
    return 'lenient';
  return 'different';
}

/** The number of attempts the side to move of `a` could make that the referee would answer Illegal. */
function illegalOptions(a: Analysis, view: View): number {
  let n = 0;
  for (const uci of a.attemptable) {
    if (a.legal.has(uci)) continue;
    if (view.rules.pawnTryNonsense && a.pawnCaptures === 0 && isPawnCaptureAttempt(a.pos, uci)) continue;
    n++;
  }
  return n;
}

/** Replays `view` with the opponent's moves `witness` (UCI); throws naming the event when the referee disagrees. */
export function replayWitness(view: View, witness: string[]): Replayed {
  const rules = view.rules;
  let a = analyse(positionFromFen(view.start), rules);
  const history = rules.repetitionDraw ? [a.key] : [];
  let next = 0;
  let rejected = new Set<string>();
  let obligation: 'none' | 'until-legal' | 'one' = 'none';
  let leniency = 0;
  const fail = (i: number, what: string): never => {
    throw new Error(
      `witness [${witness.join(' ')}] fails at view event ${i + 1} (${JSON.stringify(view.events[i])}): ${what}; position ${makeFen(a.pos.toSetup())}`,
    );
  };
  view.events.forEach((e, i) => {
    if (e.type === 'pawn-tries') {
      const ok =
        e.count !== undefined
          ? e.count === a.pawnCaptures
          : e.exists !== undefined
            ? e.exists === a.pawnCaptures > 0
            : JSON.stringify(e.squares) === JSON.stringify(announcedTrySquares(a, rules));
      if (!ok) fail(i, `pawn tries are ${a.pawnCaptures} on [${a.pawnCaptureSquares.join(',')}]`);
      return;
    }
    if (e.type === 'any') {
      if (e.yes !== a.pawnCaptures > 0) fail(i, `"Any?" is ${a.pawnCaptures > 0}`);
      if (e.side === view.as && e.yes) obligation = rules.pawnTries === 'any-secret' ? 'until-legal' : 'one';
      return;
    }
    if (e.type === 'opponent-move') {
      if (a.pos.turn !== e.side) fail(i, `${a.pos.turn} is to move`);
      if (e.illegal !== undefined && e.illegal > illegalOptions(a, view))
        fail(i, `only ${illegalOptions(a, view)} Illegal attempts are possible`);
      if (!e.percept) return; // the turn is still in progress
      const uci = witness[next++];
      if (uci === undefined) fail(i, 'the witness has no move left');
      const move = a.legal.get(uci);
      if (!move) fail(i, `the witness move ${uci} is not legal`);
      const played = playLegal(a, move!, rules, history);
      const same = sameUpToRepetition(e.percept, played.percept);
      if (same === 'different') fail(i, `${uci} is heard as ${JSON.stringify(played.percept)}`);
      if (same === 'lenient') leniency++;
      a = played.after;
      rejected = new Set();
      obligation = 'none';
      return;
    }
    // an own attempt, answered as the referee answers it (turn memory included)
    if (a.pos.turn !== e.side) fail(i, `${a.pos.turn} is to move`);
    const uci = e.attempt;
    const pawnCapture = isPawnCaptureAttempt(a.pos, uci);
    let nonsense = false;
    if (rejected.has(uci) && rules.repeatIsNonsense) nonsense = true;
    else if (obligation !== 'none' && !pawnCapture) nonsense = true;
    else if (!a.canAttempt(uci)) nonsense = true;
    else if (pawnTryRuledOut(a, uci, rules)) nonsense = true;
    const move = nonsense ? undefined : a.legal.get(uci);
    if (!move) {
      const answer = nonsense ? 'nonsense' : 'illegal';
      if (e.percept.answer !== answer) fail(i, `the answer is ${answer}`);
      rejected.add(uci);
      if (!nonsense && obligation === 'one') obligation = 'none';
      return;
    }
    const played = playLegal(a, move, rules, history);
    const same = sameUpToRepetition(e.percept, played.percept);
    if (same === 'different') fail(i, `${uci} is heard as ${JSON.stringify(played.percept)}`);
    if (same === 'lenient') leniency++;
    a = played.after;
    rejected = new Set();
    obligation = 'none';
  });
  if (next !== witness.length)
    throw new Error(
      `witness [${witness.join(' ')}] has ${witness.length - next} moves more than the view's opponent turns`,
    );
  return {
    fen: makeFen(a.pos.toSetup()),
    key: a.key,
    halfmoves: a.pos.halfmoves,
    fullmoves: a.pos.fullmoves,
    repetitionLeniency: leniency,
  };
}

/** The same identity for a FEN written by krieg (parsed by chessops). */
export function fenIdentity(fen: string, view: View): { key: string; halfmoves: number; fullmoves: number } {
  const a = analyse(positionFromFen(fen), view.rules);
  return { key: a.key, halfmoves: a.pos.halfmoves, fullmoves: a.pos.fullmoves };
}
