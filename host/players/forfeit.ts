// A game in which a player may forfeit: an outside program (./ext.ts) that crashes, stalls or
// breaks the protocol throws an `ext-*` error from its choose, and loses the game there, recorded
// with the reason in [Termination]; any other error goes through. Around the runner
// (runGameAsync of ./game.ts), which stays as it is; every player hears the game's end.
import { KriegError } from '../errors';
import { SIDES, type GameRecord, type Side } from '../record/record';
import type { GameSession } from '../referee/session';
import { runGameAsync, type RunOptions } from './game';
import type { AsyncPlayer } from './player';

/** The errors by which a player forfeits its game (host/errors.ts). */
export const FORFEIT_IDS: ReadonlySet<string> = new Set([
  'ext-start',
  'ext-exit',
  'ext-timeout',
  'ext-bad-line',
  'ext-bad-attempt',
  'ext-error',
]);

const SIDE_NAME: Record<Side, string> = { white: 'White', black: 'Black' };

/**
 * runGameAsync, where a player that fails (an error of FORFEIT_IDS from its choose, so on its own
 * turn) loses: the game so far, won by the other side, [Termination "White forfeits: …"].
 */
export async function runGameOrForfeit(
  session: GameSession,
  players: Record<Side, AsyncPlayer>,
  options: RunOptions = {},
): Promise<GameRecord> {
  let record: GameRecord | undefined;
  try {
    return (record = await runGameAsync(session, players, options));
  } catch (error) {
    if (!(error instanceof KriegError && FORFEIT_IDS.has(error.code))) throw error;
    const loser = session.toMove();
    const sofar = session.record();
    return (record = {
      ...sofar,
      result: loser === 'white' ? '0-1' : '1-0',
      tags: { ...sofar.tags, Termination: `${SIDE_NAME[loser]} forfeits: ${error.message}` },
    });
  } finally {
    for (const side of SIDES) await players[side].gameOver?.(record?.result ?? '*', record?.tags.Termination);
  }
}
