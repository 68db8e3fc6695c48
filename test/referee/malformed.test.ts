// Malformed records and views: every file of test/data/malformed is broken in exactly one way, and
// test/data/malformed/expected.json says which error it must give (KriegError code, the 1-based
// line, and column where meaningful, of the broken text, a substring of the reason). Each file is
// checked twice:
//   - through the library: parseKpgnGames / parseRecordJsonGames (by extension), then, for records
//     whose break is in the play rather than the syntax ("stage": "validate"), validateRecord, which
//     replays the record through the referee;
//   - through the built CLI, `krieg view FILE --as white`: exit code 2, nothing on stdout, and one
//     line on stderr, `krieg: FILE: line L, column C: reason`, with no stack trace.
// Then the good paths of `play` and `view` (files written by play read back for both sides, in both
// notations; rule flags on the command line recorded as a [Rules] tag) and play's argument errors,
// which must fail with exit code 2, one line, and no output file left behind.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, readdirSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, BACKENDS, KriegError } from '../../host/node';
import { parseKpgnGames, type ParsedKpgn } from '../../host/notation/kpgn';
import { parseRecordJsonGames } from '../../host/notation/recordJson';
import { validateRecord } from '../../host/referee/validate';
import { readGames } from '../../host/io/gamesFile';
import { ROOT, expectOneLine, krieg } from '../lib/cli';

const DIR = join(ROOT, 'test/data/malformed');

interface Expected {
  broken: string;
  code: string;
  line?: number;
  column?: number;
  reason: string;
  stage: 'parse' | 'validate';
  missing?: boolean;
}

const EXPECTED: Record<string, Expected> = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')).files;
const NAMES = Object.keys(EXPECTED);

// ---- helpers ----

/** The (first) "line L, column C" a message points at. */
function where(message: string): { line?: number; column?: number } {
  const m = /\bline (\d+)(?:, column (\d+))?/.exec(message);
  return m ? { line: Number(m[1]), column: m[2] === undefined ? undefined : Number(m[2]) } : {};
}

function expectPointsAt(message: string, e: Expected): void {
  const at = where(message);
  if (e.line !== undefined) expect(at.line, `line in: ${message}`).toBe(e.line);
  if (e.column !== undefined) expect(at.column, `column in: ${message}`).toBe(e.column);
  expect(message).toContain(e.reason);
}

