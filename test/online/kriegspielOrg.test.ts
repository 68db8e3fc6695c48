// The site's state as a krieg view (host/online/kriegspielOrg.ts), on hand-written states in the
// shapes of ks-backend 7d566bcee3c2 (models/game.py GameStateResponse, services/state_projection.py
// for the entries and their texts).
import { describe, expect, it } from 'vitest';
import { SiteGameView, siteRules, siteView, type SiteEntry, type SiteState } from '../../host/online/kriegspielOrg';
import { KriegError } from '../../host/errors';
import { PRESETS } from '../../host/record/rules';

const own = (uci: string, ...messages: string[]): SiteEntry => ({
  kind: messages[0] === 'Illegal move' ? 'illegal_move' : /at [A-H][1-8]$/.test(messages[0]) ? 'capture' : 'move',
  actor: 'self',
  prompt: 'Move attempt',
  message: `Move attempt — ${messages.join(' · ')}`,
  messages,
  move_uci: uci,
  question_type: 'COMMON',
});
const theirs = (...messages: string[]): SiteEntry => ({
  ...own('', ...messages),
  actor: 'opponent',
  prompt: 'Opponent move',
  message: `Opponent move — ${messages.join(' · ')}`,
  move_uci: null,
});
const ask = (actor: 'self' | 'opponent', yes: boolean): SiteEntry => ({
  kind: 'ask_any',
  actor,
  message: yes ? 'Has pawn captures' : 'No pawn captures',
  messages: [yes ? 'Has pawn captures' : 'No pawn captures'],
  move_uci: null,
  question_type: 'ASK_ANY',
});

function state(as: 'white' | 'black', turns: [SiteEntry[], SiteEntry[]][], extra: Partial<SiteState> = {}): SiteState {
  return {
    game_id: 'g1',
    state: 'active',
    turn: 'white',
    move_number: turns.length + 1,
    your_color: as,
    allowed_moves: [],
    scoresheet: {
      viewer_color: as,
      last_move_number: turns.length,
      turns: turns.map(([white, black], i) => ({ turn: i + 1, white, black })),
    },
    possible_actions: [],
    clock: { white_remaining: 1500, black_remaining: 1500, active_color: 'white' },
    ...extra,
  };
}

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(KriegError);
    return `${(error as KriegError).code}: ${(error as Error).message}`;
  }
  throw new Error('no error');
}

