// --variant and one option per rule flag (kebab-case: --pawn-tries squares, --no-castling …),
// generated from the rule set so every flag is adjustable from the command line.
import type { Argv } from 'yargs';
import { PRESET_NAMES, RULE_KEYS, RULE_CHOICES, preset, withOverrides, flagName, type RuleSet } from '../record/rules';

export function withRuleOptions<T>(y: Argv<T>) {
  let out = y.option('variant', {
    choices: PRESET_NAMES as string[],
    default: 'berkeley',
    group: 'Rules:',
    describe: 'rule preset (docs/rules-and-notation.md); the options below adjust it flag by flag',
  }) as Argv<T & { variant: string }>;
  for (const key of RULE_KEYS) {
    const sample = preset('berkeley')[key];
    const choices = RULE_CHOICES[key];
    out = out.option(flagName(key), {
      group: 'Rules:',
      type: typeof sample === 'boolean' ? 'boolean' : 'string',
      ...(choices ? { choices } : {}),
      describe: `override the preset's ${flagName(key)}`,
    }) as typeof out;
  }
  return out;
}

/** The rule set the options describe: the preset, with every given flag applied. */
export function rulesFromOptions(argv: Record<string, unknown>): RuleSet {
  const overrides: Record<string, unknown> = {};
  for (const key of RULE_KEYS) if (argv[key] !== undefined) overrides[key] = argv[key];
  return withOverrides(preset(String(argv.variant ?? 'berkeley')), overrides);
}
