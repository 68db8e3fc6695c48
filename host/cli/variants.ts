// krieg variants: the rule presets and their flags.
import type { Argv } from 'yargs';
import { PRESETS, PRESET_NAMES, RULE_KEYS } from '../record/rules';
import { runCommand, say } from './common';

export const variantsCommand = {
  command: 'variants',
  describe: 'list the rule presets and every flag of each',
  builder: (y: Argv) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: (argv: { json: boolean }) =>
    runCommand(() => {
      if (argv.json) {
        say(JSON.stringify(PRESETS, null, 2));
        return;
      }
      const rows = [
        ['flag', ...PRESET_NAMES],
        ...RULE_KEYS.map((key) => [key, ...PRESET_NAMES.map((n) => String(PRESETS[n][key]))]),
      ];
      const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
      for (const row of rows)
        say(
          row
            .map((cell, c) => cell.padEnd(widths[c]))
            .join('  ')
            .trimEnd(),
        );
    }),
};
