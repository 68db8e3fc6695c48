// Building tablebase files (`krieg egtb build`, docs/egtb.md "Commands"): one table into its file,
// resumable (egtbResume.node.ts: a checkpoint `D/ENDING-TABLE.partial` after the enumeration and
// then every minute or so, taken up by the same build started again, removed when the table is
// written), and several tables at once, each on a worker thread with its own core (the sweeps of
// one table run over one graph in one core's memory: the parallel unit is the table).
import { BroadcastChannel } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import { Engine } from '../engine';
import { KriegError } from '../errors';
import { createCore, type BackendName } from '../backends/node';
import { runTasks } from '../pool/pool';
import {
  egtbBuild,
  egtbEntries,
  egtbSnapshot,
  graphLog2Of,
  type EgtbAt,
  type EgtbEnding,
  type EgtbPlace,
} from '../core/egtb';
import { egtbTableRules, type EgtbHeader } from './egtb';
import { egtbPath, saveTable } from './egtbFile.node';
import {
  buildParams,
  checkpointFor,
  partialPath,
  removeCheckpoint,
  restoreCheckpoint,
  writeCheckpoint,
} from './egtbResume.node';

/** The room for 2^log2 states each ending's full table needs by default. */
export const DEFAULT_LOG2: Record<EgtbEnding, number> = { krk: 20, kqk: 23, kbbk: 24, kbnk: 24 };

/** One table to build (plain data: it goes to a worker as it is). */
export interface TableRequest {
  ending: EgtbEnding;
  /** The table's name (egtbTableName): its rules are egtbTableRules'. */
  table: string;
  dir: string;
  backend: BackendName;
  log2?: number;
  graphLog2?: number;
  /** Remove a checkpoint of the table instead of resuming it. */
  restart?: boolean;
  /**
   * Seconds at least between checkpoints (60 by default, and 20 times the last one's writing time;
   * 0: after every slice), one at the enumeration's end besides; negative: none at all.
   */
  checkpointSeconds?: number;
  /** A table around these states (a FEN's men, the king's squares) instead of every start, up to `depth` (tests). */
  around?: { fen: string; squares: number[] }[];
  depth?: number;
  /** States per slice (egtbBuild's). */
  slice?: number;
  /** A test's interruption: stop (as a kill would) right after this many checkpoints are written. */
  stopAfter?: number;
}

export interface TableBuilt {
  ending: EgtbEnding;
  table: string;
  path: string;
  states: number;
  starts: number;
  longest: number;
  graphStates: number;
  edges: number;
  /** This run's milliseconds; with the checkpoint's before it, the build's seconds over every run. */
  ms: number;
  seconds: number;
  bytes: number;
  /** The checkpoint it went on from: where the build stood (level 0: in the enumeration) and when it was written. */
  resumed?: { at: EgtbAt; written: string };
  /** Checkpoints written: how many, their milliseconds in all, the last one's bytes. */
  checkpoints: { count: number; ms: number; bytes: number };
}

/** What a build reports as it goes: progress (throttled by the reader) and notes (each shown). */
export interface BuildReports {
  progress?: (text: string) => void;
  note?: (text: string) => void;
}

/** Thrown by a build that `stopAfter` interrupted. */
export class BuildStopped extends Error {}

const timeOf = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

/** Where a build stands, in words. */
function where(at: EgtbAt, place: EgtbPlace): string {
  if (at.level === 0) return `the enumeration, ${place.expanded} of ${place.states} states expanded`;
  return at.next === 0
    ? `mate in ${at.level}`
    : `mate in ${at.level}, ${Math.min(at.next, place.states)} of ${place.states} states swept`;
}

/** A request's room, its checkpoint file and the parameters a checkpoint must match. */
function planOf(request: TableRequest) {
  const { ending, table, dir } = request;
  const log2 = request.log2 ?? DEFAULT_LOG2[ending];
  const graphLog2 = request.graphLog2 ?? graphLog2Of(log2);
  const around = request.around?.map((s) => `${s.fen} @${s.squares.join(',')}`).join('; ');
  const params = buildParams({ ending, table, log2, graphLog2, around, depth: request.depth });
  return { log2, graphLog2, partial: partialPath(dir, ending, table), params };
}

/** The checkpoint a build of `request` would resume (undefined: none); egtb-partial-other when it is another build's. */
export function checkRequest(request: TableRequest) {
  const { partial, params } = planOf(request);
  return checkpointFor(partial, params);
}

