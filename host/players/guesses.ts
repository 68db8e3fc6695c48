// krieg's fallback for a position source that comes back empty (the stand-in's sampler a few dozen
// plies into a game, sources.ts): the opponent's pieces where the source last saw them, set over
// the player's own board as it is now. Against an opponent who moves one man a turn, positions a
// few turns stale are mostly right about where his men stand, and the Illegal answers prune those
// that are not (choose-move's filtering); without them the player would attempt at random.
//
// These guesses are not a belief: they may contradict the view. Events since the guesses were
// taken patch them: a capture by the player removes the man it took; a man of his on a square the
// player's man moved to or through without a capture moves to the nearest free square (he keeps the
// men the captures leave him); a capture by the opponent brings his nearest man that could
// reach it (a pawn only diagonally from behind) to the square; his king, where it would be attacked
// with the player to move (no check was announced) or stands on one of the player's men, moves to
// the nearest square where it is neither (a guess is dropped when there is none within two). A
// source that never comes back empty — the belief tracker (#13) — passes through untouched.
import type { Engine } from '../engine';
import { WHITE, BLACK, KING, PAWN, KNIGHT, BISHOP, ROOK } from '../constants';
import { pieceColor, pieceType } from '../notation/fen';
import { between, kingDistance, parseSquare } from '../notation/square';
import { ownBoard } from '../referee/ownBoard';
import type { View, ViewEvent } from '../record/record';
import {
  SAMPLE_BASE,
  MAX_REQUEST,
  type PositionSource,
  type SourceLimits,
  type SourcePositions,
  type SourceSetup,
  emptyView,
} from './sources';

const file = (sq: number) => sq & 7;
const rank = (sq: number) => sq >> 3;

export class StaleGuessSource implements PositionSource {
  readonly name: string;
  private readonly view: View;
  private readonly opponent: number;
  /** The opponent's men (piece codes by square) in the source's last positions. */
  private guesses: number[][] = [];
  /** view.events.length when the guesses were taken. */
  private takenAt = 0;
  /** How many requests the guesses answered. */
  guessed = 0;

  constructor(
    private readonly inner: PositionSource,
    private readonly engine: Engine,
    setup: SourceSetup,
  ) {
    this.name = `${inner.name}+guesses`;
    this.opponent = setup.side === 'white' ? BLACK : WHITE;
    this.view = emptyView(setup);
  }

  observe(event: ViewEvent, limits?: SourceLimits): void {
    this.view.events.push(event);
    this.inner.observe(event, limits);
  }

  positions(k: number, limits: SourceLimits): SourcePositions {
    return this.orGuesses(this.inner.positions(k, limits), k);
  }

  lastObservation(k: number, limits: SourceLimits): SourcePositions {
    return this.orGuesses(this.inner.lastObservation(k, limits), k);
  }

  refine(limits: SourceLimits): void {
    this.inner.refine?.(limits);
  }

  private orGuesses(found: SourcePositions, k: number): SourcePositions {
    if (found.handles.length > 0) {
      this.guesses = found.handles.map((h) =>
        this.engine.setup(h).board.map((code) => (code !== 0 && pieceColor(code) === this.opponent ? code : 0)),
      );
      this.takenAt = this.view.events.length;
      return found;
    }
    if (this.guesses.length === 0) return found;
    const own = ownBoard(this.view);
    const side = own.side === 'white' ? WHITE : BLACK;
    const handles: number[] = [];
    for (const guess of this.guesses.slice(0, Math.min(k, MAX_REQUEST))) {
      const handle = SAMPLE_BASE + handles.length;
      if (this.place(handle, own.board.slice(), this.patched(guess, own.board), own.castling, side))
        handles.push(handle);
    }
    if (handles.length) this.guessed++;
    return { handles, exact: false };
  }

