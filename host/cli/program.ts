// The krieg command line as a function of its arguments: one file per command, wired together here.
// It writes through `io` (./common) and sets process.exitCode, never exits, so the tests run it
// in-process; host/cli/main.ts is the executable.
import yargs from 'yargs';
import { perftCommand } from './perft';
import { movesCommand } from './moves';
import { playCommand } from './play';
import { viewCommand } from './view';
import { variantsCommand } from './variants';
import { beliefCommand } from './belief';
import { infosetCommand } from './infoset';
import { trackCommand } from './track';
import { solveCommand, verifyCommand } from './solve';
import { dbCommand } from './db';
import { matchCommand } from './match';
import { finishWith, io } from './common';
import { EXIT } from '../errors';

/** Runs `krieg args…` to its end: output through `io`, the exit code in process.exitCode (unset: 0). */
export async function runCli(args: string[]): Promise<void> {
  const program = yargs()
    .scriptName('krieg')
    .usage('$0 <command> [options]\n\nKriegspiel engine: chess core, referee, belief states and checkmate search.')
    .command(perftCommand)
    .command(movesCommand)
    .command(playCommand)
    .command(viewCommand)
    .command(variantsCommand)
    .command(beliefCommand)
    .command(infosetCommand)
    .command(trackCommand)
    .command(solveCommand)
    .command(verifyCommand)
    .command(dbCommand)
    .command(matchCommand)
    .demandCommand(1, 'name a command (see the list above)')
    .strict()
    .epilogue(
      `Exit codes: ${EXIT.ok} success, ${EXIT.badInput} bad input (the message names what and where), ${EXIT.internal} internal error; belief, infoset and solve: ${EXIT.inconsistent} the view is inconsistent, ${EXIT.limit} a limit was reached (partial result, or the answer unknown); verify: ${EXIT.verifyFailed} the strategy fails.`,
    )
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    })
    .exitProcess(false)
    .help()
    .version();
  // with a callback yargs prints nothing itself: help and version text come back here
  let output = '';
  try {
    await program.parseAsync(args, {}, (_error, _argv, text) => {
      output = text;
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    finishWith(EXIT.badInput, `${error.message.replace(/\s*\n\s*/g, ' ')} (run 'krieg --help' for usage)`);
    return;
  }
  if (output) io.out(`${output}\n`);
}

/** Arguments yargs refuses (unknown option, missing argument …): stops the parse. */
class UsageError extends Error {}
