// krieg db generate [--db FILE] [--ply 3] [--mates 500] [--near-misses 500] [--seed S] [--variant V]
//   [--start endgames|standard] [--reanalyse 5] [--max-plies N] [--hints N] [--hint-share S] [--attack W]
//   [--oracle-hints N] [--max-games N] [--backend wasm|js] [--jobs N]
// Self-play generation into a problem database (host/db/generate.node.ts): a new file is created; an
// existing one made with the same parameters is resumed after its last committed game.
import type { Argv } from 'yargs';
import { existsSync } from 'node:fs';
import { withBackend, withDbOption, jobsSpec, jobsOption, runCommand, say, progressBar } from './common';
import { parseCount } from '../io/args';
import { dbPathToWrite, openDb } from '../db/instances.node';
import { ProblemDb } from '../db/database.node';
import {
  generate,
  generateOnPool,
  checkParams,
  validateParams,
  selfPlayWorkers,
  DEFAULT_PARAMS,
  START_MODES,
  type GenerateParams,
  type Progress,
  type StartMode,
} from '../db/generate.node';
import { PRESETS } from '../record/rules';
import { fail } from '../errors';
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
  maxPlies?: string;
  hints?: string;
  hintShare?: string;
  attack?: string;
  oracleHints?: string;
  backend: BackendName;
  jobs?: string;
}

export const generateCommand = {
  command: 'generate',
  describe: 'make checkmate problems by self-play and store them in the database (resumable)',
  builder: (y: Argv) =>
    withBackend(
      withDbOption(y, 'the database file to create, or to resume when it exists', true)
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
        .option('max-plies', {
          type: 'string',
          describe: 'end a game after this many plies',
          defaultDescription: String(DEFAULT_PARAMS.maxPlies),
        })
        .option('hints', {
          type: 'string',
          describe: "White's hints a turn at most: attempts likely Illegal that shrink its belief",
          defaultDescription: '3',
        })
        .option('hint-share', {
          type: 'string',
          describe: "a hint is legal in at most this share of White's belief",
          defaultDescription: '0.25',
        })
        .option('attack', {
          type: 'string',
          describe:
            "White's preference for captures and checks (added to the evaluation per unit share of its belief where the attempt captures or checks)",
          defaultDescription: '0',
        })
        .option('oracle-hints', {
          type: 'string',
          describe:
            "extra attempts a White turn that are Illegal on the true board and cut White's belief most (Russell & Wolfe's hints, footnote 6: the generator knows the board)",
          defaultDescription: '0',
        })
        .option('max-games', {
          type: 'string',
          default: '1000000',
          describe: 'stop after this many games in the database, even if the targets are not met',
        })
        .option(
          'jobs',
          jobsSpec('games played and classified at once, on worker threads (stored by one writer, in order)'),
        )
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
      // White's knobs enter the parameters only when given, so databases made before them resume
      if (argv.maxPlies !== undefined) params.maxPlies = parseCount('max-plies', argv.maxPlies, 2, 100_000);
      if (argv.hints !== undefined || argv.hintShare !== undefined) {
        const share = argv.hintShare === undefined ? 0.25 : Number(argv.hintShare);
        if (!(share > 0 && share <= 1))
          throw fail('bad-arguments', { text: `--hint-share must be a number in (0, 1], got '${argv.hintShare}'` });
        params.hints = { max: argv.hints === undefined ? 3 : parseCount('hints', argv.hints, 0, 100), share };
      }
      if (argv.attack !== undefined) params.attack = parseCount('attack', argv.attack, 0, 100_000);
      if (argv.oracleHints !== undefined) params.oracleHints = parseCount('oracle-hints', argv.oracleHints, 0, 100);
      validateParams(params);
      const jobs = jobsOption(argv.jobs);
      const targets = {
        mates: parseCount('mates', argv.mates, 0, 1_000_000),
        nearMisses: parseCount('near-misses', argv.nearMisses, 0, 1_000_000),
        maxGames: parseCount('max-games', argv.maxGames, 1, 100_000_000),
      };
      const path = dbPathToWrite(argv.db, 'db generate');
      let db: ProblemDb;
      if (existsSync(path)) {
        db = await openDb(path);
        checkParams(db.params<GenerateParams>(), params, path);
      } else {
        db = await ProblemDb.create(path, params);
      }
      const workers = selfPlayWorkers(argv.backend);
      const total = targets.mates + targets.nearMisses;
      const bar = progressBar(
        'db generate',
        'generating {bar} {value}/{total} instances | game {game} ({dropped} dropped) | {mates} mates, {nearMisses} near-misses, {deeper} re-analysed | {rate}/min',
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
      const onProgress = (p: Progress) =>
        bar.update(Math.min(p.mates, targets.mates) + Math.min(p.nearMisses, targets.nearMisses), payload(p));
      const end =
        jobs > 1
          ? await generateOnPool(db, workers, params, targets, { backend: argv.backend, jobs }, onProgress)
          : generate(db, workers, params, targets, onProgress);
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