  /**
   * Sets the guess's men over the own board into `handle`, the player to move. His king, if it is
   * attacked there (no check was announced) or stands where a man of the player's is, moves to the
   * nearest square where neither is so; false when there is none, or no position comes of it.
   */
  private place(handle: number, board: number[], men: number[], castling: number, side: number): boolean {
    const king = men.findIndex((code) => pieceType(code) === KING);
    if (king < 0) return false;
    const setup = (at: number) => {
      const b = board.map((code, sq) => code || (sq === king ? 0 : men[sq]));
      if (b[at] !== 0) return undefined;
      b[at] = men[king];
      return { board: b, side: side as 0 | 1, castling, epSquare: -1, halfmove: 0, fullmove: 1 };
    };
    for (let radius = 0; radius <= 2; radius++) {
      for (let at = 0; at < 64; at++) {
        if (kingDistance(at, king) !== radius) continue;
        const s = setup(at);
        if (!s) continue;
        try {
          this.engine.setSetup(handle, s); // refused when his king is attacked with the player to move
          return true;
        } catch {
          continue;
        }
      }
    }
    return false;
  }

  /** A guess's men after the events since it was taken, beside the player's men `own` (piece codes by square). */
  private patched(guess: number[], own: number[]): number[] {
    const men = guess.slice();
    // a man of his on a square the player's man moved to or through was not there: he stands nearby
    // (dropped, his men fell short of the captures heard; krieg v random, seed 1, game 23: his rook
    // gone from the guesses, his king "bare", and Kxe3 took the rook and stalemated him)
    const away = (sq: number) => {
      if (men[sq] === 0 || pieceType(men[sq]) === KING) return; // his king stays, to be moved by place()
      const man = men[sq];
      men[sq] = 0;
      const free = (at: number) =>
        men[at] === 0 && own[at] === 0 && (pieceType(man) !== PAWN || (rank(at) > 0 && rank(at) < 7));
      let best = -1;
      for (let at = 0; at < 64; at++)
        if (at !== sq && free(at) && (best < 0 || kingDistance(at, sq) < kingDistance(best, sq))) best = at;
      if (best >= 0) men[best] = man;
    };
    for (const event of this.view.events.slice(this.takenAt)) {
      if (event.type === 'attempt' && event.side === this.view.as && event.percept.answer === 'legal') {
        const from = parseSquare(event.attempt.slice(0, 2));
        const to = parseSquare(event.attempt.slice(2, 4));
        for (const sq of between(from, to)) away(sq);
        const taken = event.percept.capture;
        if (taken !== undefined && pieceType(men[taken]) !== KING) men[taken] = 0;
        away(to);
      } else if (event.type === 'opponent-move' && event.percept?.capture !== undefined) {
        const target = event.percept.capture;
        if (men[target] !== 0) continue;
        const from = this.nearestMan(men, target);
        if (from >= 0) {
          men[target] = men[from];
          men[from] = 0;
        }
      }
    }
    return men;
  }

  /**
   * The opponent's man that took on `target`: the nearest that reaches it in one move on an empty
   * board (a pawn diagonally from behind), else the nearest other (the king never).
   */
  private nearestMan(men: number[], target: number): number {
    let best = -1;
    let bestKey = Infinity;
    const forward = this.opponent === WHITE ? 1 : -1;
    for (let sq = 0; sq < 64; sq++) {
      const type = pieceType(men[sq]);
      if (men[sq] === 0 || type === KING) continue;
      const df = Math.abs(file(target) - file(sq));
      const dr = Math.abs(rank(target) - rank(sq));
      const reaches =
        type === PAWN
          ? rank(target) - rank(sq) === forward && df === 1
          : type === KNIGHT
            ? df * dr === 2
            : (type !== BISHOP && (df === 0 || dr === 0)) || (type !== ROOK && df === dr);
      if (type === PAWN && !reaches) continue;
      const key = Math.max(df, dr) + (reaches ? 0 : 8);
      if (key < bestKey) {
        best = sq;
        bestKey = key;
      }
    }
    return best;
  }
}
