// krieg match P Q --games N [--time-per-move S | --nodes N] --variant V --seed S --jobs J --out games.kpgn
import type { Argv } from 'yargs';
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { withBackend, runCommand } from './common';
import { parseCount } from '../io/args';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { createEngine } from '../node';
import type { BackendName } from '../backends/node';
import { KriegError } from '../errors';
import { parseFen } from '../notation/fen';
import { parsePlayerSpec, PLAYER_NAMES, PLAYER_HELP } from '../players/registry';
import { runMatch, matchKey, firstIsWhite, type MatchParams } from '../players/match';
import { summarize, summaryTable, materialTrace, type MatchGame } from '../players/matchStats';
import { materialSvg } from '../players/plot';

/** Node budget per move when neither --nodes nor --time-per-move is given. */
export const DEFAULT_NODES = 20_000;
/** Seconds between progress lines when stderr is not a terminal. */
const PLAIN_PROGRESS_SECONDS = 5;

export function parseSeconds(name: string, text: string): number {
  const value = Number(text);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text) || !(value > 0) || value > 3600) throw new KriegError(`bad-${name}`, `${name} must be a number of seconds above 0 and at most 3600, got '${text}'`);
  return value;
}

/** The budget options shared by play and match. */
export function withBudgetOptions<T>(y: Argv<T>) {
  return y
    .option('nodes', { type: 'string', describe: `work per move (search nodes, and ${10}× as many units of state estimation), Illegal retries included: deterministic games (default ${DEFAULT_NODES} without --time-per-move)` })
    .option('time-per-move', { type: 'string', describe: 'seconds per move, Illegal retries included (Parker et al.\'s timed players); games then depend on the machine' });
}

export function budgetFromOptions(argv: Record<string, unknown>): { nodes?: number; timePerMove?: number } {
  const timePerMove = argv.timePerMove === undefined ? undefined : parseSeconds('time-per-move', String(argv.timePerMove));
  const nodes = argv.nodes === undefined ? (timePerMove === undefined ? DEFAULT_NODES : undefined) : parseCount('nodes', String(argv.nodes), 1, 1_000_000_000);
  return { ...(nodes !== undefined ? { nodes } : {}), ...(timePerMove !== undefined ? { timePerMove } : {}) };
}

export const playersDescription = (human: boolean) => PLAYER_NAMES.filter((n) => human || n !== 'human').map((n) => `  ${n.padEnd(7)} ${PLAYER_HELP[n]}`).join('\n') +
  '\nOptions: los, aos, aosp, hs and krieg take sample=K (positions a move, default 16) and depth=D (plies searched after each attempt, default 1); krieg also mate=N (largest belief searched for a mate, 200), mateply=P (5), matenodes=N (20000).';

const derived = (out: string, suffix: string) => out.replace(/\.(kpgn|pgn|txt)$/i, '') + suffix;

