// The krieg executable (bundled to dist/cli.js): the command line of ./program.ts on this process.
import { hideBin } from 'yargs/helpers';
import { runCli } from './program';

// a closed pipe (krieg view … | head) ends the output quietly
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await runCli(hideBin(process.argv));
