// The options naming players and their budget, shared by `krieg play` and `krieg match`.
import type { Argv } from 'yargs';
import { parseCount, parseSeconds } from '../io/args';
import { PLAYER_NAMES, PLAYER_HELP, EXT_LIMITS } from '../players/registry';
import { DEFAULT_NODES, type PlayerBudget } from '../players/player';
import { WORK_PER_NODE } from '../players/sampling';

export function withBudgetOptions<T>(y: Argv<T>) {
  return y
    .option('nodes', {
      type: 'string',
      describe: `work per move (search nodes, and ${WORK_PER_NODE}× as many units of state estimation), Illegal retries included: deterministic games (default ${DEFAULT_NODES} without --time-per-move)`,
    })
    .option('time-per-move', {
      type: 'string',
      describe:
        "seconds per move, Illegal retries included (Parker et al.'s timed players); games then depend on the machine",
    });
}

export function budgetFromOptions(argv: Record<string, unknown>): PlayerBudget {
  const ms = parseSeconds('time-per-move', argv.timePerMove === undefined ? undefined : String(argv.timePerMove));
  const timePerMove = ms === undefined ? undefined : ms / 1000;
  const nodes =
    argv.nodes === undefined
      ? timePerMove === undefined
        ? DEFAULT_NODES
        : undefined
      : parseCount('nodes', String(argv.nodes), 1, 1_000_000_000);
  return { ...(nodes !== undefined ? { nodes } : {}), ...(timePerMove !== undefined ? { timePerMove } : {}) };
}

/** The players, one a line, for the commands' usage text (`human` where a person can play). */
export const playersDescription = (human: boolean) =>
  PLAYER_NAMES.filter((n) => human || n !== 'human')
    .map((n) => `  ${n.padEnd(7)} ${PLAYER_HELP[n]}`)
    .join('\n') +
  `\n  ext:CMD outside program CMD speaking the engine protocol (docs/protocol.md), e.g. 'ext:python3 bot.py'; limits in seconds before it, 'ext:move=30,grace=2,startup=10:CMD' (defaults ${Object.entries(
    EXT_LIMITS,
  )
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}); it loses a game it crashes, stalls or breaks the protocol in` +
  "\nOptions: los, aos, aosp, hs and krieg take sample=K (positions a move, default 16) and depth=D (plies searched after each attempt, default 1; krieg 0: the quiescence search alone); krieg also mate=N (largest belief searched for a mate, 200), mateply=P (5), matenodes=N (20000), screen=N (belief positions screened for a mate in one an attempt leaves the opponent, 64; 0: off), endgame=D (against a bare king, the depth in moves of the worst-case search, 2; 0: off), egtb=N (1: once a game reaches K+R v K or another tabled ending, the table's strategy, read from $KRIEG_EGTB_DIR or .cache/egtb when built there, docs/egtb.md; 0: never), crushing=N (1: 5 or more ahead on the mean of the screened belief positions, he with at most three men besides his king: a won ending whatever piece they give him; 0: never).";
