// krieg view FILE --as white|black [--game N] [--format kpgn|json]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, io } from './common';
import { FORMATS, formatGames, readGame, readGames, type Format } from '../io/gamesFile';
import { viewOfGame } from '../referee/validate';
import type { Side, View } from '../record/record';
import type { BackendName } from '../backends/node';

export const viewCommand = {
  command: 'view <file>',
  describe: "print one player's view of recorded games (a record is first replayed through the referee to check it)",
  builder: (y: Argv) =>
    withBackend(
      y
        .positional('file', {
          type: 'string',
          describe: 'a KPGN or JSON file of records (or views), or a ks-game save',
        })
        .option('as', { choices: ['white', 'black'] as const, demandOption: true, describe: 'whose view' })
        .option('game', { type: 'string', describe: 'only game N of the file (1-based)' })
        .option('format', { choices: FORMATS, default: 'kpgn' as Format, describe: 'output notation' })
        .example('$0 view games.kpgn --as white --game 3', 'what White knew in game 3'),
    ),
  handler: (argv: { file?: string; as: Side; game?: string; format: Format; backend: BackendName }) =>
    runCommand(() => {
      const file = argv.file ?? '';
      const chosen =
        argv.game === undefined
          ? readGames(file).map((p, i) => ({ p, n: i + 1 }))
          : [readGame(file, argv.game)].map(({ game, n }) => ({ p: game, n }));
      const engine = createEngine(argv.backend);
      const views: View[] = chosen.map(({ p, n }) => viewOfGame(engine, file, p, n, argv.as));
      io.out(formatGames(views, argv.format));
    }),
};
