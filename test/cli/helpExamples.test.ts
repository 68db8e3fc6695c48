// Every example of every `--help` is run (issue #18 §4): a user copies them first, so each must
// work as printed, on the files the examples before it wrote (a fresh directory, as after the
// quick start). Only the size of a few long runs is cut (fewer games or instances, shorter
// games: the same command at a smaller size), and the interactive one (a person at the terminal)
// is started with no input and must stop with its one line: the game saved unfinished, exit 130.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helpText } from '../../host/cli/program';
import { krieg, kriegProcess, ROOT } from '../lib/cli';

let DIR = '';

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-examples-'));
  // the examples name the shipped problem suite by its path in the repository
  cpSync(join(ROOT, 'test/data/problems'), join(DIR, 'test/data/problems'), { recursive: true });
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

/** The commands, in the order a user meets them: each example may read what the ones before it wrote. */
const COMMANDS = [
  ['perft'],
  ['moves'],
  ['play'],
  ['view'],
  ['variants'],
  ['belief'],
  ['infoset'],
  ['solve'],
  ['verify'],
  ['db', 'list'],
  ['db', 'show'],
  ['db', 'stats'],
  ['db', 'export'],
  ['db', 'generate'],
  ['db', 'bench'],
  ['db', 'upgrade'],
  ['match'],
];

/** The examples of `krieg words… --help`, unwrapped. */
async function examplesOf(words: string[]): Promise<string[]> {
  const help = await helpText(words, null);
  const at = help.indexOf('\nExamples:\n');
  if (at < 0) return [];
  const lines = help.slice(at + '\nExamples:\n'.length).split('\n');
  const examples: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('  krieg ')) break;
    examples.push(line.trim().split(/\s{2,}/)[0]);
  }
  return examples;
}

/** A command line split as a shell would: words, "quoted words", and a `> file` redirection. */
function shellWords(line: string): { args: string[]; redirect?: string } {
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  const at = words.indexOf('>');
  return at < 0 ? { args: words } : { args: words.slice(0, at), redirect: words[at + 1] };
}

/** The same command at a test's size: fewer games and instances, shorter timed games. */
function smaller(args: string[]): string[] {
  const out = [...args];
  const set = (option: string, value: string) => {
    const i = out.indexOf(option);
    if (i >= 0) out[i + 1] = value;
  };
  if (out[1] === 'match') {
    set('--games', '2');
    set('--time-per-move', '0.05');
    out.push('--max-plies', '12');
  }
  if (out[1] === 'db' && out[2] === 'generate') {
    set('--mates', '3');
    set('--near-misses', '3');
  }
  return out;
}

describe('every --help example', () => {
  it('has examples on every command but variants and db stats', async () => {
    for (const words of COMMANDS)
      if (!['variants', 'stats'].includes(words.at(-1)!))
        expect((await examplesOf(words)).length, words.join(' ')).toBeGreaterThan(0);
  });

  it('runs as printed, each on the files the ones before it wrote', async () => {
    const ran: string[] = [];
    for (const words of COMMANDS) {
      for (const example of await examplesOf(words)) {
        const { args, redirect } = shellWords(example);
        expect(args[0]).toBe('krieg');
        const argv = smaller(args).slice(1);
        if (argv.includes('human')) {
          // a person plays at the terminal: with no input, the game stops in one line, saved unfinished
          const run = kriegProcess(argv, DIR, '');
          expect(run.status, example).toBe(130);
          expect(run.stderr, example).toMatch(/stopped \(the input ended\): saved unfinished/);
          continue;
        }
        const run = await krieg(argv, DIR);
        expect(run.status, `${example}\n${run.stderr}`).toBe(0);
        expect(run.stderr, example).toBe('');
        if (redirect) writeFileSync(join(DIR, redirect), run.stdout);
        ran.push(example);
      }
    }
    // the files the examples promise
    for (const file of ['games.kpgn', 'short.kpgn', 'view.kpgn', 'belief.svg', 'belief.png', 's.json', 'mates.json'])
      expect(existsSync(join(DIR, file)), file).toBe(true);
    expect(ran.length).toBeGreaterThan(20);
  });
});
