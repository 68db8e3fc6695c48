// krieg play uses the cache's tablebase by itself (issue #35 item 3): with a small K+R table in
// $KRIEG_EGTB_DIR (built around Kb6, Rd1 against the king on c8, four moves deep: a full build
// takes half a minute), krieg as White mates random from that FEN within the value the table gives
// the start, opening with the table's attempt; with `krieg:egtb=0`, or no table of the rules'
// family in the cache (rand's `dirs-loss`), the same command plays on with the endgame search.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { egtbBuild, egtbEntries, egtbProbe } from '../../host/core/egtb';
import { egtbTableName } from '../../host/players/egtb';
import { egtbPath, saveTable } from '../../host/players/egtbFile.node';
import { makeUci } from '../../host/notation/move';
import { parseRecordJsonGames } from '../../host/notation/recordJson';
import type { GameRecord } from '../../host/record/record';
import { krieg } from '../lib/cli';

const FEN = '2k5/8/1K6/8/8/8/8/3R4 w - - 0 1';
const C8 = 58;
let DIR = '';
let value = 0;
let attempt = '';
const saved = process.env.KRIEG_EGTB_DIR;

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-egtb-play-'));
  const engine = createEngine('wasm', 16);
  const rules = preset('berkeley');
  engine.setRules(rules);
  engine.setFen(0, FEN);
  const built = egtbBuild(engine, 'krk', { log2: 16, around: [{ handle: 0, squares: [C8] }], depth: 4 });
  const probe = egtbProbe(engine, 0, [C8]);
  value = probe.value;
  attempt = makeUci(probe.attempt);
  const byValue = [built.states - built.byValue.reduce((a, b) => a + b, 0), ...built.byValue.slice(1)];
  const header = { ending: 'krk' as const, table: egtbTableName(rules), states: built.states, starts: built.starts };
  saveTable(egtbPath(DIR, 'krk', header.table), { ...header, longest: built.longest, byValue }, egtbEntries(engine));
  process.env.KRIEG_EGTB_DIR = DIR;
});

afterAll(() => {
  if (saved === undefined) delete process.env.KRIEG_EGTB_DIR;
  else process.env.KRIEG_EGTB_DIR = saved;
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

/** White's legal moves of a record, in UCI. */
const whiteMoves = (record: GameRecord) =>
  record.events.flatMap((e) =>
    e.type === 'attempt' && e.side === 'white' && e.percept.answer === 'legal' ? [e.attempt] : [],
  );

async function play(white: string, out: string, variant = 'berkeley'): Promise<GameRecord[]> {
  const file = join(DIR, out);
  const args = ['play', '--white', white, '--black', 'random', '--fen', FEN, '--variant', variant];
  const run = await krieg([...args, '--games', '3', '--nodes', '300', '--max-plies', '60', '--out', file]);
  expect(run.status, run.stderr).toBe(0);
  return parseRecordJsonGames(readFileSync(file, 'utf8')).map((game) => {
    if (game.kind !== 'record') throw new Error('not a record');
    return game.record;
  });
}

describe('krieg play with a tablebase in the cache', () => {
  it('krieg mates within the value the table gives the start, by the table attempt first', async () => {
    expect(value).toBeGreaterThan(1);
    const games = await play('krieg', 'table.json');
    for (const record of games) {
      const moves = whiteMoves(record);
      expect(record.result).toBe('1-0');
      expect(moves[0]).toBe(attempt);
      expect(moves.length).toBeLessThanOrEqual(value);
    }
    // the same seeds without the table: other games (the table, not the endgame search, chose)
    const without = await play('krieg:egtb=0', 'without.json');
    expect(without.map(whiteMoves)).not.toEqual(games.map(whiteMoves));
  });

  it('egtb=0, or no table of the rules, plays on with the endgame search', async () => {
    for (const [white, variant] of [
      ['krieg:egtb=0', 'berkeley'],
      ['krieg', 'rand'],
    ]) {
      const records = await play(white, `${variant}-${white.length}.json`, variant);
      expect(records).toHaveLength(3);
      for (const record of records) expect(whiteMoves(record).length).toBeGreaterThan(0);
    }
  });
});
