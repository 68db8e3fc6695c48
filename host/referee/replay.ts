// The true positions of a game record: its legal attempts replayed on an engine.
import type { Engine } from '../engine';
import type { Setup } from '../notation/fen';
import type { GameRecord } from '../record/record';

/** The position before the first ply and after each, replaying `record` on `engine` (its rules set; records `scratch` and `scratch + 1`). */
export function replaySetups(engine: Engine, record: GameRecord, scratch = 0): Setup[] {
  engine.setRules(record.rules);
  engine.setFen(scratch, record.start);
  const setups = [engine.setup(scratch)];
  let at = scratch;
  for (const event of record.events) {
    if (event.type !== 'attempt' || event.percept.answer !== 'legal') continue;
    const next = at === scratch ? scratch + 1 : scratch;
    engine.playUci(at, event.attempt, next);
    at = next;
    setups.push(engine.setup(at));
  }
  return setups;
}
