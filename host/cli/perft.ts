// krieg perft <fen|startpos> <depth> [--divide] [--bulk] [--limit-nodes N] [--limit-time S] [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, say, progressLine, finishWith } from './common';
import { parseCount, parseTimeLimit, timeLimitText } from '../io/args';
import { EXIT } from '../errors';
import type { BackendName } from '../backends/node';

interface PerftArgs {
  position?: string;
  depth?: string;
  divide: boolean;
  bulk: boolean;
  limitNodes?: string;
  limitTime?: string;
  backend: BackendName;
}

export const perftCommand = {
  command: 'perft <position> <depth>',
  describe: 'count the leaf nodes of the legal move tree (move-generator check and speed test)',
  builder: (y: Argv) =>
    withBackend(
      y
        .positional('position', { type: 'string', describe: 'a FEN in quotes, or "startpos"' })
        .positional('depth', { type: 'string', describe: 'plies to search (0 to 20)' })
        .option('divide', { type: 'boolean', default: false, describe: 'print the count below each legal root move' })
        .option('bulk', {
          type: 'boolean',
          default: false,
          describe: 'count the moves at the last ply instead of making them',
        })
        .option('limit-nodes', {
          type: 'string',
          describe: `stop once this many leaves are counted (exit ${EXIT.limit}, the partial count printed)`,
        })
        .option('limit-time', {
          type: 'string',
          describe: `stop after this many seconds (exit ${EXIT.limit}, the partial count printed); 0 for no limit`,
          defaultDescription: 'none',
        })
        .example('$0 perft startpos 5 --bulk', 'count 4,865,609 leaves from the initial position')
        .example('$0 perft "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1" 3 --divide', 'one count per root move')
        .example('$0 perft startpos 5 --limit-time 10', 'give up after 10 s (exit 4, with the leaves counted so far)')
        .epilogue(
          `A count stopped by a limit covers a prefix of the tree (whole subtrees, in move order), the same for the same limit on either backend. Exit codes: ${EXIT.ok} counted, ${EXIT.limit} a limit was reached (the partial count is printed), ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`,
        ),
    ),
  handler: (argv: PerftArgs) =>
    runCommand(() => {
      const depth = parseCount('depth', argv.depth ?? '', 0, 20);
      const maxNodes =
        argv.limitNodes === undefined
          ? undefined
          : parseCount('limit-nodes', argv.limitNodes, 1, Number.MAX_SAFE_INTEGER);
      const time = parseTimeLimit('limit-time', argv.limitTime ?? '0');
      const engine = createEngine(argv.backend, Math.max(64, depth + 2));
      engine.setFen(0, argv.position ?? '');
      const t0 = performance.now();
      let limit: string | undefined;
      const progress = progressLine('perft');
      /** After each step of the count: report, and whether to go on. */
      const step = (nodes: number, text: string): boolean => {
        progress.update(text);
        if (maxNodes !== undefined && nodes >= maxNodes) limit = `the node limit of ${maxNodes} (--limit-nodes)`;
        else if (time.ms !== undefined && performance.now() - t0 > time.ms) limit = timeLimitText(time.ms, false);
        return limit === undefined;
      };
      let nodes: number;
      let counted: string;
      if (argv.divide && depth > 0) {
        const rootMoves = engine.moves(0).length;
        let done = 0;
        const entries = engine.divide(
          0,
          depth,
          argv.bulk,
          () => done++,
          (n) => step(n, `${n} leaves, ${done} of ${rootMoves} root moves done`),
        );
        progress.done();
        for (const e of [...entries].sort((a, b) => a.uci.localeCompare(b.uci))) say(`${e.uci}: ${e.nodes}`);
        nodes = entries.reduce((sum, e) => sum + e.nodes, 0);
        say(`\nmoves: ${limit ? `${entries.length} of ${rootMoves} (partial)` : entries.length}`);
        counted = `the ${entries.length} root moves listed of ${rootMoves}`;
      } else {
        let started = 0;
        let rootMoves = 0;
        const run = engine.perftSteps(0, depth, argv.bulk, (n, s, r) => {
          [started, rootMoves] = [s, r];
          return step(n, `${n} leaves, root move ${s} of ${r}`);
        });
        progress.done();
        nodes = run.nodes;
        if (run.complete) limit = undefined;
        counted = `the first ${Math.max(0, started - 1)} of ${rootMoves} root moves and part of the next`;
      }
      const seconds = (performance.now() - t0) / 1000;
      say(`nodes: ${nodes}${limit ? ' (partial)' : ''}`);
      say(
        `time: ${seconds.toFixed(3)} s, ${(nodes / Math.max(seconds, 1e-9) / 1e6).toFixed(2)} M nodes/s (${engine.backend}${argv.bulk ? ', bulk' : ''})`,
      );
      if (limit) finishWith(EXIT.limit, `limit reached: ${limit}; the count is partial (${counted})`);
    }),
};
