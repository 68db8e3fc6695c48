// The box check of the endgame technique against his men unknown (host/players/endgame.ts
// mayStalemate): an attempt that leaves his king's last steps on squares where a pawn of his would be
// frozen may stalemate him. Read over the whole board it vetoed the technique's sure mates for the
// rest of a game (krieg v random at 8617677, game 64: Rb2 then Rc1 mated his king on the first rank
// in every position of the set, but a pawn of his "might" stand on a4's or b5's last step; a queen
// and two rooks shuffled to the cap); now, given the squares a man of his stands on in the pool's
// positions, it counts only those. A hand-built box, checked against the true position.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { parseFen } from '../../host/notation/fen';
import { parseUci } from '../../host/notation/move';
import { mayStalemate } from '../../host/players/endgame';
import { PlayerEngines } from '../../host/players/engines.node';

const square = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

describe.each(BACKENDS)('the box check against his men unknown on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // his king on h8 and his pawn on h7, blocked by krieg's h6: Rg1 leaves the king no step but h7
  const fen = '7k/7p/7P/8/8/8/8/K2R4 w - - 0 1';
  const own = parseFen(fen);
  const rg1 = parseUci('d1g1')!;

  it('Rg1 stalemates him in the true position', () => {
    engine.setFen(1, fen);
    engine.playUci(1, 'd1g1', 2);
    expect(engine.inCheck(2)).toBe(false);
    expect(engine.moves(2)).toHaveLength(0);
  });

  it('seen where a man of his may stand on the last step, or where nothing says where they stand', () => {
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1)).toBe(true);
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1, new Set([square('h7'), square('a2')]))).toBe(true);
  });

  it('not seen where no position of the pool has a man of his there, nor with no man of his left', () => {
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1, new Set([square('a7'), square('b5')]))).toBe(false);
    expect(mayStalemate(engine, own, rg1, [square('h8')], 0)).toBe(false);
  });
});
