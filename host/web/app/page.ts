// What the parts of the web app share (host/web/app.ts, the shell, implements Page): the document,
// the three engines, the board's mode, and what each part offers the others. The parts import this
// file, never each other's classes, so the page has no import cycle.
import type { RuleSet } from '../../record/rules';
import type { Side, View } from '../../record/record';
import type { BeliefSummary } from '../belief';
import type { GameState, Replay } from '../protocol';
import type { EngineWorker } from './engineWorker';

/** A problem to solve: a set of positions (a FEN set, a database instance) or a view's belief. */
export interface Problem {
  label: string;
  positions?: string[];
  view?: View;
  rules?: RuleSet;
  ply?: number;
}

/** The board shows the game being played, or a game or view replayed ply by ply (Know). */
export type BoardMode = 'play' | 'replay';

/** What is replayed: a whole record (and its positions) or one side's view; ofGame: the game of the Play tab. */
export type Replaying = Partial<Replay> & { view?: View; ofGame?: boolean };

export interface Page {
  readonly doc: Document;
  readonly $: <T extends HTMLElement = HTMLElement>(id: string) => T;
  /** The game and its replays. */
  readonly gameWorker: EngineWorker;
  /** The solver, which Cancel terminates. */
  readonly solveWorker: EngineWorker;
  /** Belief estimates: a worker of their own, so moves and reveals never wait behind one. */
  readonly knowWorker: EngineWorker;
  mode: BoardMode;
  /** Timing of the last handled click (ms from the event to its handler), for the responsiveness test. */
  lastClickDelay: number;
  status(text: string, kind?: string): void;
  showTab(name: string): void;
  readonly board: BoardPart;
  readonly play: PlayPart;
  readonly know: KnowPart;
  readonly solve: SolvePart;
}

/** The board (app/board.ts): squares, pieces, ghosts, the heatmap, the input. */
export interface BoardPart {
  selected: number | undefined;
  ghosts: Map<number, number>;
  highlight: Set<number>;
  render(): void;
}

/** The Play tab (app/play.ts): the game in progress. */
export interface PlayPart {
  state: GameState | undefined;
  startFen(): string;
  attempt(uci: string): Promise<void>;
  /** True when no game is running, or the person agreed to abandon it. */
  mayAbandon(): boolean;
}

/** The Know tab (app/know.ts): the belief of the view shown, and the replay. */
export interface KnowPart {
  replay: Replaying | undefined;
  replayPly: number;
  replaySide: Side | 'true';
  belief: BeliefSummary | undefined;
  /** An estimate is running in the know worker (see refreshBelief). */
  estimating: boolean;
  currentView(): View | undefined;
  replayView(): View | undefined;
  refreshBelief(): Promise<void>;
  /** The game moved on: the belief shown is cleared (and estimated afresh where it is looked at). */
  gameMoved(): void;
  renderKnow(): void;
  /** Replays `replay` in Know, at `ply` (default: its last). */
  startReplay(replay: Replaying, ply?: number): void;
  showReplayPly(ply: number): Promise<void>;
  /** A replay of the game still running (from its transcript) ends: the board is the game's again. */
  leaveReplay(): void;
}

/** The Solve tab (app/solve.ts): the problem and its search. */
export interface SolvePart {
  problem: Problem | undefined;
  setProblem(problem: Problem): void;
}

/** The side the human plays against (White before a game). */
export const enemyOf = (state: GameState | undefined): Side =>
  (state?.view.as ?? 'white') === 'white' ? 'black' : 'white';

/** The index of a square's name (a1 = 0 … h8 = 63). */
export const squareIndex = (name: string) => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
