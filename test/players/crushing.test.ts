// A crushing edge over the screened positions (issue #34; host/players/values.ts crushingOver): past
// the tracker's exact layer its lines give him a piece for each pawn of his that never moved (a
// capture is announced by its square), so against king and blocked pawns krieg read "a piece left"
// from the position it looked at, and the won ending's measures (the room, the pushes and takes)
// never applied: 25 games of 200 against random capped far ahead. Hand-built belief, the room test's
// box (test/players/room.test.ts) with his blocked h5 pawn a phantom piece in every position:
//   White Ka1, Rd4, pawns a2 b2 c2 h4; Black Kh7 with a knight on h5, or Ka8 with a bishop on h5.
//   krieg 9 against 3 in each: crushing (DECISIVE on the mean, one man besides his king), read as
//   against king and pawns; Rd4-d6 boxes both kings (room 8 + 6, against 14 + 12 for Ka1-b1: his man
//   on h5 stands in his king's way as his pawn did) and is chosen of the rook's and king's moves (a
//   safe push of his pawns first, PUSH_GAIN); read from one position (a piece left) neither.
//   A queen for the piece in one position (mean 3 ahead), or four men besides his king: not crushing.
// And a whole game: K+Q+R v K+N from a known start against random, mated within the stated moves.
import { kriegAgainstRandom } from '../lib/kriegGame';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { parseUci } from '../../host/notation/move';
import { bestByWorth, crushingOver, edgeOf, pushGain } from '../../host/players/values';
import { PlayerEngines } from '../../host/players/engines.node';
import { seededRandom } from '../../host/referee/game';
import { screenedBelief } from '../lib/screenedBelief';

const a = (uci: string) => parseUci(uci)!;

/** krieg's pawns' squares (a2, b2, c2, h4). */
const PAWNS = [8, 9, 10, 31];

const PHANTOM = ['8/7k/8/7n/3R3P/8/PPP5/K7 w - - 0 1', 'k7/8/8/7b/3R3P/8/PPP5/K7 w - - 0 1'];

describe.each(BACKENDS)('a crushing edge whatever piece the belief gives him on %s', (backend) => {
  it('reads the screened positions as a won ending and boxes the king', () => {
    const { engine, scores, threat, edge } = screenedBelief(backend, PHANTOM);
    expect(edge.bareKing).toBe(false); // one position: a piece left
    expect(crushingOver(engine, [10, 11])).toBe(true);
    const crushing = edgeOf(engine, 10, true);
    expect(crushing).toMatchObject({ decisive: true, bareKing: true, menToTake: true });
    expect(threat(a('a1b1'))).toMatchObject({ legal: 2, room: 14 + 12 });
    expect(threat(a('d4d6'))).toMatchObject({ legal: 2, room: 8 + 6, loss: 0 });
    // crushing: a safe push first (his king far from the pawn), and of the rook's and king's moves the cut
    const choice = (e: typeof edge, pieces: boolean) =>
      bestByWorth(
        scores.filter((r) => !pieces || !PAWNS.includes(r.attempt & 63)),
        threat,
        e,
        seededRandom(1),
      )!.best.attempt;
    expect(pushGain(choice(crushing, false), crushing)).toBeGreaterThan(0);
    expect(choice(crushing, true)).toBe(a('d4d6'));
    // read from one position (a piece left): no push gains, no room
    expect(pushGain(choice(edge, false), edge)).toBe(0);
    expect(choice(edge, true)).not.toBe(a('d4d6'));
  });

  it('is not crushing a queen short on the mean, nor against four men', () => {
    const queen = screenedBelief(backend, [PHANTOM[0], 'k7/8/8/7q/3R3P/8/PPP5/K7 w - - 0 1']);
    expect(crushingOver(queen.engine, [10, 11])).toBe(false);
    const many = screenedBelief(backend, ['8/6pk/8/pp5p/PP1R3P/8/2P5/K7 w - - 0 1']);
    expect(edgeOf(many.engine, 10).decisive).toBe(true);
    expect(crushingOver(many.engine, [10])).toBe(false);
  });
});

describe.each(BACKENDS)('krieg crushing against king and knight on %s', (backend) => {
  it('mates random within the stated moves', () => {
    const { record, moves } = kriegAgainstRandom(backend, {
      rules: preset('berkeley'),
      start: '1n6/8/8/4k3/8/8/8/K2Q3R w - - 0 1',
      seeds: [41, 42],
      maxPlies: 200,
      engines: new PlayerEngines(backend),
    });
    expect(record.result).toBe('1-0');
    expect(moves).toBeLessThanOrEqual(40);
  });
});
