// Tablebase play (issue #35): while the opponent has a bare king, the player's belief is exact and
// its engine's core holds a tablebase of the ending, the move is the table's best attempt. The
// table comes from the player's TableSource (player.ts; the CLI's reads the cache, egtbFile.node.ts)
// the first time the game reaches a tabled ending, so a game that never does pays nothing; without
// a source, a table the caller loaded (egtbLoad, egtbBuild) is used. A missing table hands the
// turn back. The player follows one strategy:
// after each of its attempts it probes the table's state that attempt led to (egtbFollow: the set
// the table assumed, which the defender's Illegal attempts heard may have narrowed since) rather
// than its exact set, so the value falls by a move each move and the mate comes within the first
// probe's value. A state the table lacks is probed through the same men with the king anywhere.
// A player asks it before its endgame technique (./endgame.ts); undefined hands the turn back.
import type { Engine } from '../engine';
import { KriegError } from '../errors';
import { egtbCount, egtbFollow, egtbProbe, type EgtbEnding } from '../core/egtb';
import type { RuleSet } from '../record/rules';
import type { View } from '../record/record';
import { parseFen } from '../notation/fen';
import { ownBoard } from '../referee/ownBoard';
import { BLACK, WHITE } from '../constants';
import type { PositionSource } from './sources';
import type { TableSource, Turn } from './player';
import { egtbEndingOf, egtbTableName } from './egtb';

/** Belief positions: one per square of the lone king. */
const MAX_SQUARES = 64;
/** Estimation work for the belief request. */
const WORK = 2_000_000;

/** The table an engine's core holds, loaded through a TableSource (`ending-table`). */
const held = new WeakMap<Engine, string>();

/**
 * The tabled ending the view's owner is in by what he knows for sure — his men, and every enemy man
 * but the king taken (the start's less his captures heard) — else undefined.
 */
function endingOfView(view: View): EgtbEnding | undefined {
  const own = ownBoard(view);
  const side = own.side === 'white' ? WHITE : BLACK;
  const ending = egtbEndingOf(own.board, side);
  if (!ending) return undefined;
  let enemies = parseFen(view.start).board.filter((code) => code !== 0 && code >> 3 !== side).length;
  for (const e of view.events)
    if (e.type === 'attempt' && e.side === view.as && e.percept.capture !== undefined) enemies--;
  return enemies === 1 ? ending : undefined;
}

export class TablebaseTechnique {
  readonly counters = { tablebaseMoves: 0 };
  /** The first value probed in this ending (attacker moves to mate at most), and the last attempt. */
  firstValue = 0;
  private last: number | undefined;

  /** `tables`: where the table comes from (undefined: the one the caller loaded, if any); `enabled`: false plays without. */
  constructor(
    private readonly engine: Engine,
    private readonly source: PositionSource,
    private readonly rules: RuleSet,
    private readonly tables: TableSource | undefined,
    private readonly enabled = true,
  ) {}

  /** The table's attempt, or undefined when not in a tabled ending (or no table, or no mate is known). */
  choose(turn: Turn): number | undefined {
    if (!this.enabled || (!this.tables && egtbCount(this.engine) === 0)) return undefined;
    // from the view alone (the belief untouched: a game outside the ending plays as without a table)
    const ending = endingOfView(turn.view);
    if (!ending || !this.ready(ending)) return undefined;
    const limits = { work: WORK, deadline: turn.deadline };
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

  /** Whether the engine holds `ending`'s table of the rules: from the source, the first time. */
  private ready(ending: EgtbEnding): boolean {
    if (!this.tables) return true; // the caller's table (another ending's probe fails: egtb-status)
    const table = egtbTableName(this.rules);
    const key = `${ending}-${table}`;
    if (held.get(this.engine) === key) return true;
    if (!this.tables(this.engine, ending, table)) return false;
    held.set(this.engine, key);
    return true;
  }
}
