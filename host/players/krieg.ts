// `krieg`: krieg's own player. HS's sampling and choose-move (sampling.ts) and, at the start of a
// turn whose exact belief holds at most `mate` positions, a guaranteed-checkmate search over it
// (Russell & Wolfe's gl-dbu, iterative deepening up to `mateply` plies within `matenodes` belief
// nodes, host/solver/solve.ts); a proof is then followed attempt by attempt, branch by branch of
// what the referee says, to the mate. A branch the strategy does not foresee (it cannot happen if
// the belief was exact) drops it, and the sampling goes on.
//
// Following a strategy needs every percept heard to match one of its branches; under rules that
// announce pawn tries before each turn the strategy's branches also carry them, and the player
// does not search for mates there (the rule sets without announced pawn tries: berkeley,
// berkeley-any, english).
import type { Engine } from '../engine';
import { encodePercept, type Percept } from '../record/percept';
import type { ViewEvent } from '../record/record';
import { parseUci } from '../notation/move';
import { solve } from '../solver/solve';
import type { Branch, StrategyNode } from '../solver/strategy';
import type { PlayerFactory, PlayerSetup, Turn } from './player';
import { SamplingPlayer, SAMPLING_DEFAULTS, WORK_PER_NODE } from './sampling';
import { trackerSource, type PositionSource } from './sources';

export const KRIEG_DEFAULTS = { ...SAMPLING_DEFAULTS, mate: 200, mateply: 5, matenodes: 20_000 };
/** The checkmate search's arenas (bytes) in the player's engine. */
const MATE_MEMORY = 24 * 2 ** 20;
/** A time budget's share for the checkmate search. */
const MATE_TIME_SHARE = 0.3;

type Following =
  | { at: 'attempt'; node: StrategyNode } // its attempt is to be made
  | { at: 'answer'; node: StrategyNode } // its attempt was made: the referee's answer decides
  | { at: 'reply'; replies: { heard: { percept: Percept }; next: StrategyNode }[] }; // the opponent moves next

const samePercept = (a: Percept, b: Percept) => encodePercept(a) === encodePercept(b);

export class KriegPlayer extends SamplingPlayer {
  private following: Following | undefined;
  private readonly mateCounters = { mateSearches: 0, matesProven: 0, strategyAttempts: 0 };

  constructor(setup: PlayerSetup, engine: Engine, source: PositionSource) {
    super('krieg', setup, engine, source, 'hs', { sample: setup.options.sample, depth: setup.options.depth });
  }

  observe(event: ViewEvent): void {
    super.observe(event);
    const f = this.following;
    if (!f) return;
    if (event.type === 'attempt' && event.side === this.setup.side && f.at === 'answer') {
      const branch = f.node.answers.find((b) => samePercept(b.heard.percept, event.percept));
      this.following = branch ? this.after(branch) : undefined;
    } else if (event.type === 'opponent-move' && event.percept && f.at === 'reply') {
      const reply = f.replies.find((r) => samePercept(r.heard.percept, event.percept!));
      this.following = reply ? { at: 'attempt', node: reply.next } : undefined;
    } else if (
      event.type === 'pawn-tries' ||
      (event.type === 'opponent-move' && !event.percept) ||
      event.type === 'any'
    ) {
      // announcements the strategies under these rules do not branch on
    } else this.following = undefined;
  }

  private after(branch: Branch): Following | undefined {
    if ('next' in branch) return { at: 'attempt', node: branch.next };
    if ('replies' in branch) return { at: 'reply', replies: branch.replies };
    return undefined; // won: the game is over
  }

  choose(turn: Turn): number | 'any' {
    if (this.following?.at === 'attempt') {
      const attempt = parseUci(this.following.node.attempt);
      if (attempt !== undefined && turn.attempts.includes(attempt)) {
        this.following = { at: 'answer', node: this.following.node };
        this.mateCounters.strategyAttempts++;
        return attempt;
      }
      this.following = undefined;
    }
    if (turn.tried.length === 0 && this.searchesMates()) {
      const strategy = this.searchMate(turn);
      if (strategy) {
        this.following = { at: 'answer', node: strategy };
        this.mateCounters.strategyAttempts++;
        return parseUci(strategy.attempt)!;
      }
    }
    return super.choose(turn);
  }

  stats(): Record<string, number> {
    return { ...super.stats(), ...this.mateCounters };
  }

  private searchesMates(): boolean {
    const tries = this.setup.rules.pawnTries;
    return this.options.depth >= 0 && (tries === 'none' || tries === 'any-secret' || tries === 'any-open');
  }

  /** A proven strategy from the exact belief, when it is small enough. */
  private searchMate(turn: Turn): StrategyNode | undefined {
    const { options, budget, rules } = this.setup;
    const limit = options.mate;
    const found = this.source.positions(limit + 1, {
      work: budget.nodes === undefined ? 2_000_000 : budget.nodes * WORK_PER_NODE,
      deadline: turn.deadline,
    });
    if (!found.exact || found.handles.length === 0 || found.handles.length > limit) return undefined;
    const positions = found.handles.map((h) => this.engine.fen(h));
    this.mateCounters.mateSearches++;
    const timeMs =
      turn.deadline === undefined ? undefined : MATE_TIME_SHARE * Math.max(0, turn.deadline - performance.now());
    const result = solve(
      this.engine,
      { rules, positions, ply: options.mateply },
      'gl-dbu',
      { nodes: options.matenodes, timeMs, memoryBytes: MATE_MEMORY },
      undefined,
      { deepen: true },
    );
    if (result.answer !== 'proven' || !result.strategy) return undefined;
    this.mateCounters.matesProven++;
    return result.strategy.root;
  }
}

export const kriegPlayer: PlayerFactory = (setup, engine) =>
  new KriegPlayer(setup, engine, trackerSource(engine, setup));
