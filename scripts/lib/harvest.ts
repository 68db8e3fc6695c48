// Shared by the problem harvesters (scripts/harvest-problems.ts, scripts/harvest-set.ts): random
// endgame setups and the points of a game where White is to move.
import { Chess } from 'chessops/chess';
import { parseFen as parseChessopsFen } from 'chessops/fen';
import { fenOfPieces } from '../../host/notation/fen';
import type { GameRecord } from '../../host/referee/record';

/**
 * The FEN (White to move) of the two kings on `wk`, `bk` and `pieces` (letters) on random free
 * squares (pawns off the back ranks), when it is a legal position that is not over and has mating
 * material; undefined otherwise (the caller draws again).
 */
export function placedSetup(random: () => number, wk: number, bk: number, pieces: string): string | undefined {
  const placed: [number, string][] = [[wk, 'K'], [bk, 'k']];
  const used = new Set([wk, bk]);
  for (const p of pieces) {
    const sq = Math.floor(random() * 64);
    if (used.has(sq) || ((p === 'P' || p === 'p') && (sq < 8 || sq >= 56))) return undefined;
    used.add(sq);
    placed.push([sq, p]);
  }
  const fen = fenOfPieces(placed);
  const setup = parseChessopsFen(fen);
  if (setup.isErr) return undefined;
  const pos = Chess.fromSetup(setup.unwrap());
  if (pos.isErr) return undefined;
  const chess = pos.unwrap();
  return chess.isEnd() || chess.isInsufficientMaterial() ? undefined : fen;
}

/** Chebyshev distance of two squares (king steps). */
export function kingDistance(a: number, b: number): number {
  return Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
}

/** The record cut after each of Black's legal moves (White to move next), with its ply count. */
export function whiteToMoveCuts(record: GameRecord): { plies: number; record: GameRecord }[] {
  const cuts: { plies: number; record: GameRecord }[] = [];
  let plies = 0;
  record.events.forEach((event, i) => {
    if (event.type !== 'attempt' || event.percept.answer !== 'legal') return;
    plies++;
    if (event.side === 'black' && !event.percept.end) cuts.push({ plies, record: { ...record, result: '*', events: record.events.slice(0, i + 1) } });
  });
  return cuts;
}
