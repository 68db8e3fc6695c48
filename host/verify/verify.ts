// The strategy verifier: deliberately simple code, independent of the core (it plays through
// chessops via ./referee.ts). For every position of the problem it follows the strategy as the
// player would — attempt, hear the referee, take the branch for what was heard — and lets the
// opponent make every legal move; every line must end in a win within the ply limit. The first
// line that does not is reported with the position and the path that led there.
import { kingAttacks } from 'chessops/attacks';
import type { Chess } from 'chessops/chess';
import type { RuleSet } from '../record/rules';
import type { Side } from '../record/record';
import {
  positionFromFen,
  analyse,
  playLegal,
  samePercept,
  squaresIn,
  announcedTrySquares,
  pawnTryRuledOut,
  type Analysis,
} from './independentReferee';
import {
  heardText,
  type Heard,
  type Strategy,
  type StrategyNode,
  type TriesHeard,
  type Branch,
} from '../solver/strategy';

export interface VerifyProblem {
  rules: RuleSet;
  positions: string[];
  ply: number;
  materialWins?: boolean;
}

export type Verdict =
  | { ok: true; positions: number; lines: number }
  | { ok: false; position: number; fen: string; path: string[]; reason: string };

class Failure extends Error {
  constructor(
    readonly reason: string,
    readonly path: string[],
  ) {
    super(reason);
  }
}

