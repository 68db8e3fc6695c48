// Tablebase play (issue #35): while the opponent has a bare king, the player's belief is exact and
// its engine's core holds a tablebase of the ending (host/core/egtb.ts; loaded by the caller, as
// egtbFile.node.ts does), the move is the table's best attempt. The player follows one strategy:
// after each of its attempts it probes the table's state that attempt led to (egtbFollow: the set
// the table assumed, which the defender's Illegal attempts heard may have narrowed since) rather
// than its exact set, so the value falls by a move each move and the mate comes within the first
// probe's value. A state the table lacks is probed through the same men with the king anywhere.
// A player asks it before its endgame technique (./endgame.ts); undefined hands the turn back.
import type { Engine } from '../engine';
import { KriegError } from '../errors';
import { egtbCount, egtbFollow, egtbProbe } from '../core/egtb';
import type { PositionSource } from './sources';
import type { Turn } from './player';

/** Belief positions: one per square of the lone king. */
const MAX_SQUARES = 64;
/** Estimation work for the belief request. */
const WORK = 2_000_000;

export class TablebaseTechnique {
  readonly counters = { tablebaseMoves: 0 };
  /** The first value probed in this ending (attacker moves to mate at most), and the last attempt. */
  firstValue = 0;
  private last: number | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly source: PositionSource,
  ) {}

  /** The table's attempt, or undefined when not in a tabled ending (or no mate is known). */
  choose(turn: Turn): number | undefined {
    if (egtbCount(this.engine) === 0) return undefined;
    const limits = { work: WORK, deadline: turn.deadline };
    const first = this.source.positions(1, limits);
    if (first.handles.length === 0) return undefined;
    const found = this.source.positions(MAX_SQUARES + 1, limits);
    if (!found.exact || found.handles.length === 0 || found.handles.length > MAX_SQUARES) return undefined;
    const handle = found.handles[0];
    const king = this.engine.setup(handle).side === 0 ? 14 : 6;
    const squares = [...new Set(found.handles.map((h) => this.engine.setup(h).board.indexOf(king)))];
    try {
      const followed = this.last === undefined ? undefined : egtbFollow(this.engine, this.last, handle, squares);
      const probe = egtbProbe(this.engine, handle, followed ?? squares);
      if (probe.value === 0 || !turn.attempts.includes(probe.attempt)) {
        this.last = undefined;
        return undefined;
      }
      if (this.firstValue === 0) this.firstValue = probe.value;
      this.last = probe.attempt;
      this.counters.tablebaseMoves++;
      return probe.attempt;
    } catch (error) {
      // not the table's ending (another ending, pawns, a defender with men)
      if (error instanceof KriegError && error.code === 'egtb-status') return undefined;
      throw error;
    }
  }
}
