// A player's view run through a belief tracker event by event, as a game would feed it (krieg
// track, krieg belief --mode track, bench:track): one row per ply with the tracker's mode and size
// after it and what it cost, and where the view broke if it did. A rejected event ends the run; the
// tracker is left as it was before that event (assembly/belief/tracker.ts rolls it back).
import type { Engine } from '../engine';
import type { View } from '../record/record';
import { Tracker, type TrackerOptions, type TrackerMode, type Budget, type Observation } from './tracker';
import type { EstimateResult } from './estimate';
import { pliesBefore, inconsistentMessage } from './describe';
import { checkViewEvents } from '../core/estimator';

export interface PlyRow {
  /** The ply (1-based: moves of either side before it + 1) and the view events [firstEvent, lastEvent] it spans. */
  ply: number;
  firstEvent: number;
  lastEvent: number;
  /** After the ply: exact (the belief state) or pool (a part of it), the positions held, the belief's size (exact, or the pool's estimate). */
  mode: TrackerMode;
  size: number;
  estimate: number;
  /** Positions the sampler added (pool top-ups), its descents and restarts, and whether a recount made the layer exact again. */
  added: number;
  descents: number;
  restarts: number;
  recounted: boolean;
  /** Whether a standby (a tracker with another seed that replayed the view) took over from a dead pool. */
  rescued: boolean;
  /** Whether the budget stopped an event of the ply before it was done. */
  stopped: boolean;
  work: number;
  ms: number;
}

export interface TrackRun {
  rows: PlyRow[];
  /** The tracker after the last event applied (before the bad one, if any). */
  tracker: Tracker;
  /** A view event no position fits: its index, its ply, and the message naming both. */
  bad?: { event: number; ply: number; message: string };
}

/**
 * Feeds `view` to a new tracker in `engine`, each event within `budget`; `onRow` sees each ply as
 * it is done. The caller frees the tracker (run.tracker.free()).
 */
export function trackView(
  engine: Engine,
  view: View,
  options: TrackerOptions = {},
  budget: Budget = {},
  onRow?: (row: PlyRow) => void,
): TrackRun {
  checkViewEvents(view); // a bad event is refused before the first ply, not after the plies before it
  const tracker = Tracker.create(engine, { rules: view.rules, as: view.as, start: view.start }, options);
  const rows: PlyRow[] = [];
  let row: PlyRow | undefined;
  const close = () => {
    if (!row) return;
    row.estimate = tracker.stats().estimate;
    rows.push(row);
    onRow?.(row);
    row = undefined;
  };
  for (let i = 0; i < view.events.length; i++) {
    const o: Observation = tracker.observe(view.events[i], budget);
    if (o.status === 'inconsistent') {
      close();
      const ply = pliesBefore(view, i);
      return { rows, tracker, bad: { event: i, ply: ply + 1, message: inconsistentMessage(view, i, ply) } };
    }
    if (row && row.ply !== o.ply) close();
    row ??= {
      ply: o.ply,
      firstEvent: i,
      lastEvent: i,
      mode: o.mode,
      size: o.size,
      estimate: 0,
      added: 0,
      descents: 0,
      restarts: 0,
      recounted: false,
      rescued: false,
      stopped: false,
      work: 0,
      ms: 0,
    };
    row.lastEvent = i;
    row.mode = o.mode;
    row.size = o.size;
    row.added += o.added;
    row.descents += o.descents;
    row.restarts += o.restarts;
    row.recounted ||= o.recounted;
    row.rescued ||= o.rescued;
    row.stopped ||= o.stopped !== 'complete';
    row.work += o.work;
    row.ms += o.ms;
  }
  close();
  return { rows, tracker };
}

// ---- the size-per-ply chart (krieg track --out, bench:track) ----

