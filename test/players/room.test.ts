// The room of a king with pawns (issue #34, krieg v HS; assembly/players/choose.ts roomOf,
// host/players/values.ts ROOM_COST): against HS krieg reduced the opponent to king and pawns and
// then shuffled a queen and two rooks to the ply cap, the king's square unknown — the region (the
// union of his squares over the belief) stayed the whole board whatever krieg did. The room counts,
// per belief position, the squares his king reaches through squares krieg's men do not attack.
// Hand-built belief: White Ka1, Rd4, Ph4; Black's pawn h5 (blocked) and his king on h7 or a8.
//   Ka1-b1 (nothing cut): Kh7 reaches files e–h of ranks 5–8 less g5 (the pawn's) and h5 (his
//   pawn), 14 squares; Ka8 files a–c of ranks 5–8, 12; the sum 26.
//   Rd4-d6 (rank 6 cut): Kh7 e7–h8, 8; Ka8 a7–c8, 6; the sum 14 — both kings boxed at once, and
//   chosen; without the room, Rd7+ (which leaves Kh7 the whole lower board) is chosen.
//   A black knight on g6: it stands in his king's way as his pawns do, 13 (host/players/values.ts reads
//   the room against king and pawns, or with a crushing edge whatever piece a position gives him).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { parseUci } from '../../host/notation/move';
import { bestByWorth, PROGRESS_WEIGHT, ROOM_COST, worthOf } from '../../host/players/values';
import { seededRandom } from '../../host/referee/game';
import { screenedBelief } from '../lib/screenedBelief';

const a = (uci: string) => parseUci(uci)!;

const SPREAD = ['8/7k/8/7p/3R3P/8/8/K7 w - - 0 1', 'k7/8/8/7p/3R3P/8/8/K7 w - - 0 1'];

describe.each(BACKENDS)('the room of a king with pawns on %s', (backend) => {
  it('counts the squares his king reaches through unattacked squares, per position', () => {
    const { threat } = screenedBelief(backend, SPREAD);
    expect(threat(a('a1b1'))).toMatchObject({ legal: 2, room: 14 + 12 });
    expect(threat(a('d4d6'))).toMatchObject({ legal: 2, room: 8 + 6, loss: 0 });
    const knight = screenedBelief(backend, ['8/7k/6n1/7p/3R3P/8/8/K7 w - - 0 1']);
    expect(knight.threat(a('a1b1')).room).toBe(13);
  });

  it('makes the cut that boxes the king wherever he is', () => {
    const { scores, threat, edge } = screenedBelief(backend, SPREAD);
    expect(edge.bareKing).toBe(true);
    const chosen = bestByWorth(scores, threat, edge, seededRandom(1))!;
    expect(chosen.best.attempt).toBe(a('d4d6'));
    const withoutRoom = bestByWorth(scores, (x) => ({ ...threat(x), room: 0 }), edge, seededRandom(1))!;
    expect(withoutRoom.best.attempt).not.toBe(a('d4d6'));
    // the room's part of the worth: ROOM_COST a square of the mean room
    const row = scores.find((r) => r.attempt === a('d4d6'))!;
    const key = row.score! + PROGRESS_WEIGHT * row.progress!;
    const t = threat(a('d4d6'));
    expect(worthOf(key, { ...t, room: 0 }, edge, a('d4d6')) - worthOf(key, t, edge, a('d4d6'))).toBeCloseTo(
      (ROOM_COST * 14) / 2,
      12,
    );
  });
});
