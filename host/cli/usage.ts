// yargs's own refusals (unknown option, missing argument, a value outside the choices …) rewritten
// in the house style: one line saying what is wrong, where (the command), and the fix (that
// command's --help). The numeric options, which the commands parse themselves (host/io/args.ts, so
// a bad number gets a message naming the option and its range), are marked [number] in the help.

/** The options and positionals whose value is a number (parsed by host/io/args.ts in every command). */
export const NUMERIC_OPTIONS = new Set([
  'depth',
  'game',
  'k',
  'seed',
  'limit-positions',
  'limit-time',
  'limit-work',
  'limit-histories',
  'limit-nodes',
  'limit-belief',
  'limit',
  'ply',
  'memory',
  'games',
  'jobs',
  'mates',
  'near-misses',
  'max-games',
  'max-plies',
  'hints',
  'attack',
  'oracle-hints',
  'from',
  'max',
  'reanalyse',
  'nodes',
  'time-per-move',
  'id',
]);

/** Help text with the numeric options' `[string]` shown as `[number]` (same width: columns stay aligned). */
export function typedHelp(text: string): string {
  let name: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      // an option's line starts with its name; a long description wraps onto lines that do not
      const start =
        /^\s+(?:-\w, )?-{0,2}([a-z][\w-]*)\s{2,}/.exec(line) ?? /^\s+(?:-\w, )?--?([a-z][\w-]*)\s*$/.exec(line);
      if (start) name = start[1];
      else if (!/^\s{6,}\S/.test(line)) name = undefined;
      return name !== undefined && NUMERIC_OPTIONS.has(name) ? line.replace('[string]', '[number]') : line;
    })
    .join('\n');
}

const quoted = (s: string) => s.replace(/^"|"$/g, '');

/**
 * yargs's `message` for `krieg args…` as one line in the house style. `usage` is the command's usage
 * line (`krieg perft <position> <depth>`), `where` its words.
 */
export function usageMessage(message: string, args: string[], where: string[], usage: string | undefined): string {
  const flat = message.replace(/\s*\n\s*/g, ' ').trim();
  const command = ['krieg', ...where].join(' ');
  const at = where.length ? `${where.join(' ')}: ` : '';
  const help = `run '${command} --help' for usage`;
  const option = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
  // a FEN that starts with '-' (damaged) is taken for an option: say so rather than "missing argument"
  const fenLike = args.find((a) => /^-[^-\s]*\//.test(a));
  if (fenLike !== undefined)
    return `${at}'${fenLike}' starts with '-', so it is read as an option, not a FEN (a FEN begins with rank 8, such as 4k3/…); ${help}`;
  let m: RegExpExecArray | null;
  if ((m = /^Not enough non-option arguments: got (\d+), need at least (\d+)/.exec(flat))) {
    const required = [...(usage ?? '').matchAll(/<[^>]+>/g)].map((x) => x[0]);
    const missing = required.slice(Number(m[1]));
    return `${at}missing ${missing.length ? missing.join(' ') : `argument (${m[2]} needed, ${m[1]} given)`}${usage ? ` (usage: ${usage})` : ''}; ${help}`;
  }
  if ((m = /^Too many non-option arguments: got (\d+), maximum of (\d+)/.exec(flat)))
    return `${at}too many arguments (${m[1]} given, at most ${m[2]})${usage ? ` (usage: ${usage})` : ''}; ${help}`;
  if ((m = /^Unknown arguments?: (.*)$/.exec(flat))) {
    const names = m[1].split(', ');
    if (!where.length && names.every((n) => args.includes(n)))
      return `unknown command '${names[0]}'; run 'krieg --help' for the list of commands`;
    const shown = names.map((n) =>
      args.includes(n) && !n.startsWith('-') ? `argument '${n}'` : `option ${option(n)}`,
    );
    return `${at}unknown ${shown.join(', ')}; ${help}`;
  }
  if ((m = /^Invalid values: Argument: ([\w-]+), Given: (.*?), Choices: (.*)$/.exec(flat)) && m[2] === 'true')
    return `${at}${option(m[1])} needs a value (one of ${m[3].split(', ').map(quoted).join(', ')}); ${help}`;
  if (m)
    return `${at}${option(m[1])} must be one of ${m[3]
      .split(', ')
      .map(quoted)
      .join(', ')}, got '${quoted(m[2])}'; ${help}`;
  if ((m = /^Missing required arguments?: (.*)$/.exec(flat)))
    return `${at}missing ${m[1]
      .split(', ')
      .map((n) => option(n))
      .join(', ')}; ${help}`;
  if ((m = /^Arguments ([\w-]+) and ([\w-]+) are mutually exclusive/.exec(flat)))
    return `${at}${option(m[1])} and ${option(m[2])} exclude each other: give one; ${help}`;
  if ((m = /^Not enough arguments following: ([\w-]+)/.exec(flat)))
    return `${at}${option(m[1])} needs a value; ${help}`;
  return `${at}${flat.replace(/\.$/, '')}; ${help}`;
}