/** What the rules announce about pawn tries before the turn of the side to move in `a`. */
function triesOf(a: Analysis, rules: RuleSet): TriesHeard | undefined {
  if (rules.pawnTries === 'count') return { count: a.pawnCaptures };
  if (rules.pawnTries === 'exists') return { exists: a.pawnCaptures > 0 };
  if (rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares')
    return { squares: announcedTrySquares(a, rules) };
  return undefined;
}

function sameTries(a: TriesHeard | undefined, b: TriesHeard | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameHeard(a: Heard, b: Heard): boolean {
  return samePercept(a.percept, b.percept) && sameTries(a.tries, b.tries);
}

/**
 * Berkeley's known wins against a bare king (the side to move in `pos`): besides our king exactly
 * a queen, a rook, a pawn off the a- and h-files, two bishops on different colours, or bishop and
 * knight, every such piece next to our king.
 */
export function isMaterialWin(pos: Chess): boolean {
  const board = pos.board;
  const them = pos.turn;
  const us = them === 'white' ? 'black' : 'white';
  if (board[them].size() !== 1) return false;
  const king = board.kingOf(us)!;
  const rest = board[us].without(king);
  if (!rest.diff(kingAttacks(king)).isEmpty()) return false;
  const squares = squaresIn(rest);
  const roles = squares
    .map((sq) => board.getRole(sq))
    .sort()
    .join(',');
  if (roles === 'queen' || roles === 'rook') return true;
  if (roles === 'pawn') return (squares[0] & 7) !== 0 && (squares[0] & 7) !== 7;
  if (roles === 'bishop,knight') return true;
  if (roles === 'bishop,bishop')
    return (((squares[0] >> 3) + squares[0]) & 1) !== (((squares[1] >> 3) + squares[1]) & 1);
  return false;
}

function branchFor(node: StrategyNode, heard: Heard, path: string[]): Branch {
  const branch = node.answers.find((b) => sameHeard(b.heard, heard));
  if (!branch) throw new Failure(`the strategy has no branch for "${heardText(heard)}" after ${node.attempt}`, path);
  return branch;
}

/** Checks `strategy` on every position of `problem`; the first failing line is reported. */
export function verifyStrategy(problem: VerifyProblem, strategy: Strategy): Verdict {
  const { rules } = problem;
  const ply = problem.ply;
  const materialWins = problem.materialWins === true;
  let lines = 0;
  const opponent: Side = strategy.side === 'white' ? 'black' : 'white';

  // our turn at `pos` (ply plies left), following `node`; `tried` holds this turn's rejected attempts
  const turn = (a: Analysis, node: StrategyNode, left: number, tried: Set<string>, path: string[]): void => {
    const here = [...path, `try ${node.attempt}`];
    if (tried.has(node.attempt)) throw new Failure(`${node.attempt} is attempted twice in one turn`, here);
    const legal = a.legal.get(node.attempt);
    if (!legal) {
      const nonsense = !a.canAttempt(node.attempt) || pawnTryRuledOut(a, node.attempt, rules);
      const heard: Heard = { percept: { answer: nonsense ? 'nonsense' : 'illegal' } };
      const branch = branchFor(node, heard, here);
      if (!('next' in branch))
        throw new Failure(`after "${heardText(heard)}" the strategy does not attempt again`, here);
      turn(a, branch.next, left, new Set([...tried, node.attempt]), [...here, heardText(heard)]);
      return;
    }
    const played = playLegal(a, legal, rules, []);
    const percept = played.percept;
    const end = percept.end;
    if (
      end === 'checkmate' ||
      (end === 'stalemate' && rules.stalemate === 'loss') ||
      (!end && materialWins && isMaterialWin(played.after.pos))
    ) {
      lines++;
      return;
    }
    if (end) throw new Failure(`${node.attempt} ends the game in ${end}`, here);
    if (left < 3)
      throw new Failure(
        `no mate within ${ply} ply: ${node.attempt} does not mate and no ply is left for another move`,
        here,
      );
    const heard: Heard = { percept, tries: triesOf(played.after, rules) };
    if (heard.tries === undefined) delete heard.tries;
    const branch = branchFor(node, heard, here);
    const afterUs = [...here, heardText(heard)];
    if ('won' in branch)
      throw new Failure(`the strategy counts "${heardText(heard)}" as won, but the opponent is not mated`, afterUs);
    if (!('replies' in branch))
      throw new Failure(`after a legal move the strategy attempts again in the same turn`, afterUs);
    for (const [uci, move] of played.after.legal) {
      const reply = playLegal(played.after, move, rules, []);
      const replyPath = [...afterUs, `${opponent} ${uci}`];
      if (reply.percept.end)
        throw new Failure(`${opponent}'s reply ${uci} ends the game in ${reply.percept.end}`, replyPath);
      const heardReply: Heard = { percept: reply.percept, tries: triesOf(reply.after, rules) };
      if (heardReply.tries === undefined) delete heardReply.tries;
      const next = branch.replies.find((r) => sameHeard(r.heard, heardReply));
      if (!next)
        throw new Failure(
          `the strategy has no branch for "${heardText(heardReply)}" after ${opponent}'s move`,
          replyPath,
        );
      turn(reply.after, next.next, left - 2, new Set(), [...replyPath, heardText(heardReply)]);
    }
  };

  for (let i = 0; i < problem.positions.length; i++) {
    const fen = problem.positions[i];
    try {
      const pos = positionFromFen(fen);
      if (pos.turn !== strategy.side)
        throw new Failure(`${pos.turn} is to move, but the strategy is ${strategy.side}'s`, []);
      if (strategy.ply > ply)
        throw new Failure(`the strategy is for ${strategy.ply} ply, the problem allows ${ply}`, []);
      turn(analyse(pos, rules), strategy.root, ply, new Set(), []);
    } catch (error) {
      if (error instanceof Failure) return { ok: false, position: i + 1, fen, path: error.path, reason: error.reason };
      throw error;
    }
  }
  return { ok: true, positions: problem.positions.length, lines };
}

/** A verdict as one readable paragraph. */
export function verdictText(v: Verdict): string {
  if (v.ok) return `verified: the strategy mates in all ${v.positions} positions (${v.lines} lines checked)\n`;
  return `FAILED in position ${v.position} (${v.fen}):\n  ${v.path.join(' → ') || '(at the start)'}\n  ${v.reason}\n`;
}
