// The web app's words and steps, without a browser: the referee's sentences in the transcript
// (host/web/app/words.ts refereeSays) for hand-written events, a view cut at each ply (viewAtPly)
// against pliesBefore, on a seeded random game under every preset, move numbers from a FEN, the
// clock's m:ss, the enemy men a player has not taken (the Play tray), and errors as sentences
// (errorSentence) without their registry ids.
import { describe, expect, it } from 'vitest';
import { clockText, enemyMen, errorSentence, moveNumberAt, refereeSays, viewAtPly } from '../../host/web/app/words';
import { fail } from '../../host/errors';
import { createEngine } from '../../host/node';
import { randomGame } from '../../host/referee/game';
import { pliesBefore } from '../../host/belief/describe';
import { viewOf, SIDES } from '../../host/record/record';
import { PRESET_NAMES, preset } from '../../host/record/rules';

describe('the referee, in words', () => {
  it('says an attempt, a capture with check directions, an opponent move after Illegal attempts', () => {
    expect(
      refereeSays({ type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'illegal' } }, 'white'),
    ).toBe('You try e2e4: Illegal');
    expect(
      refereeSays(
        {
          type: 'attempt',
          side: 'white',
          attempt: 'd1h5',
          percept: { answer: 'legal', capture: 39, captured: 'pawn', check: true, directions: 8 | 2 },
        },
        'white',
      ),
    ).toBe('You play d1h5. White has moved. Capture at h5 (a pawn). Check: rank. Check: long diagonal');
    expect(
      refereeSays(
        { type: 'opponent-move', side: 'black', illegal: 2, percept: { answer: 'legal', end: 'checkmate' } },
        'white',
      ),
    ).toBe('Black has moved after 2 Illegal. Checkmate');
    expect(refereeSays({ type: 'pawn-tries', side: 'white', count: 1 }, 'white')).toBe('White: 1 pawn try');
    expect(refereeSays({ type: 'pawn-tries', side: 'black', squares: [35, 37] })).toBe('Black: pawn tries at d5, f5');
    expect(refereeSays({ type: 'any', side: 'black', yes: false }, 'white')).toBe('Black asks "Any?": No');
    // a replay names both sides
    expect(refereeSays({ type: 'attempt', side: 'black', attempt: 'e7e5', percept: { answer: 'legal' } })).toBe(
      'Black plays e7e5. Black has moved',
    );
  });
});

describe('a view cut at a ply', () => {
  const engine = createEngine('wasm', 64);
  for (const name of PRESET_NAMES)
    it(`${name}: the first p plies of either side's view, for every p`, () => {
      engine.setRules(preset(name));
      const record = randomGame(engine, 5, { maxPlies: 40 });
      for (const side of SIDES) {
        const view = viewOf(record, side);
        const plies = pliesBefore(view, view.events.length);
        for (let p = 0; p <= plies; p++) {
          const cut = viewAtPly(view, p);
          expect(pliesBefore(cut, cut.events.length)).toBe(p);
          expect(cut.events).toEqual(view.events.slice(0, cut.events.length));
          // nothing of ply p + 1 is left out: the next event is that ply's own move or belongs to it
          if (p < plies) expect(pliesBefore(view, cut.events.length + 1) <= p + 1).toBe(true);
        }
        expect(viewAtPly(view, plies).events.length).toBe(view.events.length);
      }
    });
});

describe('move numbers and errors, in words', () => {
  it('numbers the plies from the start FEN: White first from move 1, Black first from move 12', () => {
    const view = (start: string) => ({ start }) as Parameters<typeof moveNumberAt>[0];
    const white = view('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect([0, 1, 2, 3, 4].map((p) => moveNumberAt(white, p))).toEqual([1, 1, 2, 2, 3]);
    const black = view('k7/8/8/8/8/8/8/K7 b - - 3 12');
    expect([0, 1, 2, 3].map((p) => moveNumberAt(black, p))).toEqual([12, 13, 13, 14]);
  });

  it('says a KriegError without its id, in a sentence for the ids a person meets, else its message', () => {
    const notToMove = errorSentence(fail('not-to-move', { source: 'view', toMove: 'black', side: 'white' }));
    expect(notToMove).toMatch(/^At this point of the game the opponent is to move/);
    expect(notToMove).not.toMatch(/not-to-move/);
    const kpgn = errorSentence({ code: 'bad-kpgn', message: 'line 3, column 1: text after the result.' });
    expect(kpgn).toBe('This is not a KPGN game the page can read (line 3, column 1: text after the result).');
    expect(errorSentence(new Error('no game'))).toBe('no game');
    expect(errorSentence('cancelled')).toBe('cancelled');
  });

  it('shows a clock as m:ss, whole seconds rounded down', () => {
    expect([0, 999, 1000, 59_999, 60_000, 61_500, 600_000, 3_725_000].map(clockText)).toEqual([
      '0:00',
      '0:00',
      '0:01',
      '0:59',
      '1:00',
      '1:01',
      '10:00',
      '62:05',
    ]);
  });
});

describe('the enemy men not yet taken (the Play tray)', () => {
  it("counts the enemy's men at the start by type, and the player's captures by what the referee said of them", () => {
    type Event = Parameters<typeof refereeSays>[0];
    const legal = (side: 'white' | 'black', attempt: string, percept: object): Event =>
      ({ type: 'attempt', side, attempt, percept: { answer: 'legal', ...percept } }) as Event;
    const view = {
      as: 'black',
      start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN2K1NR b KQkq - 0 1',
      events: [
        legal('black', 'e7e5', {}),
        legal('white', '', { capture: 36 }), // White's capture: not counted
        legal('black', 'd8d2', { capture: 11, captured: 'pawn' }),
        legal('white', '', {}),
        { type: 'attempt', side: 'black', attempt: 'd2e1', percept: { answer: 'illegal' } } as Event,
        legal('black', 'd2b1', { capture: 1, captured: 'piece' }),
        legal('white', '', {}),
        legal('black', 'b1a1', { capture: 0 }), // rules that say no type
        legal('white', '', {}),
        legal('black', 'f4e3', { capture: 20, enPassant: true }),
      ],
    } as unknown as Parameters<typeof enemyMen>[0];
    // White starts without its bishops and queen: 8 pawns, 2 knights, 2 rooks, the king
    expect(enemyMen(view)).toEqual({ start: [0, 8, 2, 0, 2, 0, 1], taken: { pawn: 2, piece: 1, unknown: 1 } });
    expect(enemyMen({ ...view, as: 'white' }).start).toEqual([0, 8, 2, 2, 2, 1, 1]);
  });
});
