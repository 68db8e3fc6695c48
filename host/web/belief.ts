// What the page shows of a player's knowledge: the belief state of a view as exact, a sample or
// none, a heatmap of the opponent's pieces (all, and per piece type) and a few sample positions.
//
// The positions come from one belief tracker (host/belief/tracker.ts, issue #13) per side, kept in
// the Know worker for the whole game and fed the view event by event as the game goes on (or as a
// loaded game is stepped through), never estimated again from the first ply: exact while the
// tracker holds the belief state, else Parker's pool of positions consistent with every
// observation. What the page shows at each ply it has passed is kept, so stepping back is
// instant. The page, the worker and the tests read only BeliefSummary.
import { Engine } from '../engine';
import { isMove } from '../belief/describe';
import { pieceHeatmap } from '../belief/heatmap';
import { Tracker, TRACKER_RECORDS, type Budget } from '../belief/tracker';
import type { Side, View } from '../record/record';

/** Piece types of the core (assembly/chess/position.ts): pawn 1 … king 6; index 0 is "all". */
export const PIECE_TYPES = ['all', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;
export type PieceFilter = (typeof PIECE_TYPES)[number];

export interface BeliefSummary {
  /** The opponent whose pieces are counted. */
  enemy: Side;
  /**
   * exact: the positions counted are the whole belief state (or, past COUNT_EXACT, a random part
   * of it); sample: a pool of positions consistent with everything heard, not all of them; none:
   * the tracker holds no position (what was heard contradicts every position it kept).
   */
  kind: 'exact' | 'sample' | 'none';
  /** The positions counted (heatmaps, shares). */
  positions: number;
  /** The positions the tracker holds (the belief's size when exact). */
  held: number;
  /** The plies of the view (the ply shown). */
  ply: number;
  /** Per piece filter (PIECE_TYPES), per square a1 = 0 … h8 = 63: positions with such an enemy piece there. */
  heatmaps: Record<PieceFilter, number[]>;
  /** A few of the positions, as FENs. */
  samples: string[];
}

/** An exact belief of at most this many positions is counted whole (the heatmap `krieg belief` shows). */
export const COUNT_EXACT = 20_000;
/** Positions counted of a larger belief or of a pool, at random; and at each ply passed on the way (to keep). */
export const COUNT_SAMPLE = 1_000;
/** What the tracker may spend on each event: deterministic work, about a tenth of a second … */
export const TRACK_EVENT_BUDGET: Budget = { work: 500_000 };
/**
 * … and in pool mode at most this many milliseconds too: there the work does not bound the time
 * (the standbys replaying the view: up to 0.6 s of CPU for one event of a 300-ply random game's
 * ply 10, bench:web), and a ply's heatmap must come within a second. An exact belief is never cut
 * short by the clock (it would stop being exact), nor is a view fed in the tests' exact plies.
 * Less starves the standbys that take over when the pool dies: at 150 ms, under a load of 13 on
 * 2 cores, Black's view of that game lost its belief for its last 51 plies (none at 300 ms).
 */
export const POOL_EVENT_MS = 300;
const SAMPLES = 8;

/** Counts `n` positions copied into records first … first + n - 1 of `engine`. */
function summarise(engine: Engine, first: number, n: number, enemy: Side) {
  const color: 0 | 1 = enemy === 'white' ? 0 : 1;
  const boards = Array.from({ length: n }, (_, i) => engine.setup(first + i).board);
  // what `krieg belief --show heatmap` counts, and the same per piece type
  const heatmaps = Object.fromEntries(
    PIECE_TYPES.map((t, type) => [t, pieceHeatmap(boards, color, type === 0 ? undefined : type).counts]),
  ) as Record<PieceFilter, number[]>;
  const samples = Array.from({ length: Math.min(SAMPLES, n) }, (_, i) => engine.fen(first + i));
  return { heatmaps, samples };
}

/**
 * One side's belief through one game: a tracker fed the view's events as they come, and the
 * summary at each ply it passed. A view that does not continue the events fed (another game, an
 * earlier ply not kept) starts it afresh.
 */
export class KnowTracker {
  private tracker: Tracker | undefined;
  private gameKey = '';
  /** The events fed (JSON), the plies among them, and whether every one was taken whole in exact mode. */
  private fed: string[] = [];
  private plies = 0;
  private exactSoFar = true;
  /** An event contradicted every position kept: none from there on. */
  private lost = false;
  /** Summaries by the number of events they follow: at each ply boundary passed, and each view asked. */
  private readonly kept = new Map<number, BeliefSummary>();
  /** The event counts whose summary counts an exact belief whole (up to COUNT_EXACT). */
  private readonly whole = new Set<number>();

  constructor(
    private readonly engine: Engine,
    readonly as: Side,
  ) {}

  /** The engine a worker's trackers share: room for their borrowed records and the positions counted. */
  static engine(core: ConstructorParameters<typeof Engine>[0]): Engine {
    return new Engine(core, TRACKER_RECORDS.end + COUNT_EXACT);
  }

  private static key(view: View): string {
    return JSON.stringify([view.as, view.rules, view.start]);
  }

  /** The summary of `view` when it is kept or the tracker is at its end; else undefined (feed first). */
  answer(view: View): BeliefSummary | undefined {
    const n = view.events.length;
    if (!this.continues(view) || n > this.fed.length) return undefined;
    if (n < this.fed.length || this.whole.has(n)) return this.kept.get(n);
    const summary = this.summary(COUNT_EXACT);
    this.kept.set(n, summary);
    this.whole.add(n);
    return summary;
  }

  /**
   * Every position of `view`'s belief as FENs, when the tracker holds it exact at the view's end
   * (fed to it, every event taken whole); else undefined (a pool holds only part of the belief).
   */
  exactPositions(view: View): string[] | undefined {
    if (!this.continues(view) || view.events.length !== this.fed.length) return undefined;
    if (this.lost || !this.exactSoFar || this.tracker!.mode !== 'exact') return undefined;
    return this.tracker!.positions();
  }

  /**
   * Makes the tracker's end `view`'s when it is past it and the belief kept there may be exact (fed
   * afresh from the start: only the tracker at a view's end holds its positions).
   */
  rewind(view: View): void {
    if (view.events.length >= this.fed.length || !this.continues(view)) return;
    if (this.answer(view)?.kind !== 'exact') return;
    this.reset(view);
  }

  /** Whether `view` continues the events fed, or is one of the views kept on the way. */
  private continues(view: View): boolean {
    if (KnowTracker.key(view) !== this.gameKey || !this.tracker) return false;
    const n = Math.min(view.events.length, this.fed.length);
    if (view.events.length < this.fed.length && !this.kept.has(n)) return false;
    for (let i = 0; i < n; i++) if (this.fed[i] !== JSON.stringify(view.events[i])) return false; // another game
    return true;
  }

  /** Feeds events of `view` for about `ms` milliseconds: the plies fed, and whether all are. */
  feed(view: View, ms: number): { ply: number; done: boolean } {
    if (!this.continues(view)) this.reset(view);
    const started = performance.now();
    while (this.fed.length < view.events.length && performance.now() - started < ms) {
      const event = view.events[this.fed.length];
      if (isMove(event) && !this.kept.has(this.fed.length)) this.kept.set(this.fed.length, this.summary(COUNT_SAMPLE));
      if (!this.lost) {
        const pool = this.tracker!.mode === 'pool';
        const o = this.tracker!.observe(
          event,
          pool ? { ...TRACK_EVENT_BUDGET, timeMs: POOL_EVENT_MS } : TRACK_EVENT_BUDGET,
        );
        this.lost = o.status === 'inconsistent';
        if (o.stopped !== 'complete' && o.mode === 'exact') this.exactSoFar = false;
      }
      if (isMove(event)) this.plies++;
      this.fed.push(JSON.stringify(event));
    }
    return { ply: this.plies, done: this.fed.length >= view.events.length };
  }

  private reset(view: View): void {
    this.tracker?.free();
    this.tracker = Tracker.create(this.engine, { rules: view.rules, as: view.as, start: view.start });
    this.gameKey = KnowTracker.key(view);
    this.fed = [];
    this.plies = 0;
    this.exactSoFar = true;
    this.lost = false;
    this.kept.clear();
    this.whole.clear();
  }

  /** The positions held now, counted: all of an exact belief up to `count`, else COUNT_SAMPLE at random. */
  private summary(count: number): BeliefSummary {
    const tracker = this.tracker!;
    const held = this.lost ? 0 : tracker.size();
    const exact = tracker.mode === 'exact' && this.exactSoFar;
    const first = TRACKER_RECORDS.end;
    const n = held === 0 ? 0 : tracker.copyPositions(Math.min(held, exact ? count : COUNT_SAMPLE), first);
    const enemy: Side = this.as === 'white' ? 'black' : 'white';
    return {
      enemy,
      kind: held === 0 ? 'none' : exact ? 'exact' : 'sample',
      positions: n,
      held,
      ply: this.plies,
      ...summarise(this.engine, first, n, enemy),
    };
  }
}