export const matchCommand = {
  command: 'match <first> <second>',
  describe: 'play a match between two players (alternating colours) and report wins, losses and draws with 95% intervals and material per move',
  builder: (y: Argv) => withRuleOptions(withBackend(withBudgetOptions(y
    .usage(`$0 match <first> <second> --games N --out FILE [options]\n\nPlayers (name, or name:option=value,…):\n${playersDescription(false)}`)
    .positional('first', { type: 'string', describe: 'the first player (White in odd games)' })
    .positional('second', { type: 'string', describe: 'the second player' })
    .option('games', { type: 'string', default: '2', describe: 'number of games; game i is played from a seed made of --seed and i alone' })
    .option('seed', { type: 'string', default: '1', describe: 'match seed' })
    .option('max-plies', { type: 'string', default: '300', describe: 'a game still going after this many plies stops unfinished (*) and counts as a draw' })
    .option('jobs', { type: 'string', describe: 'games played at once, in child processes (default: the number of cores); the results do not depend on it' })
    .option('fen', { type: 'string', describe: 'start position of every game (default: the initial position)' })
    .option('out', { type: 'string', demandOption: true, describe: 'KPGN file of the games; an existing file of the same match is resumed' })
    .option('summary', { type: 'string', describe: 'JSON summary (default: OUT with .summary.json)' })
    .option('svg', { type: 'string', describe: 'material graph (default: OUT with .material.svg)' })
    .option('worker', { type: 'boolean', hidden: true })
    .example('$0 match aosp random --games 200 --nodes 20000 --jobs 2 --out aosp-random.kpgn', 'Parker et al.\'s AOSP against the random player')
    .example('$0 match hs:sample=64 los --games 100 --time-per-move 1 --out hs-los.kpgn', 'timed players, one second a move')))),
  handler: (argv: Record<string, unknown> & { backend: BackendName; out: string; first?: string; second?: string }) => runCommand(async () => {
    const players: MatchParams['players'] = [parsePlayerSpec(String(argv.first)), parsePlayerSpec(String(argv.second))];
    if (players.some((p) => p.name === 'human')) throw new KriegError('bad-player', 'a match is between programs: play a human with krieg play --white human');
    const games = parseCount('games', argv.games as string, 1, 1_000_000);
    const seed = parseCount('seed', argv.seed as string, 0, 0x7fffffff);
    const maxPlies = parseCount('max-plies', argv.maxPlies as string, 1, 4000);
    const jobs = argv.jobs === undefined ? availableParallelism() : parseCount('jobs', argv.jobs as string, 1, 256);
    const rules = rulesFromOptions(argv);
    if (argv.fen !== undefined) {
      try { parseFen(String(argv.fen)); createEngine(argv.backend, 4).setFen(0, String(argv.fen)); } catch (error) {
        if (error instanceof KriegError) throw new KriegError(error.code, `--fen: ${error.message}`);
        throw error;
      }
    }
    const params: MatchParams = {
      players, games, seed, rules, maxPlies, backend: argv.backend, ...budgetFromOptions(argv),
      ...(argv.fen !== undefined ? { start: String(argv.fen) } : {}),
    };
    const names: [string, string] = [players[0].text, players[1].text];
    const progress = new Progress(games, names);
    const started = performance.now();
    const run = await runMatch(params, argv.out, jobs, process.argv[1], ({ done, record, game }) => progress.update(done, record.result, firstIsWhite(game)));
    progress.stop();
    // statistics from the records (the same for games resumed from the file)
    const engine = createEngine(argv.backend, 8);
    const matchGames: MatchGame[] = run.records.map((record, i) => ({ record, firstIsWhite: firstIsWhite(i + 1), material: materialTrace(engine, record) }));
    const summary = summarize(names, matchGames);
    const summaryPath = String(argv.summary ?? derived(argv.out, '.summary.json'));
    const svgPath = String(argv.svg ?? derived(argv.out, '.material.svg'));
    writeFileSync(summaryPath, JSON.stringify({
      format: 'krieg-match', version: 1, match: matchKey(params), maxPlies,
      budget: { nodes: params.nodes ?? null, timePerMove: params.timePerMove ?? null },
      intervals: 'rates: Wilson score 95%; score: mean ± 1.96 s/√n', resumed: run.resumed,
      ...summary,
    }, null, 2) + '\n');
    writeFileSync(svgPath, materialSvg(summary, `${names[0]} v ${names[1]} material graph (${games} games)`));
    process.stdout.write(summaryTable(summary, maxPlies));
    process.stdout.write(`\n${games} games in ${argv.out}${run.resumed ? ` (${run.resumed} resumed from the file)` : ''}; summary ${summaryPath}, material graph ${svgPath}; ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }),
};

/** A bar on a terminal; elsewhere a plain line every few seconds (CI logs, pipes). */
class Progress {
  private readonly bar: cliProgress.SingleBar | undefined;
  private lastLine = 0;
  private readonly started = performance.now();
  private score = { wins: 0, losses: 0, draws: 0 };

  constructor(private readonly total: number, private readonly names: [string, string]) {
    if (process.stderr.isTTY) {
      this.bar = new cliProgress.SingleBar({
        format: `match {bar} {value}/{total} games | ${names[0]} +{wins} -{losses} ={draws} | eta {eta_formatted}`, stream: process.stderr,
      }, cliProgress.Presets.shades_classic);
      this.bar.start(total, 0, this.score);
    }
  }

  update(done: number, result: string, firstWhite: boolean): void {
    if ((result === '1-0' && firstWhite) || (result === '0-1' && !firstWhite)) this.score.wins++;
    else if (result === '1-0' || result === '0-1') this.score.losses++;
    else this.score.draws++;
    if (this.bar) { this.bar.update(done, this.score); return; }
    const now = performance.now();
    if (now - this.lastLine < PLAIN_PROGRESS_SECONDS * 1000 && done < this.total) return;
    this.lastLine = now;
    const rate = done / ((now - this.started) / 1000);
    const eta = rate > 0 ? (this.total - done) / rate : 0;
    process.stderr.write(`krieg match: ${done}/${this.total} games, ${this.names[0]} +${this.score.wins} -${this.score.losses} =${this.score.draws}, ${rate.toFixed(2)} games/s, eta ${eta.toFixed(0)} s\n`);
  }

  stop(): void { this.bar?.stop(); }
}
