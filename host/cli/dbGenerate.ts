// krieg db generate [--db FILE] [--ply 3] [--mates 500] [--near-misses 500] [--seed S] [--variant V]
//   [--start endgames|standard] [--reanalyse 5] [--max-games N] [--backend wasm|js]
// Self-play generation into a problem database (host/db/generate.ts): a new file is created; an
// existing one made with the same parameters is resumed after its last committed game.
import type { Argv } from 'yargs';
import { existsSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { withBackend, withDbOption, runCommand, say } from './common';
import { parseCount } from '../io/args';
import { dbPath, openDb } from '../db/instances';
import { ProblemDb } from '../db/database';
import {
  generate,
  checkParams,
  validateParams,
  selfPlayWorkers,
  DEFAULT_PARAMS,
  START_MODES,
  type GenerateParams,
  type StartMode,
} from '../db/generate';
import { PRESETS } from '../record/rules';
import type { BackendName } from '../backends/node';

interface GenerateArgs {
  db?: string;
  ply: string;
  mates: string;
  nearMisses: string;
  seed: string;
  variant: string;
  start: StartMode;
  reanalyse: string;
  maxGames: string;
  backend: BackendName;
}

export const generateCommand = {
  command: 'generate',
  describe: 'make checkmate problems by self-play and store them in the database (resumable)',
  builder: (y: Argv) =>
    withBackend(
      withDbOption(y, 'the database file to create, or to resume when it exists')
        .option('ply', {
          type: 'string',
          default: String(DEFAULT_PARAMS.ply),
          describe: "classify White's beliefs at this depth: mate, near-miss or neither",
        })
        .option('mates', {
          type: 'string',
          default: '500',
          describe: 'stop once this many mate instances are stored (at --ply)',
        })
        .option('near-misses', { type: 'string', default: '500', describe: '... and this many near-miss instances' })
        .option('seed', {
          type: 'string',
          default: String(DEFAULT_PARAMS.seed),
          describe: 'the seed of the whole database: game g is played from a seed derived from it and g',
        })
        .option('variant', {
          choices: Object.keys(PRESETS),
          default: DEFAULT_PARAMS.variant,
          describe: 'rule set of the games',
        })
        .option('start', {
          choices: START_MODES,
          default: DEFAULT_PARAMS.start,
          describe:
            "games start from random endgame setups, or from the initial position (far fewer mates: White's belief usually grows past the drop size)",
        })
        .option('reanalyse', {
          type: 'string',
          default: String(DEFAULT_PARAMS.reanalyse),
          describe: 're-analyse every near-miss at this depth and store the result as a deeper instance (0: none)',
        })
        .option('max-games', {
          type: 'string',
          default: '1000000',
          describe: 'stop after this many games in the database, even if the targets are not met',
        })
        .example('$0 db generate --db my.sqlite --mates 50 --near-misses 50 --seed 7', 'a small database of your own')
        .example(
          '$0 db generate --db my.sqlite --mates 100 --near-misses 100 --seed 7',
          'later: the same database, extended (games are played from where it stopped)',
        )
        .epilogue(
          'Instances depend only on the seed and the parameters, never on time or targets: a run killed and resumed gives the same database as one run straight through. Every game is committed with its instances in one transaction (the file is replaced atomically). Exit codes: 0 done, 2 bad input (including a database made with other parameters).',
        ),
    ),
  handler: (argv: GenerateArgs) =>
    runCommand(async () => {
      const params: GenerateParams = {
        ...DEFAULT_PARAMS,
        seed: parseCount('seed', argv.seed, 0, 0x7fffffff),
        variant: argv.variant,
        start: argv.start,
        ply: parseCount('ply', argv.ply, 1, 15),
        reanalyse: parseCount('reanalyse', argv.reanalyse, 0, 15),
      };
      validateParams(params);
      const targets = {
        mates: parseCount('mates', argv.mates, 0, 1_000_000),
        nearMisses: parseCount('near-misses', argv.nearMisses, 0, 1_000_000),
        maxGames: parseCount('max-games', argv.maxGames, 1, 100_000_000),
      };
      const path = dbPath(argv.db);
      let db: ProblemDb;
      if (existsSync(path)) {
        db = await openDb(path);
        checkParams(db.params<GenerateParams>(), params, path);
      } else {
        db = await ProblemDb.create(path, params);
      }
      const workers = selfPlayWorkers(argv.backend);
      const total = targets.mates + targets.nearMisses;
      const bar = new cliProgress.SingleBar(
        {
          format:
            'generating {bar} {value}/{total} instances | game {game} ({dropped} dropped) | {mates} mates, {nearMisses} near-misses, {deeper} re-analysed | {rate}/min',
          stream: process.stderr,
          noTTYOutput: Boolean(process.env.KRIEG_PROGRESS),
          notTTYSchedule: 1000,
        },
        cliProgress.Presets.shades_classic,
      );
      const started = performance.now();
      const first = db.counts().reduce((a, c) => a + c.count, 0);
      const payload = (p: { game: number; dropped: number; mates: number; nearMisses: number; deeper: number }) => ({
        ...p,
        rate: ((p.mates + p.nearMisses + p.deeper - first) / ((performance.now() - started) / 60_000)).toFixed(0),
      });
      const count = (ply: number) =>
        db
          .counts()
          .filter((c) => c.ply === ply)
          .reduce((a, c) => a + c.count, 0);
      bar.start(total, 0, {
        game: db.lastGame(),
        dropped: db.gameCounts().dropped,
        mates: '-',
        nearMisses: '-',
        deeper: params.reanalyse ? count(params.reanalyse) : 0,
        rate: '0',
      });
      const end = generate(db, workers, params, targets, (p) => {
        bar.update(Math.min(p.mates, targets.mates) + Math.min(p.nearMisses, targets.nearMisses), payload(p));
      });
      bar.stop();
      db.close();
      const minutes = (performance.now() - started) / 60_000;
      say(
        `${path}: ${end.played} games (${end.dropped} dropped); at ${params.ply} ply ${end.mates} mates and ${end.nearMisses} near-misses` +
          `${params.reanalyse ? `; ${end.deeper} re-analysed at ${params.reanalyse} ply` : ''} (${minutes.toFixed(1)} min this run)`,
      );
      if (end.mates < targets.mates || end.nearMisses < targets.nearMisses)
        say(`stopped at --max-games ${targets.maxGames} before the targets were met`);
    }),
};