const WIDTH = 720;
const HEIGHT = 380;
const LEFT = 64;
const RIGHT = 16;
const TOP = 36;
const BOTTOM = 48;

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Positions held per ply on a log scale, one polyline per series (a game, or a summary such as the
 * median over games); exact plies drawn as dots, pool plies as the line only. Hand-written SVG as
 * host/players/plot.ts draws.
 */
export function trackSvg(
  series: { label: string; rows: Pick<PlyRow, 'ply' | 'size' | 'mode'>[] }[],
  title: string,
): string {
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
  const plies = Math.max(10, ...series.flatMap((s) => s.rows.map((r) => r.ply)));
  const top = Math.max(10, ...series.flatMap((s) => s.rows.map((r) => r.size)));
  const decades = Math.ceil(Math.log10(top + 1));
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (ply: number) => LEFT + (ply / plies) * plotW;
  const y = (size: number) => TOP + plotH - (Math.log10(size + 1) / decades) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14">${escape(title)}</text>`,
    `<line x1="${LEFT}" y1="${TOP + plotH}" x2="${LEFT + plotW}" y2="${TOP + plotH}" stroke="black"/>`,
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotH}" stroke="black"/>`,
    `<text x="${LEFT + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">ply</text>`,
    `<text x="14" y="${TOP + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${TOP + plotH / 2})">positions held (log)</text>`,
  ];
  for (let d = 0; d <= decades; d++) {
    const v = 10 ** d - 1;
    out.push(
      `<line x1="${LEFT - 4}" y1="${y(v)}" x2="${LEFT + plotW}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${d === 0 ? 0 : `1e${d}`}</text>`,
    );
  }
  const step = [10, 20, 50, 100].find((s) => plies / s <= 10) ?? 200;
  for (let t = 0; t <= plies; t += step)
    out.push(`<text x="${x(t)}" y="${TOP + plotH + 16}" text-anchor="middle">${t}</text>`);
  series.forEach((s, i) => {
    const colour = colours[i % colours.length];
    const points = s.rows.map((r) => `${x(r.ply).toFixed(1)},${y(r.size).toFixed(1)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${points}"/>`);
    for (const r of s.rows)
      if (r.mode === 'exact')
        out.push(`<circle cx="${x(r.ply).toFixed(1)}" cy="${y(r.size).toFixed(1)}" r="2" fill="${colour}"/>`);
    out.push(`<text x="${LEFT + 10}" y="${TOP + 14 + 16 * i}" fill="${colour}">${escape(s.label)}</text>`);
  });
  out.push(
    `<text x="${LEFT + plotW}" y="${TOP + 14}" text-anchor="end" fill="#555">dots: exact belief; line only: pool</text>`,
  );
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/**
 * The tracker's positions at the end of `view` (krieg belief --mode track, the web page's belief
 * past the exact estimator's reach): up to `limit` of them copied into new records at the end of
 * the engine's arena, as an estimator's result (limit messages read it as a depth-first run's:
 * the tracker keeps what it has), with the tracker's mode.
 */
export function trackedBelief(
  engine: Engine,
  view: View,
  options: TrackerOptions,
  budget: Budget,
  limit: number,
): { result: EstimateResult; mode: TrackerMode } {
  const run = trackView(engine, view, options, budget);
  const { tracker, bad } = run;
  const mode = tracker.mode;
  const size = tracker.size();
  const n = bad ? 0 : Math.min(size, limit);
  const first = engine.capacity;
  engine.resize(first + Math.max(1, n));
  tracker.copyPositions(n, first);
  tracker.free();
  const ms = run.rows.reduce((sum, r) => sum + r.ms, 0);
  const work = run.rows.reduce((sum, r) => sum + r.work, 0);
  const handles = Array.from({ length: n }, (_, i) => first + i);
  const result: EstimateResult = bad
    ? { outcome: 'inconsistent', handles, failedEvent: bad.event, failedPly: bad.ply - 1, work, ms, mode: 'dfs' }
    : { outcome: n < size ? 'limit-positions' : 'complete', handles, work, ms, mode: 'dfs' };
  return { result, mode };
}
