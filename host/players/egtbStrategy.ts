// A tablebase's strategy as a tree (issue #35): from a state (the attacker's men, the lone king's
// squares), the table's best attempt and, for every answer the attacker can hear, what follows, in
// the strategy format of the solvers (host/solver/strategy.ts), which `krieg verify` checks with its
// independent referee. The answers come from the referee itself (a GameSession per king square and
// per defender reply), not from the table's transitions: the table only chooses the attempts.
// The tree grows with the value and the classes (one node per line), so it is for small states.
import type { Engine } from '../engine';
import { fail } from '../errors';
import type { Percept } from '../record/percept';
import type { RuleSet } from '../record/rules';
import { makeUci } from '../notation/move';
import { makeFenOfPieces } from '../notation/fen';
import { GameSession } from '../referee/session';
import type { Branch, Strategy, StrategyNode } from '../solver/strategy';
import { egtbProbe } from '../core/egtb';

/** The attacker's men (White's): square → FEN letter. */
type Men = Map<number, string>;

/** The FEN of the attacker's men and the king on `king`, `side` to move. */
const fenOf = (men: Men, king: number, side: 'w' | 'b') =>
  makeFenOfPieces([...men, [king, 'k'] as const], side === 'w' ? 0 : 1);

/** Squares grouped by what was heard (the percept's JSON), in the order first heard. */
function groupBy(entries: [Percept, number][]): { percept: Percept; squares: number[] }[] {
  const groups = new Map<string, { percept: Percept; squares: number[] }>();
  for (const [percept, sq] of entries) {
    const key = JSON.stringify(percept);
    const group = groups.get(key) ?? { percept, squares: [] };
    group.squares.push(sq);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The strategy of the table in `engine` from White's men of position `handle` (White to move) with
 * the lone king on `squares`: its value's worth of moves (2 × value − 1 ply); `referee` is a
 * second engine under the same rules, `scratch` a record of `engine` free for the search. Fails
 * (egtb-status) when the table knows no forced mate or its value does not fall along a line.
 */
export function egtbStrategy(
  engine: Engine,
  referee: Engine,
  rules: RuleSet,
  handle: number,
  squares: number[],
  scratch: number,
): Strategy {
  const board = engine.setup(handle).board;
  const men: Men = new Map();
  for (let sq = 0; sq < 64; sq++) if (board[sq] !== 0 && board[sq] < 8) men.set(sq, ' PNBRQK'[board[sq]]);
  const probe = egtbProbe(engine, handle, squares);
  if (probe.value === 0) throw fail('egtb-status', { text: 'the table knows no forced mate from this state' });
  const mated = (p: Percept) => p.end === 'checkmate' || (p.end === 'stalemate' && rules.stalemate === 'loss');

  const node = (men: Men, kings: number[], moves: number): StrategyNode => {
    engine.setFen(scratch, fenOf(men, kings[0], 'w'));
    const probe = egtbProbe(engine, scratch, kings);
    if (probe.value === 0 || probe.value > moves)
      throw fail('egtb-status', { text: `the table's value ${probe.value} does not fall within ${moves} moves` });
    const attempt = probe.attempt;
    const from = attempt & 63;
    const to = (attempt >> 6) & 63;
    const after: Men = new Map(men);
    after.delete(from);
    after.set(to, men.get(from)!);
    const heard: [Percept, number][] = kings.map((king) => {
      const session = new GameSession(referee, { start: fenOf(men, king, 'w') });
      return [session.attempt(attempt), king];
    });
    const answers: Branch[] = groupBy(heard).map(({ percept, squares }): Branch => {
      if (percept.answer !== 'legal') return { heard: { percept }, next: node(men, squares, moves) };
      if (mated(percept)) return { heard: { percept }, won: true };
      const replies: [Percept, number][] = [];
      for (const king of squares) {
        engine.setFen(scratch, fenOf(after, king, 'b'));
        for (const reply of engine.moves(scratch)) {
          const session = new GameSession(referee, { start: fenOf(men, king, 'w') });
          session.attempt(attempt);
          replies.push([session.attempt(reply), (reply >> 6) & 63]);
        }
      }
      return {
        heard: { percept },
        replies: groupBy(replies).map((group) => ({
          heard: { percept: group.percept },
          next: node(
            after,
            [...new Set(group.squares)].sort((a, b) => a - b),
            moves - 1,
          ),
        })),
      };
    });
    return { attempt: makeUci(attempt), answers };
  };

  return { side: 'white', ply: 2 * probe.value - 1, materialWins: false, root: node(men, squares, probe.value) };
}
