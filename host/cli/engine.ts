// krieg engine [--player krieg:depth=2] [--backend js]: a player of krieg's over the engine protocol
// (docs/protocol.md) on standard input and output, for a driver: another program's tournament
// manager, or krieg match and krieg play, which run it as `ext:krieg engine …`.
import type { Argv } from 'yargs';
import { createInterface } from 'node:readline';
import { withBackend, runCommand, io } from './common';
import { fail, EXIT } from '../errors';
import type { BackendName } from '../backends/node';
import { parsePlayerSpec } from '../players/registry';
import { serveEngine } from '../players/engineServer.node';
import { PROTOCOL_VERSION } from '../players/engineProtocol';
import { playersDescription } from './playerOptions';

export const engineCommand = {
  command: 'engine',
  describe:
    'serve a player over the engine protocol (JSON lines on stdin/stdout, docs/protocol.md), for a driver such as krieg match --white "ext:krieg engine"',
  builder: (y: Argv) =>
    withBackend(
      y
        .usage(`$0 engine [--player P]\n\nPlayers (name, or name:option=value,…):\n${playersDescription(false)}`)
        .option('player', {
          type: 'string',
          default: 'krieg',
          describe: 'the player served (see the list above); its budget and seed come with each game',
        })
        .example('$0 engine --player krieg:depth=2', 'krieg searching 2 plies, for a driver on stdin and stdout')
        .example(
          '$0 match "ext:krieg engine --player hs" aosp --games 4 --out g.kpgn',
          'krieg match driving it as an outside program (ext:krieg runs this krieg)',
        )
        .epilogue(
          `Protocol version ${PROTOCOL_VERSION}. The driver writes {"type":"hello","protocol":${PROTOCOL_VERSION}}, then for each game {"type":"game",…}, the events of the engine's view and {"type":"go",…}; the engine answers {"type":"hello",…}, {"type":"ready"}, and {"type":"attempt","attempt":"e2e4"} or {"type":"any"}. A line it cannot take is answered {"type":"error","message":…} and ignored. It stops at {"type":"quit"} or the end of its input. Exit codes: ${EXIT.ok} stopped, ${EXIT.badInput} a bad --player, ${EXIT.internal} internal error.`,
        ),
    ),
  handler: (argv: { player: string; backend: BackendName }) =>
    runCommand(async () => {
      const spec = parsePlayerSpec(argv.player);
      if (spec.name === 'human') throw fail('bad-player', { text: 'krieg engine serves a program, not a person' });
      const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
      try {
        await serveEngine(input, (line) => io.out(`${line}\n`), spec, argv.backend);
      } finally {
        input.close();
      }
    }),
};
