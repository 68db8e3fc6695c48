// `krieg`: krieg's own player. HS's sampling and choose-move (sampling.ts) and, at the start of a
// turn whose exact belief holds at most `mate` positions (with a decisive edge past the exact layer:
// the pool's distinct positions, sources.ts smallBelief), a guaranteed-checkmate search over it
// (`--algo auto`, host/solver/auto.ts: the algorithm the learned policy picks for the belief,
// iterative deepening up to `mateply` plies within `matenodes` belief nodes); a proof is then
// followed attempt by attempt, branch by branch of what the referee says, to the mate. A branch
// the strategy does not foresee (it cannot happen if the belief was exact) drops it, and the
// sampling goes on.
//
// King safety (the threat screen): at 1,000 nodes a move choose-move searches one to three
// positions a turn, and the tracker's pool past its exact reach often lacks the true position, so
// a mate in one the opponent has goes unseen and even a random opponent finds it now and then.
// Before an attempt is made, the screen looks at `screen` positions of the belief (default 64;
// the replies only, no search: assembly/players/choose.ts chooseThreats) for a mate in one the
// attempt leaves, the material the opponent's best capture or promotion wins, a stalemate, the
// room a bare king keeps; values.ts combines them with choose-move's values into one worth (issue
// #34: a mate in some positions is not averaged with a rook hung in others). While the tracker's belief is
// exact, S is drawn from it alone (no last-observation top-up: such a board may be impossible).
// In a check whose direction the referee named, the turn's attempts are those that may meet it
// (./check.ts): a king's step, or a move onto the line named.
//
// Following a strategy needs every percept heard to match one of its branches; under rules that
// announce pawn tries before each turn the strategy's branches also carry them, and the player
// does not search for mates there (the rule sets without announced pawn tries: berkeley,
// berkeley-any, english).
import type { Engine } from '../engine';
import { encodePercept, type Percept } from '../record/percept';
import type { ViewEvent } from '../record/record';
import { parseUci } from '../notation/move';
import { KING } from '../constants';
import { solveAuto } from '../solver/auto';
import type { Branch, StrategyNode } from '../solver/strategy';
import type { PlayerFactory, PlayerSetup, Turn } from './player';
import {
  countMates,
  countThreats,
  type AttemptValue,
  type ChooseRun,
  type MateCount,
  type ThreatCount,
} from '../core/players';
import {
  bestByWorth,
  crushingOver,
  edgeOf,
  withoutMinorPromotions,
  withScreenMates,
  worthOf,
  type Edge,
} from './values';
import { SamplingPlayer, SAMPLING_DEFAULTS, WORK_PER_NODE } from './sampling';
import { smallBelief, trackerSource, type PositionSource } from './sources';
import { StaleGuessSource } from './guesses';
import { EndgameTechnique, hisMenLeft, mayStalemate, ownBoardAfter, ownSetup, UNKNOWN_MEN } from './endgame';
import { TablebaseTechnique } from './tablebase';
import { checkDirections, mayMeetCheck } from './check';

/**
 * depth 0: each attempt valued by the quiescence search alone. At a small budget (1,000 nodes a
 * move) a 1-ply search per attempt leaves room for one to three positions a turn, a quiescence
 * search for more of them; against HS the breadth wins (bench/results/players.md: krieg v hs, and
 * krieg:depth=1 v hs on the same seeds).
 */
export const KRIEG_DEFAULTS = {
  ...SAMPLING_DEFAULTS,
  depth: 0,
  mate: 200,
  mateply: 5,
  matenodes: 20_000,
  screen: 64,
  endgame: 2,
  /** 1: play a tablebase's strategy in its ending when the setup's source has the table (0: never). */
  egtb: 1,
  /** 1: a crushing edge over the screened positions is a won ending whatever piece they give him (values.ts crushingOver; 0: never). */
  crushing: 1,
};
/** The checkmate search's arenas (bytes) in the player's engine. */
const MATE_MEMORY = 24 * 2 ** 20;
/** A time budget's share for the checkmate search. */
const MATE_TIME_SHARE = 0.3;
/** An exact belief of at most this many positions is screened whole (the screen is then sound: a stalemate in it is seen). */
const SCREEN_EXACT = 1024;
/** A sampled belief with a decisive edge is screened over this many times `screen` positions (a stalemate's few positions). */
const SCREEN_DECISIVE = 4;

