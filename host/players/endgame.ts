// Endgame technique (issue #34 item 3): while the opponent has a bare king and the player's belief
// holds at most 64 positions (its own men and a square for the king each: the exact belief, or the
// distinct positions of the tracker's pool once it is past exact), the player's move
// comes from the core's worst-case search over the metaposition (assembly/players/endgame.ts:
// the referee's answers and the king's replies as AND nodes, a progress measure at the horizon)
// instead of from sampling. A player keeps one of these and asks it first each turn; undefined
// hands the turn back to its usual choice.
import type { Engine } from '../engine';
import { endgameBegin, endgameValues, ENDGAME_FAIL, ENDGAME_MAX_DEPTH, ENDGAME_WIN } from '../core/endgame';
import { smallBelief, type PositionSource } from './sources';
import type { Turn, PlayerBudget } from './player';

/** Belief positions the metaposition is built from: one per square of the lone king. */
const MAX_SQUARES = 64;
/** What a placement of the men already chosen costs per visit (the progress measure's units: 12 a square of room). */
const REPEAT = 24;
/** The king on at most this many squares: the search looks one move deeper. */
const NEAR = 4;
/** Estimation work for the belief request when the budget has no node count. */
const WORK = 2_000_000;

/**
 * The attacker's men after `attempt` in position `fen` (its placement without the lone king), the key
 * of the visits below.
 */
function menAfter(fen: string, attempt: number): string {
  const [placement, side] = fen.split(' ');
  const lone = side === 'w' ? 'k' : 'K';
  const squares: string[] = [];
  for (const row of placement.split('/').reverse())
    for (const c of row) {
      if (/\d/.test(c)) squares.push(...'.'.repeat(Number(c)));
      else squares.push(c === lone ? '.' : c);
    }
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  squares[to] = squares[from];
  squares[from] = '.';
  return squares.join('');
}

/** A value the worst case decides: a sure mate or a possible loss, which no repetition penalty touches. */
const decisive = (value: number) => value <= ENDGAME_FAIL + 100_000 || value >= ENDGAME_WIN - 100_000;

export class EndgameTechnique {
  readonly counters = { endgameMoves: 0, endgameNodes: 0 };
  /**
   * How often each placement of its men the player has chosen: an attempt back to one costs REPEAT
   * a visit (the search's horizon sees no cycle; without this a flat progress measure shuffles).
   */
  private readonly visits = new Map<string, number>();

  /** `depth`: attacker moves the search looks ahead (0: off). */
  constructor(
    private readonly engine: Engine,
    private readonly source: PositionSource,
    private readonly depth: number,
    private readonly random: () => number,
  ) {}

  /** The attempt of the best worst-case value among those open this turn, or undefined when not in such an endgame. */
  choose(turn: Turn, budget: PlayerBudget, workPerNode: number): number | undefined {
    if (this.depth <= 0) return undefined;
    const limits = { work: budget.nodes === undefined ? WORK : budget.nodes * workPerNode, deadline: turn.deadline };
    // one position first: is the opponent's king bare? (cheap, and the usual answer is no)
    const first = this.source.positions(1, limits);
    if (first.handles.length === 0 || !endgameBegin(this.engine, first.handles)) return undefined;
    // the exact belief, or past it the pool's distinct positions (sources.ts smallBelief)
    // past the exact layer the pool may have lost his last step: the squares next to its own join the set
    const belief = smallBelief(this.engine, this.source, limits, MAX_SQUARES);
    const handles = belief?.handles;
    if (!handles || !endgameBegin(this.engine, handles, undefined, !belief.exact)) return undefined;
    // one move deeper once the king is nearly found (the mating net: few attempts matter, and they are cheap)
    const depth = handles.length <= NEAR ? Math.min(this.depth + 1, ENDGAME_MAX_DEPTH - 1) : this.depth;
    const { values, nodes } = endgameValues(this.engine, depth);
    this.counters.endgameNodes += nodes;
    const open = new Set(turn.attempts);
    const fen = this.engine.fen(handles[0]);
    let best: number[] = [];
    let bestValue = -Infinity;
    for (const { attempt, value } of values) {
      if (!open.has(attempt)) continue;
      const v = decisive(value) ? value : value - REPEAT * (this.visits.get(menAfter(fen, attempt)) ?? 0);
      if (v > bestValue) [best, bestValue] = [[attempt], v];
      else if (v === bestValue) best.push(attempt);
    }
    // every attempt may lose a man (a pawn the king can take whatever krieg does): the sampling's values weigh what
    if (!best.length || bestValue <= ENDGAME_FAIL) return undefined;
    this.counters.endgameMoves++;
    const chosen = best[Math.floor(this.random() * best.length)];
    const key = menAfter(fen, chosen);
    this.visits.set(key, (this.visits.get(key) ?? 0) + 1);
    return chosen;
  }
}
