// krieg perft <fen|startpos> <depth> [--divide] [--bulk] [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, say } from './common';
import { parseCount } from '../io/args';
import type { BackendName } from '../backends/node';

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
        .example('$0 perft startpos 5 --bulk', 'count 4,865,609 leaves from the initial position')
        .example('$0 perft "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1" 3 --divide', 'one count per root move'),
    ),
  handler: (argv: { position?: string; depth?: string; divide: boolean; bulk: boolean; backend: BackendName }) =>
    runCommand(() => {
      const depth = parseCount('depth', argv.depth ?? '', 0, 20);
      const engine = createEngine(argv.backend, Math.max(64, depth + 2));
      engine.setFen(0, argv.position ?? '');
      const t0 = performance.now();
      let nodes: number;
      if (argv.divide && depth > 0) {
        const entries = engine.divide(0, depth, argv.bulk);
        for (const e of entries.sort((a, b) => a.uci.localeCompare(b.uci))) say(`${e.uci}: ${e.nodes}`);
        nodes = entries.reduce((sum, e) => sum + e.nodes, 0);
        say(`\nmoves: ${entries.length}`);
      } else {
        nodes = engine.perft(0, depth, argv.bulk);
      }
      const seconds = (performance.now() - t0) / 1000;
      say(`nodes: ${nodes}`);
      say(
        `time: ${seconds.toFixed(3)} s, ${(nodes / Math.max(seconds, 1e-9) / 1e6).toFixed(2)} M nodes/s (${engine.backend}${argv.bulk ? ', bulk' : ''})`,
      );
    }),
};
