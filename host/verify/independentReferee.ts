// An independent Kriegspiel referee, built on chessops (not on krieg's core): which attempts are
// Nonsense, Illegal or legal, what a legal move announces, what the pawn-try announcements say,
// and when the game ends. The strategy verifier (verify.ts) plays strategies through it, and
// test/referee/announcements.test.ts replays every event of krieg's game records through it.
//
// Conventions shared with the records: attempts are UCI text, castling as the king's two-square
// step, a promotion with its piece letter (e7e8q); squares are 0..63 (a1 = 0, h8 = 63).
import { Chess } from 'chessops/chess';
import { parseFen, makeBoardFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { SquareSet } from 'chessops/squareSet';
import {
  between,
  bishopAttacks,
  kingAttacks,
  knightAttacks,
  pawnAttacks,
  queenAttacks,
  rookAttacks,
} from 'chessops/attacks';
import type { Percept, End } from '../record/percept';
import { fail } from '../errors';
import type { RuleSet } from '../record/rules';

/**
 * The chessops position of a FEN krieg accepts. chessops reads clocks of at most four digits: a
 * larger halfmove clock is read as 9999 (past the fifty-move rule either way), a larger move
 * number as 9999 (it decides nothing); any other refusal is a bad-fen naming chessops's reason.
 */
export function positionFromFen(fen: string): Chess {
  const fields = fen.trim().split(/\s+/);
  for (const i of [4, 5]) if (fields[i] !== undefined && /^\d{5,}$/.test(fields[i])) fields[i] = '9999';
  const setup = parseFen(fields.join(' '));
  if (setup.isErr)
    throw fail('bad-fen', { what: `the verifier's chess rules refuse it (${setup.error.message})`, fen });
  const position = Chess.fromSetup(setup.value);
  if (position.isErr)
    throw fail('bad-fen', { what: `the verifier's chess rules refuse it (${position.error.message})`, fen });
  return position.value;
}

export const file = (sq: number) => sq & 7;
export const rank = (sq: number) => sq >> 3;
const lastRank = (sq: number) => sq < 8 || sq >= 56;

/** A legal move of a position, as the referee and the verifier read it. */
export class LegalMove {
  constructor(
    readonly from: number,
    /** Where the moving piece lands (the king's square after castling). */
    readonly to: number,
    /** chessops' destination: the own rook's square for castling, else `to`. */
    private readonly dest: number,
    readonly pawn: boolean,
    readonly enPassant: boolean,
    readonly castle: boolean,
    /** The promotion piece's role, if it promotes. */
    private readonly promotes?: 'queen' | 'rook' | 'bishop' | 'knight',
  ) {}
  get promotion(): boolean {
    return this.promotes !== undefined;
  }
  /** chessops' form of the move (castling as king takes own rook), made when played: a position has dozens. */
  get chessops(): { from: number; to: number; promotion?: 'queen' | 'rook' | 'bishop' | 'knight' } {
    return this.promotes
      ? { from: this.from, to: this.dest, promotion: this.promotes }
      : { from: this.from, to: this.dest };
  }
}

/** Everything the referee needs to know about one position, computed with chessops. */
export interface Analysis {
  pos: Chess;
  /** Legal moves by UCI attempt text. */
  legal: Map<string, LegalMove>;
  /** Attempts that are not Nonsense on the own-pieces-only board (UCI); computed when first read. */
  readonly attemptable: Set<string>;
  /**
   * Is `uci` one of `attemptable`? Decided for that attempt alone: a replay asks it of nearly every
   * position, and making the whole set each time (a string per attempt) took about a third of a
   * record's replay.
   */
  canAttempt(uci: string): boolean;
  /** Legal pawn captures, once per from-to pair (a capture-promotion counts once). */
  pawnCaptures: number;
  /** Their landing squares, ascending. */
  pawnCaptureSquares: number[];
  /** The squares of the pawns that can make them, ascending. */
  pawnCaptureSources: number[];
  /** The side to move is in check by these squares. */
  checkers: SquareSet;
  /** Repetition identity: placement, side, castling rights, e.p. square only when an e.p. capture is legal. */
  readonly key: string;
}

const PROMOTION_ROLES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' } as const;

/** The UCI text of every from-to pair, made once (`from * 64 + to`): the replays name millions of moves. */
const UCI: readonly string[] = Array.from({ length: 4096 }, (_, i) => makeSquare(i >> 6) + makeSquare(i & 63));

function promotionLetters(rules: RuleSet): ('q' | 'r' | 'b' | 'n')[] {
  return (['q', 'r', 'b', 'n'] as const).filter((p) => rules.promotionPieces.includes(p));
}

/** The squares of a set, ascending (chessops iterates with a generator, which is slow here). */
export function squaresIn(set: SquareSet): number[] {
  const out: number[] = [];
  for (let lo = set.lo; lo !== 0; lo &= lo - 1) out.push(31 - Math.clz32(lo & -lo));
  for (let hi = set.hi; hi !== 0; hi &= hi - 1) out.push(63 - Math.clz32(hi & -hi));
  return out;
}

export function analyse(pos: Chess, rules: RuleSet): Analysis {
  const ctx = pos.ctx();
  const us = pos.turn;
  const legal = new Map<string, LegalMove>();
  const letters = promotionLetters(rules);
  let epUsable = false;
  let pawnCaptures = 0;
  let captureSquares = SquareSet.empty();
  let captureSources = SquareSet.empty();
  const own = pos.board[us];
  // pos.allDests(ctx), without its Map and its generator over the own pieces (a replay analyses
  // every position it reaches)
  for (const from of ctx.variantEnd ? [] : squaresIn(own)) {
    const role = pos.board.getRole(from)!;
    const pawn = role === 'pawn';
    for (const to of squaresIn(pos.dests(from, ctx))) {
      const castle = role === 'king' && own.has(to);
      if (castle && !rules.castling) continue;
      const kingTo = castle ? (to > from ? from + 2 : from - 2) : to;
      const capture = pawn && file(from) !== file(to);
      const enPassant = capture && !pos.board.occupied.has(to);
      if (enPassant && !rules.enPassant) continue;
      if (enPassant) epUsable = true;
      // a pawn moving to another file always captures (normally or en passant); a capture that
      // promotes counts once
      if (capture) {
        pawnCaptures++;
        captureSquares = captureSquares.with(to);
        captureSources = captureSources.with(from);
      }
      const base = UCI[from * 64 + kingTo];
      if (pawn && lastRank(to)) {
        for (const p of letters)
          legal.set(base + p, new LegalMove(from, kingTo, to, pawn, enPassant, castle, PROMOTION_ROLES[p]));
      } else legal.set(base, new LegalMove(from, kingTo, to, pawn, enPassant, castle));
    }
  }
  let attemptable: Set<string> | undefined;
  let key: string | undefined;
  return {
    pos,
    legal,
    pawnCaptures,
    pawnCaptureSquares: squaresIn(captureSquares),
    pawnCaptureSources: squaresIn(captureSources),
    checkers: ctx.checkers,
    get attemptable() {
      return (attemptable ??= ownBoardAttempts(pos, rules));
    },
    canAttempt: (uci) => ownBoardAllows(pos, rules, uci),
    get key() {
      const rights = pos.castles.castlingRights;
      return (key ??= [
        makeBoardFen(pos.board),
        us,
        `${rights.lo}:${rights.hi}`,
        epUsable && pos.epSquare !== undefined ? pos.epSquare : '-',
      ].join(' '));
    },
  };
}

/**
 * The squares the mover's piece on `from` may step to on a board holding only the mover's pieces
 * (no enemy can block, pin or check there): its moves there, every pawn diagonal step onto a square
 * without an own piece, and the king's two-square castling steps.
 */
function ownBoardTargets(pos: Chess, rules: RuleSet, from: number): SquareSet {
  const us = pos.turn;
  const own = pos.board[us];
  const role = pos.board.getRole(from);
  if (role === 'pawn') {
    const up = us === 'white' ? 8 : -8;
    const one = from + up;
    let targets = pawnAttacks(us, from).diff(own);
    if (!own.has(one)) {
      targets = targets.with(one);
      if (rank(from) === (us === 'white' ? 1 : 6) && !own.has(one + up)) targets = targets.with(one + up);
    }
    return targets;
  }
  if (role === 'knight') return knightAttacks(from).diff(own);
  if (role === 'bishop') return bishopAttacks(from, own).diff(own);
  if (role === 'rook') return rookAttacks(from, own).diff(own);
  if (role === 'queen') return queenAttacks(from, own).diff(own);
  let targets = kingAttacks(from).diff(own);
  if (rules.castling) {
    for (const rook of squaresIn(pos.castles.castlingRights.intersect(own))) {
      if (between(from, rook).intersects(own)) continue;
      targets = targets.with(rook > from ? from + 2 : from - 2);
    }
  }
  return targets;
}

/** Every attempt of the own-pieces-only board (`ownBoardTargets` of each own piece), as UCI. */
function ownBoardAttempts(pos: Chess, rules: RuleSet): Set<string> {
  const out = new Set<string>();
  const letters = promotionLetters(rules);
  for (const from of squaresIn(pos.board[pos.turn])) {
    const pawn = pos.board.getRole(from) === 'pawn';
    for (const to of squaresIn(ownBoardTargets(pos, rules, from))) {
      const base = UCI[from * 64 + to];
      if (pawn && lastRank(to)) for (const p of letters) out.add(base + p);
      else out.add(base);
    }
  }
  return out;
}

/** Is `uci` in `ownBoardAttempts(pos, rules)`? Without making the set. */
function ownBoardAllows(pos: Chess, rules: RuleSet, uci: string): boolean {
  if (uci.length !== 4 && uci.length !== 5) return false;
  const from = squareOf(uci.slice(0, 2));
  const to = squareOf(uci.slice(2, 4));
  if (from < 0 || to < 0 || !pos.board[pos.turn].has(from)) return false;
  if (!ownBoardTargets(pos, rules, from).has(to)) return false;
  const promotes = pos.board.getRole(from) === 'pawn' && lastRank(to);
  if (uci.length === 4) return !promotes;
  return promotes && (promotionLetters(rules) as string[]).includes(uci[4]);
}

/** Is `uci` a pawn capture attempt: an own pawn stepping to another file? */
export function isPawnCaptureAttempt(pos: Chess, uci: string): boolean {
  const from = squareOf(uci.slice(0, 2));
  const to = squareOf(uci.slice(2, 4));
  const piece = pos.board.get(from);
  return piece !== undefined && piece.color === pos.turn && piece.role === 'pawn' && file(from) !== file(to);
}

/** The squares the rules announce as pawn tries: where the captures land, or where the pawns stand. */
export function announcedTrySquares(a: Analysis, rules: RuleSet): number[] {
  return rules.pawnTries === 'pawn-squares' ? a.pawnCaptureSources : a.pawnCaptureSquares;
}

/**
 * Is `uci` a pawn capture attempt that the rules make Nonsense because the pawn-try announcement
 * rules it out (pawnTryNonsense): every pawn capture when none was announced, else one whose
 * landing square (squares) or pawn (pawn-squares) was not named. Rules announcing no pawn tries
 * rule nothing out.
 */
export function pawnTryRuledOut(a: Analysis, uci: string, rules: RuleSet): boolean {
  if (!rules.pawnTryNonsense || !isPawnCaptureAttempt(a.pos, uci)) return false;
  switch (rules.pawnTries) {
    case 'count':
    case 'exists':
      return a.pawnCaptures === 0;
    case 'squares':
      return !a.pawnCaptureSquares.includes(squareOf(uci.slice(2, 4)));
    case 'pawn-squares':
      return !a.pawnCaptureSources.includes(squareOf(uci.slice(0, 2)));
    default:
      return false;
  }
}

/** The square a UCI square name names (a1 = 0), or -1 for another text. */
function squareOf(name: string): number {
  const f = name.charCodeAt(0) - 97;
  const r = name.charCodeAt(1) - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}

/** Check direction bits (1 Knight, 2 Rank, 4 File, 8 Long diagonal, 16 Short diagonal) seen from the checked king. */
export function checkDirectionBits(pos: Chess, checkers: SquareSet): number {
  const king = pos.board.kingOf(pos.turn)!;
  const kf = file(king);
  const kr = rank(king);
  // squares on the diagonal through the king with slope (df, dr), the king included
  const diagonalLength = (df: number, dr: number) => {
    let n = 1;
    for (const s of [1, -1]) {
      for (let f = kf + s * df, r = kr + s * dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += s * df, r += s * dr) n++;
    }
    return n;
  };
  let bits = 0;
  for (const sq of squaresIn(checkers)) {
    const df = file(sq) - kf;
    const dr = rank(sq) - kr;
    if (pos.board.get(sq)!.role === 'knight') bits |= 1;
    else if (dr === 0) bits |= 2;
    else if (df === 0) bits |= 4;
    else {
      // a pawn, bishop or queen on a diagonal (a pawn check is a diagonal check)
      if (Math.abs(df) !== Math.abs(dr)) throw new Error(`checker on ${makeSquare(sq)} is on no line through the king`);
      const mine = diagonalLength(Math.sign(df), Math.sign(dr));
      const otherDiagonal = diagonalLength(Math.sign(df), -Math.sign(dr));
      if (mine === otherDiagonal) throw new Error('two diagonals of equal length');
      bits |= mine > otherDiagonal ? 8 : 16;
    }
  }
  return bits;
}

/**
 * Does the material on the board end the game under `rule`? 'dead' is chessops' own judgement of
 * insufficient material (the chess rule: no mate is possible by any sequence of moves, judged by
 * material); 'berkeley' is the Berkeley rule text: "when both players have no pieces or only a
 * single knight or bishop".
 */
export function materialDraw(pos: Chess, rule: RuleSet['insufficientMaterialDraw']): boolean {
  if (rule === 'none') return false;
  if (rule === 'dead') return pos.isInsufficientMaterial();
  const board = pos.board;
  if (board.pawn.union(board.rook).union(board.queen).nonEmpty()) return false;
  const minors = board.knight.union(board.bishop);
  return board.white.intersect(minors).size() <= 1 && board.black.intersect(minors).size() <= 1;
}

export interface Played {
  percept: Percept;
  after: Analysis;
  /** Facts about the move for coverage counters. */
  capture: boolean;
  enPassant: boolean;
  promotion: boolean;
  checkers: number;
  directions: number;
}

/**
 * Plays legal `move` on a copy of `before` and returns what the referee must announce.
 * Under repetition rules `history` holds the repetition keys of the positions since the last
 * irreversible move, the position before the move included; the new key is appended (or the list
 * reset, after a capture or pawn move).
 */
export function playLegal(before: Analysis, move: LegalMove, rules: RuleSet, history: string[]): Played {
  const pos = before.pos.clone();
  const percept: Percept = { answer: 'legal' };
  let capturedSquare = -1;
  let capturedPawn = false;
  if (move.enPassant) {
    const pawnSquare = move.to + (pos.turn === 'white' ? -8 : 8);
    capturedSquare = rules.enPassantSquare === 'landing' ? move.to : pawnSquare;
    capturedPawn = true;
  } else if (!move.castle) {
    const victim = pos.board.get(move.to);
    if (victim) {
      capturedSquare = move.to;
      capturedPawn = victim.role === 'pawn';
    }
  }
  if (capturedSquare >= 0) {
    percept.capture = capturedSquare;
    if (rules.captureDetail === 'square+kind') percept.captured = capturedPawn ? 'pawn' : 'piece';
  }
  if (move.enPassant && rules.enPassantAnnounced) percept.enPassant = true;
  pos.play(move.chessops);
  const after = analyse(pos, rules);
  const directions = checkDirectionBits(pos, after.checkers);
  if (after.checkers.nonEmpty()) {
    percept.check = true;
    if (rules.checkDetail === 'directions') percept.directions = directions;
  }
  if (rules.repetitionDraw) {
    if (pos.halfmoves === 0) history.length = 0;
    history.push(after.key);
  }
  let end: End | undefined;
  if (after.legal.size === 0) end = after.checkers.nonEmpty() ? 'checkmate' : 'stalemate';
  else if (materialDraw(pos, rules.insufficientMaterialDraw)) end = 'draw-material';
  else if (rules.fiftyMoveDraw && pos.halfmoves >= 100) end = 'draw-fifty';
  else if (rules.repetitionDraw && history.filter((k) => k === after.key).length >= 3) end = 'draw-repetition';
  if (end) percept.end = end;
  if (move.promotion && rules.promotionAnnounced) percept.promotion = true;
  return {
    percept,
    after,
    capture: capturedSquare >= 0,
    enPassant: move.enPassant,
    promotion: move.promotion,
    checkers: after.checkers.size(),
    directions,
  };
}

const PERCEPT_FIELDS = [
  'answer',
  'capture',
  'captured',
  'enPassant',
  'check',
  'directions',
  'end',
  'promotion',
] as const;

/** Field-by-field equality of two percepts (absent fields must be absent in both). */
export function samePercept(a: Percept, b: Percept): boolean {
  for (const k of Object.keys(a)) if (!(PERCEPT_FIELDS as readonly string[]).includes(k)) return false;
  for (const k of Object.keys(b)) if (!(PERCEPT_FIELDS as readonly string[]).includes(k)) return false;
  return PERCEPT_FIELDS.every((k) => a[k] === b[k] && k in a === k in b);
}
