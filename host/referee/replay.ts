// The true positions of a game record: its legal attempts replayed on an engine.
import type { Engine } from '../engine';
import type { Setup } from '../notation/fen';
import type { GameRecord } from '../record/record';

/**
 * `read` of the position before the first ply and after each, replaying `record` on `engine` (its
 * rules set; records `scratch` and `scratch + 1`, the position in the one `read` is given).
 */
export function replayRecord<T>(engine: Engine, record: GameRecord, scratch: number, read: (handle: number) => T): T[] {
  engine.setRules(record.rules);
  engine.setFen(scratch, record.start);
  const out = [read(scratch)];
  let at = scratch;
  for (const event of record.events) {
    if (event.type !== 'attempt' || event.percept.answer !== 'legal') continue;
    const next = at === scratch ? scratch + 1 : scratch;
    engine.playUci(at, event.attempt, next);
    at = next;
    out.push(read(at));
  }
  return out;
}

/** The setups of the position before the first ply and after each (replayRecord). */
export function replaySetups(engine: Engine, record: GameRecord, scratch = 0): Setup[] {
  return replayRecord(engine, record, scratch, (h) => engine.setup(h));
}