/** A turn's threat screen (KriegPlayer.screenOf): per attempt what countThreats finds, the edge, krieg's men after it as a key, his king's squares over the positions. */
interface Screen {
  threat: (attempt: number) => ThreatCount;
  /** Per attempt of `attempts`, the positions where it is legal, where it mates, with a decisive edge where it mates in two (countMates). */
  mates: (attempts: number[]) => Map<number, MateCount>;
  edge: Edge;
  ownAfter: (attempt: number) => string;
  kings: number[];
  /** The positions are the whole belief (his men known). */
  exact: boolean;
}

type Following =
  | { at: 'attempt'; node: StrategyNode } // its attempt is to be made
  | { at: 'answer'; node: StrategyNode } // its attempt was made: the referee's answer decides
  | { at: 'reply'; replies: { heard: { percept: Percept }; next: StrategyNode }[] }; // the opponent moves next

const samePercept = (a: Percept, b: Percept) => encodePercept(a) === encodePercept(b);

export class KriegPlayer extends SamplingPlayer {
  private following: Following | undefined;
  /** krieg's last move (values.ts: taking it back against a bare king costs a little). */
  private lastMove: number | undefined;
  private readonly mateCounters = { mateSearches: 0, matesProven: 0, strategyAttempts: 0 };
  /** Positions the threat screen looks at (0: off). */
  private readonly screen: number;
  /** Read a crushing edge over the screened positions (values.ts crushingOver). */
  private readonly crushing: boolean;
  private readonly screenCounters = { screenReplies: 0, screenDodges: 0, screenAttempts: 0 };
  /**
   * Under rules with a repetition draw: the keys of the positions (all men) krieg's own moves led
   * to in the screened belief, with how often, since the last capture heard; and those of the
   * attempt last chosen, added when it proves legal.
   */
  private readonly seen = new Map<string, number>();
  private chosenAfter: { attempt: number; keys: string[]; own: string } | undefined;
  /** The same for krieg's own board alone, whichever route chose the move (values.ts ownSeen). */
  private readonly ownSeen = new Map<string, number>();
  /** Against a bare king: the worst-case search over metapositions, `endgame` moves deep (./endgame.ts). */
  readonly endgame: EndgameTechnique;
  /** Against a bare king, when the engine holds a tablebase of the ending: its strategy (./tablebase.ts). */
  readonly tablebase: TablebaseTechnique;

  constructor(setup: PlayerSetup, engine: Engine, source: PositionSource) {
    super('krieg', setup, engine, source, 'hs', { sample: setup.options.sample, depth: setup.options.depth });
    this.exactOnly = true;
    this.screen = setup.options.screen ?? KRIEG_DEFAULTS.screen;
    this.crushing = (setup.options.crushing ?? KRIEG_DEFAULTS.crushing) !== 0;
    const depth = setup.options.endgame ?? KRIEG_DEFAULTS.endgame;
    this.endgame = new EndgameTechnique(engine, source, depth, this.random, setup.side);
    const egtb = (setup.options.egtb ?? KRIEG_DEFAULTS.egtb) !== 0;
    this.tablebase = new TablebaseTechnique(engine, source, setup.rules, setup.tables, egtb);
  }