function parseFile(name: string): ParsedKpgn[] {
  const text = readFileSync(join(DIR, name), 'utf8');
  return name.endsWith('.json') ? parseRecordJsonGames(text) : parseKpgnGames(text);
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

// ---- the corpus ----

describe('malformed corpus', () => {
  it('has a file for every entry of expected.json and an entry for every file', async () => {
    const files = readdirSync(DIR)
      .filter((f) => f !== 'expected.json')
      .sort();
    const present = NAMES.filter((n) => !EXPECTED[n].missing).sort();
    expect(files).toEqual(present);
    for (const name of NAMES.filter((n) => EXPECTED[n].missing)) expect(existsSync(join(DIR, name)), name).toBe(false);
    expect(present.length).toBeGreaterThanOrEqual(35);
  });
});

describe.each(BACKENDS)('malformed input through the library on %s', (backend) => {
  const engine = createEngine(backend);

  it.each(NAMES)('%s', async (name) => {
    const e = EXPECTED[name];
    let error: unknown;
    if (e.missing) {
      error = caught(() => readGames(join(DIR, name)));
    } else if (e.stage === 'parse') {
      error = caught(() => parseFile(name));
    } else {
      const games = parseFile(name); // the syntax is fine: the referee must find the error
      error = caught(() => {
        for (const game of games)
          if (game.kind === 'record') validateRecord(engine, game.record, game.positions, game.startAt);
      });
    }
    expect(error, `${name} (${e.broken}) must be rejected`).toBeInstanceOf(KriegError);
    const k = error as KriegError;
    expect(k.code).toBe(e.code);
    expectPointsAt(k.message, e);
  });
});

describe('malformed input through the CLI (krieg view FILE --as white)', () => {
  it.each(NAMES)('%s', async (name) => {
    const e = EXPECTED[name];
    const run = await krieg(['view', join(DIR, name), '--as', 'white']);
    const line = expectOneLine(run, 2);
    expect(run.stdout).toBe('');
    expect(line).toContain(name);
    expectPointsAt(line, e);
  });
});

// ---- good paths and argument errors of play / view ----

describe('krieg play and view', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'krieg-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  for (const ext of ['kpgn', 'json'] as const) {
    it(`play writes a ${ext} file that view reads back for both sides`, async () => {
      const out = join(dir, `games.${ext}`);
      const play = await krieg(['play', '--games', '2', '--seed', '5', '--variant', 'rand', '--out', out]);
      expect(play.stderr).toBe('');
      expect(play.status).toBe(0);
      expect(play.stdout).toMatch(/^2 games written to /);
      const written = readFileSync(out, 'utf8');
      if (ext === 'json') expect(JSON.parse(written)).toHaveLength(2);
      else expect(written.match(/^\[Filtered "no"\]$/gm)).toHaveLength(2);

      for (const side of ['white', 'black'] as const) {
        for (const format of ['kpgn', 'json'] as const) {
          const view = await krieg(['view', out, '--as', side, '--format', format]);
          expect(view.stderr).toBe('');
          expect(view.status).toBe(0);
          const games = format === 'json' ? parseRecordJsonGames(view.stdout) : parseKpgnGames(view.stdout);
          expect(games).toHaveLength(2);
          for (const g of games) {
            expect(g.kind).toBe('view');
            if (g.kind === 'view') expect(g.view.as).toBe(side);
          }
          // a view file is itself readable by view, for its own side, and comes back unchanged
          const viewFile = join(dir, `view-${ext}-${side}.${format}`);
          writeFileSync(viewFile, view.stdout);
          const again = await krieg(['view', viewFile, '--as', side, '--format', format]);
          expect(again.status).toBe(0);
          expect(again.stdout).toBe(view.stdout);
          // …and refuses the other side
          const other = await krieg(['view', viewFile, '--as', side === 'white' ? 'black' : 'white']);
          expect(expectOneLine(other, 2)).toContain(`${side}'s view`);
        }
      }
    });
  }

  it('play records rule flags given on the command line as a [Rules] tag', async () => {
    const args = [
      'play',
      '--games',
      '1',
      '--seed',
      '3',
      '--variant',
      'berkeley',
      '--no-castling',
      '--pawn-tries',
      'squares',
    ];
    const kpgn = join(dir, 'flags.kpgn');
    expect((await krieg([...args, '--out', kpgn])).status).toBe(0);
    const text = readFileSync(kpgn, 'utf8');
    expect(text).toMatch(/^\[Variant "berkeley"\]$/m);
    const rules = /^\[Rules "([^"]*)"\]$/m.exec(text);
    expect(rules, text.slice(0, 300)).not.toBeNull();
    expect(rules![1].split(' ').sort()).toEqual(['castling=false', 'pawnTries=squares']);
    const [game] = parseKpgnGames(text);
    expect(game.kind === 'record' && game.record.rules.castling).toBe(false);
    expect(game.kind === 'record' && game.record.rules.pawnTries).toBe('squares');
    // the view keeps the rules
    const view = await krieg(['view', kpgn, '--as', 'black']);
    expect(view.status).toBe(0);
    expect(view.stdout).toContain(rules![0]);

    const json = join(dir, 'flags.json');
    expect((await krieg([...args, '--out', json])).status).toBe(0);
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    expect(doc.variant).toBe('berkeley');
    expect(doc.rules).toEqual({ castling: false, pawnTries: 'squares' });
  });

  const FAILURES: { args: string[]; message: RegExp; why: string }[] = [
    { args: ['--games', '0'], message: /games must be an integer from 1 to .*'0'/, why: 'no games' },
    { args: ['--seed', 'x'], message: /seed must be an integer .*'x'/, why: 'a seed that is not a number' },
    { args: ['--max-plies', '0'], message: /max-plies must be an integer from 1 .*'0'/, why: 'games of no plies' },
    { args: ['--variant', 'blitz'], message: /variant.*blitz|blitz.*variant/, why: 'an unknown variant' },
    { args: ['--fen', 'not a fen'], message: /FEN/, why: 'a malformed start position' },
    {
      args: ['--fen', '4k3/8/8/8/8/8/8/K3K3 w - - 0 1'],
      message: /exactly one king/,
      why: 'an impossible start position',
    },
    { args: ['--promotion-pieces', 'xyz'], message: /promotion pieces .*'xyz'/, why: 'a bad rule value' },
  ];

  it.each(FAILURES)('play fails on $why ($args) with one line and no output file', async ({ args, message }) => {
    const sub = mkdtempSync(join(dir, 'fail-'));
    const out = join(sub, 'out.kpgn');
    const run = await krieg(['play', ...args, '--out', out]);
    expect(expectOneLine(run, 2)).toMatch(message);
    expect(existsSync(out), 'no output file').toBe(false);
    expect(readdirSync(sub), 'nothing half-written left in the directory').toEqual([]);
  });
});
