// The krieg command line as a function of its arguments: one file per command, wired together here.
// It writes through `io` (./common) and sets process.exitCode, never exits, so the tests run it
// in-process; host/cli/main.ts is the executable.
import yargs from 'yargs';
import { perftCommand } from './perft';
import { egtbCommand } from './egtb';
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
import { engineCommand } from './engine';
import { botCommand } from './bot';
import { finishWith, io, progressSettings } from './common';
import { typedHelp, usageMessage } from './usage';
import { EXIT } from '../errors';
import { optionWithoutValue } from '../io/args';

/** What yargs's getOptions() (not in its type declarations) tells of the options: every name, and the flags'. */
interface ParserOptions {
  key: Record<string, unknown>;
  boolean: string[];
  count: string[];
}

function program(args: string[]) {
  const parser = yargs();
  return parser
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
    .command(egtbCommand)
    .command(dbCommand)
    .command(matchCommand)
    .command(engineCommand)
    .command(botCommand)
    .option('quiet', {
      type: 'boolean',
      global: true,
      describe: 'no progress on stderr (shown by long commands: a bar on a terminal, else a line every few seconds)',
    })
    .middleware((argv) => {
      progressSettings.quiet = argv.quiet === true;
    })
    .middleware(() => {
      // an option given without a value is refused (yargs would give it its default, or '', silently);
      // the options known here are the command's, its builder having run
      const { key, boolean, count } = (parser as unknown as { getOptions(): ParserOptions }).getOptions();
      const flags = new Set([...boolean, ...count]);
      const name = optionWithoutValue(args, (n) => n in key && !flags.has(n));
      if (name !== undefined) throw new UsageError(`Not enough arguments following: ${name}`);
    })
    .demandCommand(1, 'name a command (the list above)')
    .strict()
    .epilogue(
      `Exit codes: ${EXIT.ok} success, ${EXIT.badInput} bad input (the message names what and where), ${EXIT.internal} internal error; belief, infoset and solve: ${EXIT.inconsistent} the view is inconsistent, ${EXIT.limit} a limit was reached (partial result, or the answer unknown); verify: ${EXIT.verifyFailed} the strategy fails.`,
    )
    .fail((message, error) => {
      // yargs's own refusals (a YError: an option without its value …) are usage errors too
      throw error && error.name !== 'YError' ? error : new UsageError(message || error?.message);
    })
    .exitProcess(false)
    .help()
    .version();
}

/**
 * Runs `krieg args…` and returns what yargs itself prints — help or version — (empty when a command
 * ran), at yargs's width, or unwrapped with `wrap` null; a refused argument throws UsageError.
 */
async function parse(args: string[], wrap?: null): Promise<string> {
  let output = '';
  await (wrap === null ? program(args).wrap(null) : program(args)).parseAsync(args, {}, (_error, _argv, text) => {
    output = text;
  });
  return typedHelp(output);
}

/** The help of `krieg words…` (the tests read its examples unwrapped, with `wrap` null). */
export function helpText(words: string[], wrap?: null): Promise<string> {
  return parse([...words, '--help'], wrap);
}

/** The words of `args` that name a (sub)command, e.g. ['db', 'show']: those whose help is their own. */
async function commandWords(args: string[]): Promise<string[]> {
  const words: string[] = [];
  for (const word of args.filter((a) => !a.startsWith('-')).slice(0, 2)) {
    const usage = await helpText([...words, word]).catch(() => '');
    if (!usage.startsWith(`krieg ${[...words, word].join(' ')}`)) break;
    words.push(word);
  }
  return words;
}

/** Runs `krieg args…` to its end: output through `io`, the exit code in process.exitCode (unset: 0). */
export async function runCli(args: string[]): Promise<void> {
  progressSettings.quiet = false;
  let output: string;
  try {
    output = await parse(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const where = await commandWords(args);
    // bare `krieg` (or `krieg db`): the list of commands, then the one-line error
    if (/^name a (db |bot )?command/.test(error.message)) io.out(`${await helpText(where)}\n`);
    const usage = where.length ? (await helpText(where)).split('\n')[0] : undefined;
    finishWith(EXIT.badInput, usageMessage(error.message, args, where, usage));
    return;
  }
  if (output) io.out(`${output}\n`);
}

/** Arguments yargs refuses (unknown option, missing argument …): stops the parse. */
class UsageError extends Error {}