/** Builds one table into its file (D/ENDING-TABLE.egtb.gz), from its checkpoint when there is one. */
export function buildTable(request: TableRequest, reports: BuildReports = {}): TableBuilt {
  const { ending, table, dir, backend } = request;
  const { log2, graphLog2, partial, params } = planOf(request);
  const path = egtbPath(dir, ending, table);
  const taken = checkpointFor(partial, params, request.restart);
  const engine = new Engine(createCore(backend), 16);
  engine.setRules(egtbTableRules(table));
  const handles = (request.around ?? []).map(({ fen, squares }, handle) => {
    engine.setFen(handle, fen);
    return { handle, squares };
  });
  const t0 = performance.now();
  const before = taken?.seconds ?? 0;
  const every = (request.checkpointSeconds ?? 60) * 1000;
  const checkpoints = { count: 0, ms: 0, bytes: 0 };
  let last = t0;
  // a checkpoint of K+Q's graph takes seconds (0.7 GB): at least 20 times that apart, at most 5% of the build
  let wait = every;
  mkdirSync(dir, { recursive: true });
  const built = egtbBuild(engine, ending, {
    log2,
    graphLog2,
    depth: request.depth,
    around: request.around ? handles : undefined,
    slice: request.slice,
    progress: reports.progress,
    resume: taken
      ? (e) => {
          const at = restoreCheckpoint(e, partial);
          reports.note?.(
            `resuming ${ending} ${table} from ${where(at, taken.place)} (checkpoint of ${timeOf(taken.written)})`,
          );
          return at;
        }
      : undefined,
    checkpoint: (at, why) => {
      const now = performance.now();
      if (every < 0 || (why !== 'enumerated' && now - last < wait)) return;
      let bytes: number;
      try {
        bytes = writeCheckpoint(partial, engine, params, at, before + (now - t0) / 1000);
      } catch (error) {
        // a checkpoint not written (a full disk) costs only what a kill would: the build goes on
        if (!(error instanceof KriegError)) throw error;
        reports.note?.(`no checkpoint: ${error.message}`);
        last = performance.now();
        return;
      }
      last = performance.now();
      checkpoints.count++;
      checkpoints.ms += last - now;
      if (every > 0) wait = Math.max(every, 20 * (last - now));
      checkpoints.bytes = bytes;
      reports.note?.(
        `checkpoint ${partial}: ${where(at, egtbSnapshot(engine).place)} (${(bytes / 1e6).toFixed(1)} MB in ${((last - now) / 1000).toFixed(1)} s)`,
      );
      if (request.stopAfter !== undefined && checkpoints.count >= request.stopAfter)
        throw new BuildStopped(`stopped after ${checkpoints.count} checkpoints`);
    },
  });
  const ms = performance.now() - t0;
  const byValue = [0, ...built.byValue.slice(1)];
  byValue[0] = built.states - byValue.reduce((a, b) => a + b, 0);
  const header: EgtbHeader = {
    ending,
    table,
    states: built.states,
    starts: built.starts,
    longest: built.longest,
    byValue,
  };
  const bytes = saveTable(path, header, egtbEntries(engine));
  removeCheckpoint(partial);
  return {
    ending,
    table,
    path,
    states: built.states,
    starts: built.starts,
    longest: built.longest,
    graphStates: built.graphStates,
    edges: built.edges,
    ms,
    seconds: Math.round((before + ms / 1000) * 10) / 10,
    bytes,
    resumed: taken ? { at: taken.at, written: taken.written } : undefined,
    checkpoints,
  };
}

/** The channel on which workers' builds report (`{ key, text, note }`). */
const CHANNEL = 'krieg-egtb-build';

/** A worker's task: one table, its reports posted on the channel under `ending table`. */
export function buildTableTask(request: TableRequest): TableBuilt {
  const channel = new BroadcastChannel(CHANNEL);
  const key = `${request.ending} ${request.table}`;
  try {
    return buildTable(request, {
      progress: (text) => channel.postMessage({ key, text }),
      note: (text) => channel.postMessage({ key, text, note: true }),
    });
  } finally {
    channel.close();
  }
}

/**
 * Builds the tables on `jobs` worker threads (each table on one, with its own core; the largest
 * first is the caller's order to choose), `onBuilt` called with each in the order asked; the
 * reports say which table they are about (`ending table: …`). With one job, in this thread.
 */
export async function buildTables(
  requests: readonly TableRequest[],
  jobs: number,
  onBuilt: (built: TableBuilt) => void,
  reports: { progress?: (key: string, text: string) => void; note?: (text: string) => void } = {},
): Promise<void> {
  if (jobs <= 1) {
    for (const request of requests) {
      const key = `${request.ending} ${request.table}`;
      onBuilt(buildTable(request, { progress: (text) => reports.progress?.(key, text), note: reports.note }));
    }
    return;
  }
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event) => {
    const { key, text, note } = (event as MessageEvent).data as { key: string; text: string; note?: boolean };
    if (note) reports.note?.(text);
    else reports.progress?.(key, text);
  };
  try {
    await runTasks<TableRequest, TableBuilt>('egtb-build', requests, {
      jobs: Math.min(jobs, requests.length),
      onResult: (_, built) => {
        onBuilt(built);
      },
    });
  } finally {
    channel.close();
  }
}
