// krieg bot register | run: krieg as a bot on Kriegspiel.org (host/online/, docs/online.md).
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import type { Argv } from 'yargs';
import { fail, EXIT, KriegError } from '../errors';
import { parseCount } from '../io/args';
import { parsePlayerSpec } from '../players/registry';
import { SiteClient, checkServer } from '../online/client';
import { Bot } from '../online/bot.node';
import { PLAYED_VARIANTS, SITE_VARIANTS } from '../online/kriegspielOrg';
import { runCommand, say, withBackend } from './common';
import { playersDescription } from './playerOptions';
import type { BackendName } from '../backends/node';

const EXITS = `Exit codes: ${EXIT.ok} success, ${EXIT.badInput} bad input or a refusal of the site (one line on stderr), ${EXIT.internal} internal error.`;

/** --variants: a comma-separated subset of the variants krieg plays. */
function variantsOption(text: string): string[] {
  const list = [...new Set(text.split(',').map((v) => v.trim()))].filter(Boolean);
  for (const v of list) {
    if (!PLAYED_VARIANTS.includes(v))
      throw fail('site-variant', {
        variant: v,
        reason: SITE_VARIANTS.includes(v)
          ? `krieg plays only ${PLAYED_VARIANTS.join(' and ')} on the site (docs/online.md)`
          : `not a variant of the site (${SITE_VARIANTS.join(', ')})`,
      });
  }
  if (list.length === 0) throw fail('site-variant', { variant: text, reason: 'name at least one' });
  return list;
}

/** Writes the token to a new file of mode 0600 (an existing file is not overwritten). */
function writeToken(path: string, token: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail('bad-token-file', {
      path,
      why: code === 'EEXIST' ? 'exists already (krieg writes a token only to a new file)' : String(code ?? error),
    });
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The token of a token file, which must not be readable by others. */
export function readToken(path: string): string {
  let text: string;
  try {
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0)
      throw fail('bad-token-file', { path, why: 'others may read it (chmod 600 it)' });
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if (error instanceof KriegError) throw error;
    throw fail('bad-token-file', { path, why: String((error as NodeJS.ErrnoException).code ?? error) });
  }
  if (!/^\S+$/.test(text)) throw fail('bad-token-file', { path, why: 'expected one token on one line' });
  return text;
}

const registerCommand = {
  command: 'register',
  describe: 'register a new bot account on the site and write its token to a new file (mode 600)',
  builder: (y: Argv) =>
    y
      .usage(
        `$0 bot register --server URL --username NAME --owner-email EMAIL --token-file FILE\n\nRegisters a bot (POST /auth/bots/register). The site shows its token once: krieg writes it to --token-file, a new file only you can read, and never prints it.`,
      )
      .option('server', { type: 'string', demandOption: true, describe: 'the API, e.g. https://api.kriegspiel.org' })
      .option('username', { type: 'string', demandOption: true, describe: 'the bot account name' })
      .option('display-name', {
        type: 'string',
        describe: 'the name shown (3 to 40 characters; default: the username)',
      })
      .option('owner-email', { type: 'string', demandOption: true, describe: "the bot owner's e-mail" })
      .option('description', { type: 'string', default: 'krieg, a Kriegspiel engine', describe: 'shown on the site' })
      .option('variants', {
        type: 'string',
        default: PLAYED_VARIANTS.join(','),
        describe: `the rule variants advertised (of ${PLAYED_VARIANTS.join(', ')})`,
      })
      .option('token-file', { type: 'string', demandOption: true, describe: 'a new file for the token (mode 600)' })
      .example(
        '$0 bot register --server https://api.kriegspiel.org --username kriegbot --owner-email me@example.org --token-file ~/.krieg-token',
        'register, keeping the token in ~/.krieg-token',
      )
      .epilogue(EXITS),
  handler: (args: Record<string, unknown>) =>
    runCommand(async () => {
      const argv = args as Record<string, string>;
      const variants = variantsOption(argv.variants);
      const client = new SiteClient({ server: argv.server });
      const registered = await client.register({
        username: argv.username,
        display_name: argv.displayName ?? argv.username,
        owner_email: argv.ownerEmail,
        description: argv.description,
        supported_rule_variants: variants,
      });
      writeToken(argv.tokenFile, registered.api_token);
      say(`registered bot ${registered.username} (id ${registered.bot_id}); token written to ${argv.tokenFile}`);
    }),
};

