// The krieg command line. One file per command; this file only wires them together.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { perftCommand } from './perft';
import { movesCommand } from './moves';
import { playCommand } from './play';
import { viewCommand } from './view';
import { variantsCommand } from './variants';
import { beliefCommand } from './belief';
import { infosetCommand } from './infoset';
import { solveCommand, verifyCommand } from './solve';
import { dbCommand } from './db';
import { EXIT_USAGE } from './common';
import { matchCommand } from './match';
import { serveMatchGames } from '../players/match';

// a closed pipe (krieg view … | head) ends the output quietly
process.stdout.on('error', (error: NodeJS.ErrnoException) => { if (error.code === 'EPIPE') process.exit(0); throw error; });

// a child process of `krieg match --jobs J` (host/players/match.ts): plays the games it is sent
if (process.argv[2] === 'match' && process.argv[3] === '--worker' && process.send) serveMatchGames();
else await yargs(hideBin(process.argv))
  .scriptName('krieg')
  .usage('$0 <command> [options]\n\nKriegspiel engine: chess core, referee, belief states and checkmate search.')
  .command(perftCommand)
  .command(movesCommand)
  .command(playCommand)
  .command(viewCommand)
  .command(variantsCommand)
  .command(beliefCommand)
  .command(infosetCommand)
  .command(solveCommand)
  .command(verifyCommand)
  .command(dbCommand)
  .command(matchCommand)
  .demandCommand(1, 'name a command (see the list above)')
  .strict()
  .epilogue('Exit codes: 0 success, 2 bad input (the message names what and where), 1 internal error; belief, infoset and solve: 3 the view is inconsistent, 4 a limit was reached (partial result, or the answer unknown); verify: 5 the strategy fails.')
  .fail((message, error, y) => {
    if (error) throw error;
    process.stderr.write(`krieg: ${message.replace(/\s*\n\s*/g, ' ')} (run 'krieg --help' for usage)\n`);
    process.exit(EXIT_USAGE);
  })
  .help()
  .version()
  .parseAsync();
