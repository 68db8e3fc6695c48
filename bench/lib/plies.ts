// The games of bench/data/belief-plies.kpgn cut after a ply: the views the belief and parallel
// benchmarks (and the parallel tests) measure.
import type { GameRecord } from '../../host/record/record';

/** The record after `ply` moves, with the announcements made right after the last one (pawn tries before the next turn). */
export function cut(record: GameRecord, ply: number): GameRecord {
  let moves = 0;
  let end = 0;
  for (; end < record.events.length; end++) {
    const e = record.events[end];
    if (moves === ply && e.type !== 'pawn-tries') break;
    if (e.type === 'attempt' && e.percept.answer === 'legal') moves++;
  }
  return { ...record, events: record.events.slice(0, end) };
}
