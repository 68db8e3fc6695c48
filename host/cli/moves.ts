// krieg moves <fen|startpos> [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { directionNames } from '../record/percept';
import { withBackend, runCommand, say } from './common';
import type { BackendName } from '../backends/node';

export const movesCommand = {
  command: 'moves <position>',
  describe: 'list the legal moves of a position (UCI notation) and any check, as Kriegspiel announces it',
  builder: (y: Argv) =>
    withBackend(
      y
        .positional('position', { type: 'string', describe: 'a FEN in quotes, or "startpos"' })
        .option('json', { type: 'boolean', default: false, describe: 'print JSON instead of text' })
        .example('$0 moves startpos', 'the 20 legal first moves'),
    ),
  handler: (argv: { position?: string; json: boolean; backend: BackendName }) =>
    runCommand(() => {
      const engine = createEngine(argv.backend, 8);
      engine.setFen(0, argv.position ?? '');
      const moves = engine.movesUci(0).sort();
      const check = directionNames(engine.checkDirections(0));
      const status = moves.length > 0 ? 'ongoing' : check.length > 0 ? 'checkmate' : 'stalemate';
      if (argv.json) {
        say(JSON.stringify({ fen: engine.fen(0), moves, check, status }));
        return;
      }
      say(`fen: ${engine.fen(0)}`);
      if (check.length) say(`check: ${check.join(', ')}`);
      say(`${moves.length} legal moves${moves.length ? ': ' + moves.join(' ') : ` (${status})`}`);
    }),
};