  observe(event: ViewEvent): void {
    super.observe(event);
    this.endgame.observe(event);
    if (event.type === 'attempt' && event.side === this.setup.side && event.percept.answer === 'legal') {
      this.lastMove = parseUci(event.attempt);
      this.remember(this.lastMove, event.percept.capture !== undefined);
    }
    if (event.type === 'opponent-move' && event.percept?.capture !== undefined) this.forget();
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

  /** krieg's legal move: the positions it led to are seen once more (after a capture, only they can recur). */
  private remember(attempt: number | undefined, capture: boolean): void {
    if (capture) this.forget();
    const chosen = this.chosenAfter;
    this.chosenAfter = undefined;
    if (!this.setup.rules.repetitionDraw || !chosen || chosen.attempt !== attempt) return;
    for (const key of chosen.keys) this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    this.ownSeen.set(chosen.own, (this.ownSeen.get(chosen.own) ?? 0) + 1);
  }

  /** A capture: no position before it can recur. */
  private forget(): void {
    this.seen.clear();
    this.ownSeen.clear();
  }

  private after(branch: Branch): Following | undefined {
    if ('next' in branch) return { at: 'attempt', node: branch.next };
    if ('replies' in branch) return { at: 'reply', replies: branch.replies };
    return undefined; // won: the game is over
  }

  /**
   * In a check whose direction was named, only the attempts that may meet it (./check.ts): the
   * technique's metaposition and a pool that lost his men know no checker.
   */
  protected narrowed(turn: Turn): Turn {
    const directions = checkDirections(turn.view);
    if (!directions) return turn;
    const { board } = ownSetup(turn.view);
    const meeting = turn.attempts.filter((attempt) => mayMeetCheck(board, attempt, directions));
    return meeting.length ? { ...turn, attempts: meeting } : turn;
  }

  choose(turn: Turn): number | 'any' {
    turn = this.budgeted(turn);
    const table = this.tablebase.choose(turn);
    if (table !== undefined) this.endgame.drop(); // the table's strategy plays: the followed set would miss its turn
    const repeats = this.repeatsIn(turn);
    const technique = table ?? this.endgame.choose(turn, this.setup.budget, WORK_PER_NODE, repeats);
    if (technique !== undefined) return table === undefined ? this.ownMove(turn, technique) : technique;
    // a proven strategy's attempt, unless it leads a third time to an own board (english, krieg v random,
    // seed 1, game 29: the tracker empty, a mate "proven" each turn over the stale guesses, Bd6+ and Bb8
    // until the draw by repetition)
    if (this.following?.at === 'attempt') {
      const attempt = parseUci(this.following.node.attempt);
      if (
        attempt !== undefined &&
        turn.attempts.includes(attempt) &&
        !this.mayBoxNow(turn, attempt) &&
        !repeats?.(attempt)
      ) {
        this.following = { at: 'answer', node: this.following.node };
        this.mateCounters.strategyAttempts++;
        return this.ownMove(turn, attempt);
      }
      this.following = undefined;
    }
    if (turn.tried.length === 0 && this.searchesMates()) {
      const strategy = this.searchMate(turn);
      const attempt = strategy && parseUci(strategy.attempt)!;
      if (strategy && attempt !== undefined && !this.mayBoxNow(turn, attempt) && !repeats?.(attempt)) {
        this.following = { at: 'answer', node: strategy };
        this.mateCounters.strategyAttempts++;
        return this.ownMove(turn, attempt);
      }
    }
    return super.choose(turn);
  }

  /** `attempt`, chosen outside the sampling's pick: its own board after it is seen once more when legal (remember). */
  private ownMove(turn: Turn, attempt: number): number {
    this.chosenAfter = { attempt, keys: [], own: this.ownAfter(turn, attempt) };
    return attempt;
  }

  /**
   * Under rules with a repetition draw: does an attempt of the endgame technique lead to an own board
   * its moves have led to twice (english, krieg v random: two draws by repetition in 40 games, the
   * technique against unknown men shuffling)? Undefined under other rules.
   */
  private repeatsIn(turn: Turn): ((attempt: number) => boolean) | undefined {
    if (!this.setup.rules.repetitionDraw) return undefined;
    return (attempt) => (this.ownSeen.get(this.ownAfter(turn, attempt)) ?? 0) >= 2;
  }

  /** krieg's own men after `attempt` this turn, as a key (ownSeen's). */
  private ownAfter(turn: Turn, attempt: number): string {
    const own = ownSetup(turn.view);
    return ownBoardAfter(own.board, own.side, attempt).join(',');
  }

  /**
   * A proven strategy's attempt (proven over the pool's positions, whose phantom pieces have moves)
   * checked as the sampling's are: may it box his king beside his frozen pawns?
   */
  private mayBoxNow(turn: Turn, attempt: number): boolean {
    const men = hisMenLeft(turn.view) - 1;
    if (men < 1 || men > UNKNOWN_MEN) return false;
    const screen = this.screenOf(turn);
    return (screen && this.boxes(turn, screen)?.(attempt)) ?? false;
  }

  /**
   * Far ahead of a few men of his (the captures made leave him at most UNKNOWN_MEN besides his
   * king) past the exact belief (the pool gives him pieces for his pawns): may an attempt box his king on a square of the
   * screen's positions or the technique's set, his frozen pawns completing a stalemate (endgame.ts
   * mayStalemate)? Undefined where that does not apply.
   */
  private boxes(turn: Turn, screen: Screen): ((attempt: number) => boolean) | undefined {
    const men = hisMenLeft(turn.view) - 1;
    if (screen.exact || !screen.edge.decisive || men < 1 || men > UNKNOWN_MEN) return undefined;
    const own = ownSetup(turn.view);
    const kings = [...screen.kings, ...(this.endgame.recentSquares ?? [])];
    return (attempt) => mayStalemate(this.engine, own, attempt, kings, men);
  }

  /**
   * The attempt of the best worth (values.ts): its mean expected score over S, with the share of the
   * screen's `screen` belief positions where it mates joined, less what the screen finds there (a
   * mate in one left to the opponent, the material his best capture wins, a stalemate with a
   * decisive edge, the bare king's room), attempts looked at in
   * the order of their scores down to one that cannot beat the best found (every term only lowers
   * a score).
   */
  protected pick(turn: Turn, scores: AttemptValue[]): AttemptValue | undefined {
    if (!scores.length) return undefined;
    const screen = this.screenOf(turn);
    if (screen) {
      // the screen's many positions say how likely an attempt is to mate, not only the few searched
      const counts = screen.mates(scores.map(({ attempt }) => attempt));
      scores = scores.map((value) => withScreenMates(value, counts.get(value.attempt)));
    }
    const boxes = screen && this.boxes(turn, screen);
    if (boxes) {
      const safe = scores.filter(({ attempt }) => !boxes(attempt));
      if (safe.length) scores = safe;
    }
    const { deadline } = turn;
    const stop = deadline === undefined ? undefined : () => performance.now() >= deadline;
    const valued = bestByWorth(scores, screen?.threat, screen?.edge, this.random, stop);
    if (!valued) return undefined;
    const after = screen?.threat(valued.best.attempt).after;
    if (screen && after) {
      const { attempt } = valued.best;
      this.chosenAfter = { attempt, keys: [...new Set(after.map((a) => a.key))], own: screen.ownAfter(attempt) };
    }
    this.screenCounters.screenAttempts += valued.screened;
    const top = scores.reduce((a, b) => ((b.score ?? 0) > (a.score ?? 0) ? b : a));
    if (valued.best.score !== top.score) this.screenCounters.screenDodges++;
    return valued.best;
  }

  /**
   * Every position of S ruled out by this turn's Illegal answers: the best of the open attempts by
   * their values over all of S still beats a random one (the positions were mostly right); with no
   * value at all, a random attempt that the screen finds safe and that boxes no king, else the least risky.
   */
  protected fallback(turn: Turn, run: ChooseRun | undefined): number {
    const open = new Set(turn.attempts);
    const best = run
      ? this.pick(
          turn,
          run.over(() => true).filter((s) => open.has(s.attempt) && s.legal > 0),
        )
      : undefined;
    if (best) return best.attempt;
    const screen = this.screenOf(turn);
    if (!screen) return super.fallback(turn, run);
    const order = withoutMinorPromotions(turn.attempts, (attempt) => attempt);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let least = order[0];
    let leastRisk = Infinity;
    // the box check as pick's (a random Qg4 stalemated his king on h2 beside three frozen pawns)
    const boxes = this.boxes(turn, screen);
    for (const attempt of order) {
      if (turn.deadline !== undefined && leastRisk < Infinity && performance.now() >= turn.deadline) break;
      if (boxes?.(attempt)) continue;
      const r = 1 - worthOf(1, screen.threat(attempt), screen.edge, attempt);
      if (r === 0) return attempt;
      if (r < leastRisk) [least, leastRisk] = [attempt, r];
    }
    return least;
  }

  /**
   * The screen over `screen` positions of the belief (drawn now from the source, after this turn's
   * Illegal answers) — the whole of an exact belief of at most SCREEN_EXACT, SCREEN_DECISIVE times
   * more of a sampled one with a decisive edge: per attempt, memoised, what countThreats finds
   * there; the edge read from one of them, with the rules' draws. Undefined with the screen off or
   * no position to screen.
   */
  private screenOf(turn: Turn): Screen | undefined {
    const size = this.screen;
    if (!size) return undefined;
    const { nodes } = this.setup.budget;
    const limits = { work: nodes === undefined ? 2_000_000 : nodes * WORK_PER_NODE, deadline: turn.deadline };
    let found = this.source.positions(size, limits);
    if (found.handles.length === 0) return undefined;
    // the edge read from one position, or crushing over them all (values.ts crushingOver: his phantom pieces)
    const edgeOver = (handles: number[]) =>
      edgeOf(this.engine, handles[0], this.crushing && crushingOver(this.engine, handles));
    let edge = edgeOver(found.handles);
    const whole = found.total !== undefined && found.total <= SCREEN_EXACT ? found.total : 0;
    const more = found.exact ? 0 : whole || (edge.decisive ? SCREEN_DECISIVE * size : 0);
    if (more > found.handles.length) {
      found = this.source.positions(more, limits);
      if (found.handles.length === 0) return undefined;
      edge = edgeOver(found.handles);
    }
    const last = this.lastMove;
    const { rules } = this.setup;
    const { board, side } = this.engine.setup(found.handles[0]);
    const ownAfter = (attempt: number) => ownBoardAfter(board, side, attempt).join(',');
    edge = {
      ...edge,
      ...(last === undefined ? {} : { back: ((last >> 6) & 63) | ((last & 63) << 6) }),
      ...(rules.repetitionDraw ? { seen: this.seen } : {}),
      ...(rules.repetitionDraw ? { ownSeen: (a: number) => this.ownSeen.get(ownAfter(a)) ?? 0 } : {}),
      fifty: rules.fiftyMoveDraw,
    };
    const memo = new Map<number, ThreatCount>();
    const threat = (attempt: number) => {
      let t = memo.get(attempt);
      if (t === undefined) {
        t = countThreats(this.engine, found.handles, attempt);
        this.screenCounters.screenReplies += t.replies;
        memo.set(attempt, t);
      }
      return t;
    };
    const his = KING | ((side ^ 1) << 3);
    const kings = found.handles.map((h) => this.engine.setup(h).board.indexOf(his));
    // a checking mate in two only with a decisive edge: the technique's ground, and the cost stays off the middlegame
    const mates = (attempts: number[]) => countMates(this.engine, found.handles, attempts, undefined, edge.decisive);
    return { threat, mates, edge, ownAfter, kings, exact: found.exact };
  }

  stats(): Record<string, number> {
    const guessed = this.source instanceof StaleGuessSource ? this.source.guessed : 0;
    return {
      ...super.stats(),
      ...this.mateCounters,
      ...this.screenCounters,
      ...this.endgame.counters,
      ...this.tablebase.counters,
      guessed,
    };
  }

  private searchesMates(): boolean {
    const tries = this.setup.rules.pawnTries;
    return this.options.depth >= 0 && (tries === 'none' || tries === 'any-secret' || tries === 'any-open');
  }

  /**
   * A proven strategy from the belief when it is small enough: the exact belief, or with a decisive
   * edge past it the pool's distinct positions (sources.ts smallBelief: a strategy proven over them
   * is followed while the answers match its branches, and dropped at one it does not foresee).
   */
  private searchMate(turn: Turn): StrategyNode | undefined {
    const { options, budget, rules } = this.setup;
    const limits = {
      work: budget.nodes === undefined ? 2_000_000 : budget.nodes * WORK_PER_NODE,
      deadline: turn.deadline,
    };
    const found = smallBelief(this.engine, this.source, limits, options.mate);
    if (!found || (!found.exact && !edgeOf(this.engine, found.handles[0]).decisive)) return undefined;
    const positions = found.handles.map((h) => this.engine.fen(h));
    this.mateCounters.mateSearches++;
    const timeMs =
      turn.deadline === undefined ? undefined : MATE_TIME_SHARE * Math.max(0, turn.deadline - performance.now());
    const result = solveAuto(
      this.engine,
      { rules, positions, ply: options.mateply },
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
  new KriegPlayer(setup, engine, new StaleGuessSource(trackerSource(engine, setup), engine, setup));
