// The messages between the page (app.ts) and its workers (worker.ts). Three workers run the same
// script: the game worker holds the referee's true board, the opponent and the replays; the Know
// worker the belief trackers (one per side, fed as the game goes); the solver worker runs only
// checkmate searches, so that Cancel can terminate it without losing the game. Views and records cross as plain objects (structured clone).
import type { GameRecord, Side, View } from '../record/record';
import type { Percept } from '../record/percept';
import type { PresetName } from '../record/rules';
import type { BeliefSummary } from './belief';
import type { Answer, SolveStats } from '../solver/solve';
import type { Strategy } from '../solver/strategy';
import type { TableAnswer, TableQuery } from './egtb';

export type BackendName = 'wasm' | 'js';

/**
 * The name of the game's worker that index.html starts before the page sets itself up (its head
 * script names it so): it makes a WASM game's cores as it starts, before the page's init.
 */
export const GAME_WORKER = 'krieg-game';

export interface NewGame {
  side: Side;
  preset: PresetName;
  /** A player of host/players/registry.ts (PLAYER_NAMES less `human`), with options as the CLI writes them. */
  opponent: string;
  /** Seconds per move for the opponent. */
  timePerMove: number;
  start?: string;
  seed: number;
  /** Where the tablebases are (an absolute URL ending in /): the opponent fetches one when its game reaches the ending (./egtb.ts). */
  tables?: string;
}

export type Request =
  /**
   * The first message: the backend (the worker compiles the WASM core from the bytes its script
   * carries); for JS the JS core's script (its text, portable.js's: engineWorker.ts); the cores to
   * make ahead for the worker's first task (default 1; the game's worker: 2).
   */
  | { id: number; kind: 'init'; backend: BackendName; core?: string; cores?: number }
  | { id: number; kind: 'new-game'; game: NewGame }
  | { id: number; kind: 'attempt'; uci: string }
  | { id: number; kind: 'any' }
  | { id: number; kind: 'resign' }
  | { id: number; kind: 'reveal' }
  | { id: number; kind: 'replay'; record: GameRecord }
  /** positions: also every position of the belief (FENs) when the tracker holds it exact (Solve asks). */
  | { id: number; kind: 'belief'; view: View; positions?: boolean }
  /** Feeds the view's side's tracker in the background (small slices, pauses between): a belief request or a newer follow stops it. */
  | { id: number; kind: 'follow'; view: View }
  | { id: number; kind: 'solve'; problem: SolveRequest }
  /** The endgame tablebase's value of a belief (the Know worker: ./egtb.ts). */
  | { id: number; kind: 'tablebase'; query: TableQuery };

export interface SolveRequest {
  /** The belief state (FENs: a view's is read from the Know worker's tracker first, app/solve.ts) and the rules. */
  positions: string[];
  rules: GameRecord['rules'];
  ply: number;
  algorithm: string;
  nodes?: number;
}

/** The game as the human player may see it: his view, what he may attempt now, and the end. */
export interface GameState {
  view: View;
  /** His attempts (UCI) that are not Nonsense, when he is to move. */
  attempts: string[];
  canAskAny: boolean;
  toMove: Side;
  over: boolean;
  result: GameRecord['result'];
  /** The last answer to his attempt. */
  last?: Percept;
  /** Milliseconds the opponent took for its last move. */
  opponentMs?: number;
  /** The human resigned (the game is over, lost). */
  resigned?: boolean;
}

export interface Replay {
  record: GameRecord;
  /** The true position before the first ply and after every ply (FEN). */
  fens: string[];
}

export interface SolveOutcome {
  answer: Answer;
  limit?: string;
  stats: SolveStats;
  strategy?: Strategy;
  positions: number;
}

export type Reply =
  | {
      id: number;
      kind: 'ready';
      backend: BackendName;
      /** The first init's reply: the worker's start-up marks (its thread made, its script begun and run, its first core made), in ms since the epoch. */
      marks?: Record<string, number>;
    }
  | { id: number; kind: 'state'; state: GameState }
  | { id: number; kind: 'thinking' }
  | { id: number; kind: 'replay'; replay: Replay }
  /** The belief of the view asked; kept: answered from what the tracker kept, with no event to feed. */
  | { id: number; kind: 'belief'; belief: BeliefSummary; kept: boolean; positions?: string[] }
  /** A follow request done: the tracker has the view's plies and keeps the belief at the last. */
  | { id: number; kind: 'followed'; ply: number }
  | { id: number; kind: 'progress'; stats: SolveStats }
  /** The Know worker's tracker on its way to the view asked: plies fed of the view's. */
  | { id: number; kind: 'tracking'; ply: number; of: number }
  | { id: number; kind: 'solved'; outcome: SolveOutcome }
  /** A tablebase is being fetched for the query (`ending-table`). */
  | { id: number; kind: 'loading'; what: string }
  /** The tablebase's answer; undefined: the belief is not a tabled ending's (the viewer to move). */
  | { id: number; kind: 'tablebase'; answer?: TableAnswer }
  /** A failure: its one-line message, and the id of host/errors.ts when it is a KriegError (the page words it). */
  | { id: number; kind: 'error'; message: string; code?: string };
