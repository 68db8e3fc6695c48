// Random endgame setups and the points of a game where White is to move: used by the problem
// database's generator (host/db/generate.node.ts) and the problem harvesters (scripts/harvest-*.ts).
import { Chess } from 'chessops/chess';
import { parseFen as parseChessopsFen } from 'chessops/fen';
import { makeFenOfPieces } from '../notation/fen';
import { kingDistance } from '../notation/square';
import type { GameRecord } from '../record/record';

/**
 * The FEN (White to move) of the two kings on `wk`, `bk` and `pieces` (letters) on random free
 * squares (pawns off the back ranks), when it is a legal position that is not over and has mating
 * material; undefined otherwise (the caller draws again).
 */
export function placedSetup(random: () => number, wk: number, bk: number, pieces: string): string | undefined {
  const placed: [number, string][] = [
    [wk, 'K'],
    [bk, 'k'],
  ];
  const used = new Set([wk, bk]);
  for (const p of pieces) {
    const sq = Math.floor(random() * 64);
    if (used.has(sq) || ((p === 'P' || p === 'p') && (sq < 8 || sq >= 56))) return undefined;
    used.add(sq);
    placed.push([sq, p]);
  }
  const fen = makeFenOfPieces(placed);
  const setup = parseChessopsFen(fen);
  if (setup.isErr) return undefined;
  const pos = Chess.fromSetup(setup.unwrap());
  if (pos.isErr) return undefined;
  const chess = pos.unwrap();
  return chess.isEnd() || chess.isInsufficientMaterial() ? undefined : fen;
}

/** The record cut after each of Black's legal moves (White to move next), with its ply count. */
export function whiteToMoveCuts(record: GameRecord): { plies: number; record: GameRecord }[] {
  const cuts: { plies: number; record: GameRecord }[] = [];
  let plies = 0;
  record.events.forEach((event, i) => {
    if (event.type !== 'attempt' || event.percept.answer !== 'legal') return;
    plies++;
    if (event.side === 'black' && !event.percept.end)
      cuts.push({ plies, record: { ...record, result: '*', events: record.events.slice(0, i + 1) } });
  });
  return cuts;
}

/** White's material in a random setup (besides the king), and Black's possible extras. */
const WHITE_MATERIAL = ['Q', 'R', 'RR', 'QR', 'RB', 'QP'];
const BLACK_EXTRAS = ['p', 'p', 'p', 'n', 'b']; // pawns twice as likely as either minor piece

/** The share of setups with Black's king on the edge. */
const EDGE_KING = 0.5;

/**
 * A random endgame setup: White has K+Q, K+R, K+R+R, K+Q+R, K+R+B or K+Q+P, Black a king with 0-3
 * pawns or minor pieces; the kings 2-3 squares apart, Black's king on the edge in half of them.
 * Returns its name (k+white v k+black) and FEN: legal, White to move, not over.
 */
export function randomSetup(random: () => number): { name: string; fen: string } {
  const pick = (n: number) => Math.floor(random() * n);
  const white = WHITE_MATERIAL[pick(WHITE_MATERIAL.length)];
  const extras = pick(4);
  const black = Array.from({ length: extras }, () => BLACK_EXTRAS[pick(BLACK_EXTRAS.length)])
    .sort()
    .join('');
  const name = `k${white.toLowerCase()}k${black}`;
  for (;;) {
    let bk = pick(64);
    // half the time Black's king starts on the edge, where mates are
    if (random() < EDGE_KING) while ((bk & 7) !== 0 && (bk & 7) !== 7 && bk >= 8 && bk < 56) bk = pick(64);
    const wk = pick(64);
    const distance = kingDistance(bk, wk);
    if (distance < 2 || distance > 3) continue;
    const fen = placedSetup(random, wk, bk, white + black);
    if (fen) return { name, fen };
  }
}