const runCommandModule = {
  command: 'run',
  describe: "play the bot's games on the site until stopped (Ctrl-C, SIGTERM) or --max-games have ended",
  builder: (y: Argv) =>
    withBackend(
      y
        .usage(
          `$0 bot run --server URL --token-file FILE [options]\n\nPolls the bot's games and plays each with a krieg player, one line an event on stdout (the token never); resumes its games after a restart. Players (name, or name:option=value,…):\n${playersDescription(false)}`,
        )
        .option('server', { type: 'string', demandOption: true, describe: 'the API, e.g. https://api.kriegspiel.org' })
        .option('token-file', { type: 'string', demandOption: true, describe: 'the file krieg bot register wrote' })
        .option('player', { type: 'string', default: 'krieg', describe: 'the krieg player' })
        .option('variants', {
          type: 'string',
          default: PLAYED_VARIANTS.join(','),
          describe: `rule variants advertised to the site and opened in the lobby (of ${PLAYED_VARIANTS.join(', ')}; the site's other variants are not advertised)`,
        })
        .option('max-games', { type: 'string', describe: 'stop once this many games have ended' })
        .option('open-lobby-game', {
          type: 'boolean',
          default: false,
          describe: 'keep one open lobby game for people to join (the site allows a bot one; it expires in 10 minutes)',
        })
        .option('nodes', {
          type: 'string',
          describe: "work per move instead of the clock's time (deterministic; default: time from the site's clock)",
        })
        .option('poll', { type: 'string', default: '2', describe: 'seconds between polls of the games' })
        .example(
          '$0 bot run --server https://api.kriegspiel.org --token-file ~/.krieg-token --open-lobby-game',
          'play krieg (time from the clock: 25 min + 10 s) and keep a game open in the lobby',
        )
        .epilogue(EXITS),
    ),
  handler: (argv: Record<string, unknown> & { backend: BackendName }) =>
    runCommand(async () => {
      const str = (k: string) => (argv[k] === undefined ? undefined : String(argv[k]));
      const player = parsePlayerSpec(String(argv.player));
      if (player.name === 'human') throw fail('bad-player', { text: 'the bot plays a program, not a person' });
      const variants = variantsOption(String(argv.variants));
      const maxGames = str('maxGames') === undefined ? undefined : parseCount('max-games', str('maxGames')!, 1, 1e9);
      const nodes = str('nodes') === undefined ? undefined : parseCount('nodes', str('nodes')!, 1, 1e9);
      const pollMs = parseCount('poll', str('poll')!, 0, 3600) * 1000;
      const server = checkServer(String(argv.server)); // before the token is read
      // the client's retries, one line each, stamped as the bot's lines are
      const stamped = (line: string) => say(`${new Date().toISOString()} ${line}`);
      const client = new SiteClient({ server, token: readToken(String(argv.tokenFile)), log: stamped });
      let stop = false;
      const onSignal = () => {
        stop = true;
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await new Bot({
          client,
          player,
          variants,
          maxGames,
          openLobbyGame: argv.openLobbyGame === true,
          backend: argv.backend,
          nodes,
          pollMs,
          log: say,
          stopped: () => stop,
        }).run();
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    }),
};

export const botCommand = {
  command: 'bot',
  describe: 'play on Kriegspiel.org as a bot: register an account, run the bot (docs/online.md)',
  builder: (y: Argv) =>
    y
      .usage('$0 bot <command> [options]\n\nkrieg as a bot on Kriegspiel.org (docs/online.md).')
      .command(registerCommand)
      .command(runCommandModule)
      .demandCommand(1, 'name a bot command: register or run'),
  handler: () => {},
};