describe("Kriegspiel.org's game state as a krieg view", () => {
  it("maps White's scoresheet under berkeley: own attempts, the opponent's Illegal count, captures, checks", () => {
    const s = state('white', [
      [[own('e2e4', 'Move complete')], [theirs('Illegal move'), theirs('Illegal move'), theirs('Move complete')]],
      [
        [own('d1h5', 'Illegal move'), own('f1c4', 'Move complete')],
        [theirs('Capture done at E4', 'Check on short diagonal')],
      ],
      [[own('c4f7', 'Capture done at F7', 'Double check', 'Check by knight', 'Check on long diagonal')], []],
    ]);
    s.turn = 'black';
    const view = siteView(s, 'g1', 'berkeley');
    expect(view.rules).toEqual({ ...PRESETS.berkeley, insufficientMaterialDraw: 'dead' });
    expect(view.as).toBe('white');
    expect(view.result).toBe('*');
    expect(view.events).toEqual([
      { type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'legal' } },
      { type: 'opponent-move', side: 'black', illegal: 2, percept: { answer: 'legal' } },
      { type: 'attempt', side: 'white', attempt: 'd1h5', percept: { answer: 'illegal' } },
      { type: 'attempt', side: 'white', attempt: 'f1c4', percept: { answer: 'legal' } },
      {
        type: 'opponent-move',
        side: 'black',
        illegal: 0,
        percept: { answer: 'legal', capture: 28, check: true, directions: 16 },
      },
      {
        type: 'attempt',
        side: 'white',
        attempt: 'c4f7',
        percept: { answer: 'legal', capture: 53, check: true, directions: 9 },
      },
    ]);
  });

  it('keeps "Any?" as the rules do: his own always, the opponent\'s not under the secret berkeley-any', () => {
    const s = state('black', [
      [
        [ask('opponent', false), theirs('Move complete')],
        [ask('self', true), own('d7d5', 'Illegal move')],
      ],
    ]);
    s.turn = 'black';
    const view = siteView(s, 'g2', 'berkeley_any');
    expect(view.rules.pawnTries).toBe('any-secret');
    expect(view.events).toEqual([
      { type: 'opponent-move', side: 'white', illegal: 0, percept: { answer: 'legal' } },
      { type: 'any', side: 'black', yes: true },
      { type: 'attempt', side: 'black', attempt: 'd7d5', percept: { answer: 'illegal' } },
    ]);
  });

  it("ends with the site's result; a mate comes without its check, as in ks-game saves", () => {
    const s = state(
      'black',
      [
        [[theirs('Move complete')], [own('f7f6', 'Move complete')]],
        [[theirs('Move complete')], [own('g7g5', 'Move complete')]],
        [[theirs('Move complete', 'Checkmate — White wins')], []],
      ],
      { state: 'completed', turn: null, result: { winner: 'white', reason: 'checkmate' } },
    );
    const view = siteView(s, 'g3', 'berkeley');
    expect(view.result).toBe('1-0');
    expect(view.events.at(-1)).toEqual({
      type: 'opponent-move',
      side: 'white',
      illegal: 0,
      percept: { answer: 'legal', end: 'checkmate' },
    });
  });

  it("reads the pawn-try statuses of the rules that announce them (Cincinnati's exists, Wild 16's count)", () => {
    const status = (message: string): SiteEntry => ({ kind: 'status', actor: 'self', message, messages: [message] });
    const s = state(
      'white',
      [[[own('e2e4', 'Move complete')], [status('Has pawn capture'), theirs('Move complete')]]],
      {
        turn: 'white',
      },
    );
    s.scoresheet.turns.push({ turn: 2, white: [status('No pawn captures')], black: [] });
    expect(siteView(s, 'g4', 'cincinnati').events.filter((e) => e.type === 'pawn-tries')).toEqual([
      { type: 'pawn-tries', side: 'white', exists: false }, // before the first move, as ks-game reads it
      { type: 'pawn-tries', side: 'black', exists: true },
      { type: 'pawn-tries', side: 'white', exists: false },
    ]);
    s.scoresheet.turns[0].black[0] = status('2 pawn tries');
    expect(siteView(s, 'g4', 'wild16').events.filter((e) => e.type === 'pawn-tries')).toEqual([
      { type: 'pawn-tries', side: 'white', count: 0 },
      { type: 'pawn-tries', side: 'black', count: 2 },
      { type: 'pawn-tries', side: 'white', count: 0 },
    ]);
  });

  it('refuses, naming the game, what cannot be a game', () => {
    const base = () => state('white', [[[own('e2e4', 'Move complete')], [theirs('Move complete')]]]);
    const cases: [(s: SiteState) => void, RegExp][] = [
      [
        (s) => (s.scoresheet.turns[0].white[0] = own('e2e4', 'Move completed')),
        /unknown announcement "Move completed"/,
      ],
      [
        (s) => s.scoresheet.turns[0].white.push(own('d2d4', 'Move complete')),
        /turn 1 white entry 2: white plays, but black is to move/,
      ],
      [
        (s) => (s.scoresheet.turns[0].white[0] = theirs('Move complete')),
        /opponent plays white, and this state is white's/,
      ],
      [(s) => (s.turn = 'black'), /turn: the state says black is to move, the scoresheet white/],
      [(s) => (s.scoresheet.turns[0].white[0] = own('e2e4', 'Capture done at E4', 'Move complete')), /two answers/],
      [
        (s) => (s.scoresheet.turns[0].white[0] = own('e2e4', 'Illegal move', 'Check on rank')),
        /an Illegal answer with announcements/,
      ],
      [(s) => (s.scoresheet.turns[0].white[0] = own('e2', 'Move complete')), /his own attempt has no UCI move/],
      [
        (s) => (s.scoresheet.turns[0].white[0] = { ...own('e2e4', 'Move complete'), kind: 'capture' }),
        /kind "capture"/,
      ],
      [(s) => (s.scoresheet.turns[0].white[0] = own('e7e8q', 'Capture done at E8', 'Queen dropped')), /dropped/],
      [(s) => (s.scoresheet.viewer_color = 'black'), /scoresheet: the scoresheet is black's, the state white's/],
      [(s) => s.scoresheet.turns.push({ turn: 1, white: [], black: [] }), /turn numbers must rise/],
    ];
    for (const [change, message] of cases) {
      const s = base();
      change(s);
      expect(refusal(() => siteView(s, 'XK7Q2M', 'berkeley'))).toMatch(
        new RegExp(`^site-state: Kriegspiel.org game XK7Q2M, .*${message.source}`),
      );
    }
    expect(refusal(() => siteRules('crazykrieg'))).toMatch(
      /^site-variant: .*'crazykrieg': crazykrieg .*has no krieg rule set/,
    );
    expect(refusal(() => siteRules('chess960'))).toMatch(/unknown ks-game ruleset "chess960"/);
  });

  it('hands each new event over once, holds back an opponent turn in progress, and refuses a state that rewrites the past', () => {
    const sheet = new SiteGameView('g5', 'berkeley');
    const first = state('white', [[[own('e2e4', 'Move complete')], [theirs('Illegal move')]]], { turn: 'black' });
    expect(sheet.update(first)).toEqual([
      { type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'legal' } },
    ]);
    expect(sheet.view!.events.at(-1)).toEqual({ type: 'opponent-move', side: 'black', illegal: 1 });
    const second = state('white', [
      [[own('e2e4', 'Move complete')], [theirs('Illegal move'), theirs('Move complete')]],
    ]);
    expect(sheet.update(second)).toEqual([
      { type: 'opponent-move', side: 'black', illegal: 1, percept: { answer: 'legal' } },
    ]);
    expect(sheet.update(second)).toEqual([]);
    const rewritten = state('white', [[[own('d2d4', 'Move complete')], [theirs('Move complete')]]]);
    expect(refusal(() => sheet.update(rewritten))).toMatch(
      /^site-state: Kriegspiel.org game g5, event 1: the state contradicts the one before: was .*e2e4.*, now .*d2d4/,
    );
  });
});
