// The krieg executable (bundled to dist/cli.js): the command line of ./program.ts on this process.
import { hideBin } from 'yargs/helpers';
import { runCli } from './program';
import { serveMatchGames } from '../players/match';

// a closed pipe (krieg view … | head) ends the output quietly
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// a child process of `krieg match --jobs J` (host/players/match.ts): plays the games it is sent
if (process.argv[2] === 'match' && process.argv[3] === '--worker' && process.send) serveMatchGames();
else await runCli(hideBin(process.argv));
