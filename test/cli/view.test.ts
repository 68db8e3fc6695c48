// `krieg view` refuses records the referee contradicts, with one line naming the file, the place
// and the difference (issue #18 §8): a [Result] that is not how the game ended, and an event whose
// side is wrong (the message names both sides instead of printing the same text twice).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';

let DIR = '';
const krieg = (args: string[]) => runKrieg(args, DIR);

/** Nf7 mates (Kh8 boxed by its own knight): the game ends 1-0 on the board. */
const mate = (result: string) =>
  [
    '[White "a"]',
    '[Black "b"]',
    `[Result "${result}"]`,
    '[Variant "berkeley"]',
    '[Filtered "no"]',
    '[SetUp "1"]',
    '[FEN "6nk/8/3N2K1/8/8/8/8/8 w - - 0 1"]',
    '',
    '1. d6f7 {,N:;checkmate}',
    result,
    '',
  ].join('\n');

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-view-'));
  writeFileSync(join(DIR, 'mate.kpgn'), mate('1-0'));
  writeFileSync(join(DIR, 'lost.kpgn'), mate('0-1'));
  writeFileSync(join(DIR, 'drawn.kpgn'), mate('1/2-1/2'));
  // a game the board did not end may carry a result (resignation, agreement)
  writeFileSync(join(DIR, 'resigned.kpgn'), '[Result "0-1"]\n[Variant "berkeley"]\n\n1. e2e4 {,:}\n0-1\n');
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  writeFileSync(
    join(DIR, 'side.json'),
    JSON.stringify(
      {
        format: 'krieg-record',
        version: 1,
        variant: 'berkeley',
        start,
        result: '*',
        events: [{ type: 'attempt', side: 'black', attempt: 'e2e4', percept: { answer: 'legal' } }],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(DIR, 'mate.json'),
    JSON.stringify(
      {
        format: 'krieg-record',
        version: 1,
        variant: 'berkeley',
        start: '6nk/8/3N2K1/8/8/8/8/8 w - - 0 1',
        result: '*',
        events: [
          {
            type: 'attempt',
            side: 'white',
            attempt: 'd6f7',
            percept: { answer: 'legal', check: true, directions: ['Knight'], end: 'checkmate' },
          },
        ],
      },
      null,
      2,
    ),
  );
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg view and the result of a game', () => {
  it('accepts the result the board gave, and a result for a game the board did not end', async () => {
    expect((await krieg(['view', 'mate.kpgn', '--as', 'black'])).status).toBe(0);
    const resigned = await krieg(['view', 'resigned.kpgn', '--as', 'white']);
    expect(resigned.status, resigned.stderr).toBe(0);
    expect(resigned.stdout).toContain('[Result "0-1"]');
  });

  it.each([
    ['lost.kpgn', '0-1'],
    ['drawn.kpgn', '1/2-1/2'],
  ])('refuses %s, whose [Result] contradicts the checkmate, naming its line', async (file, result) => {
    const line = expectOneLine(await krieg(['view', file, '--as', 'white']), 2);
    expect(line).toBe(
      `krieg: ${file}: line 3, column 1: the result ${result} contradicts the game's end (checkmate by white's d6f7: 1-0)`,
    );
  });

  it('refuses a JSON record whose "result" contradicts the end, naming where the field is', async () => {
    const line = expectOneLine(await krieg(['view', 'mate.json', '--as', 'white']), 2);
    expect(line).toMatch(
      /^krieg: mate\.json: line \d+, column \d+: the result \* contradicts the game's end \(checkmate by white's d6f7: 1-0\)$/,
    );
  });
});

describe('krieg view and an event of the wrong side', () => {
  it('names both sides, so the two halves of the message differ', async () => {
    const line = expectOneLine(await krieg(['view', 'side.json', '--as', 'white']), 2);
    expect(line).toMatch(
      /^krieg: side\.json: line \d+, column \d+: the referee gives white's e2e4 answered legal \{,\}, the record says black's e2e4 answered legal \{,\}$/,
    );
    const [gives, says] = line.split(', the record says ');
    expect(gives.replace(/.*the referee gives /, '')).not.toBe(says);
  });
});
