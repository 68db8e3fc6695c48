// `human`: a person at the terminal (krieg play --white human). He sees what a Kriegspiel referee
// would tell him — his own answers, "Black has moved" with the Illegal attempts heard and the
// announcements, pawn tries — and his own pieces, and types his attempts in UCI ("e2e4", "e7e8q",
// castling as the king's step "e1g1"); "any" asks "Any?" where the rules have it, "board" shows
// his pieces again, "moves" lists his attempts, "belief" shows where the opponent's men may stand,
// "help" lists the commands; "resign" loses the game, "quit" (or the end of the input, or Ctrl-C)
// stops it, to be saved unfinished (HumanStop: host/players/play.node.ts decides what follows).
import { readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { makeSquare } from '../notation/square';
import { makeUci, parseUci } from '../notation/move';
import { directionNames, type Percept } from '../record/percept';
import { ownBoard } from '../referee/ownBoard';
import type { Side, View, ViewEvent } from '../record/record';
import type { Engine } from '../engine';
import { estimateBelief } from '../belief/estimate';
import { pieceHeatmap, heatmapText } from '../belief/heatmap';
import type { AsyncPlayerFactory } from './player';

export interface HumanIo {
  /**
   * The next line typed (without its end), or undefined at the end of the input; a promise of it
   * may instead reject with HumanStop('interrupt') (Ctrl-C).
   */
  readLine(): string | undefined | Promise<string | undefined>;
  write(text: string): void;
}

const title = (side: Side) => (side === 'white' ? 'White' : 'Black');
const END_TEXT: Record<string, string> = {
  checkmate: 'Checkmate.',
  stalemate: 'Stalemate.',
  'draw-material': 'Draw: neither side can mate.',
  'draw-fifty': 'Draw by the fifty-move rule.',
  'draw-repetition': 'Draw by repetition.',
};

/** The referee's announcements after a legal move, as he would say them. */
export function announcementText(p: Percept): string {
  const parts: string[] = [];
  if (p.capture !== undefined)
    parts.push(
      `Capture on ${makeSquare(p.capture)}${p.captured ? ` (a ${p.captured})` : ''}${p.enPassant ? ', en passant' : ''}.`,
    );
  if (p.directions) parts.push(`Check: ${directionNames(p.directions).join(' and ').toLowerCase()}.`);
  else if (p.check) parts.push('Check.');
  if (p.promotion) parts.push('Promotion.');
  if (p.end) parts.push(END_TEXT[p.end] ?? `${p.end}.`);
  return parts.join(' ');
}

/** One event of a player's view, as the referee announces it to him. */
export function eventText(event: ViewEvent, as: Side): string {
  const who = title(event.side);
  if (event.type === 'attempt') {
    if (event.percept.answer === 'illegal') return `${event.attempt}: Illegal.`;
    if (event.percept.answer === 'nonsense') return `${event.attempt}: Nonsense.`;
    return [`${event.attempt}: ${who} has moved.`, announcementText(event.percept)].filter(Boolean).join(' ');
  }
  if (event.type === 'opponent-move') {
    const tries = event.illegal ? ` after ${event.illegal} illegal attempt${event.illegal === 1 ? '' : 's'}` : '';
    if (!event.percept) return `${who} is trying${tries}.`;
    return [`${who} has moved${tries}.`, announcementText(event.percept)].filter(Boolean).join(' ');
  }
  if (event.type === 'pawn-tries') {
    const whose = event.side === as ? 'You have' : `${who} has`;
    if (event.count !== undefined) return `${whose} ${event.count} pawn tr${event.count === 1 ? 'y' : 'ies'}.`;
    if (event.exists !== undefined) return event.exists ? `${whose} pawn tries.` : `${whose} no pawn tries.`;
    return event.squares!.length
      ? `${whose} pawn tries on ${event.squares!.map(makeSquare).join(', ')}.`
      : `${whose} no pawn tries.`;
  }
  return `${who} asks "Any?": ${event.yes ? 'Try.' : 'No.'}`;
}

/** The player's own pieces as a board seen from his side (ranks 8 to 1 for White). */
export function ownBoardText(view: View): string {
  const { board } = ownBoard(view);
  const letters = ' pnbrqk';
  const ranks = view.as === 'white' ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  const files = view.as === 'white' ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const lines = ranks.map(
    (r) =>
      `${r + 1}  ${files
        .map((f) => {
          const code = board[r * 8 + f];
          if (!code) return '.';
          const letter = letters[code & 7];
          return code >> 3 ? letter : letter.toUpperCase();
        })
        .join(' ')}`,
  );
  lines.push(`   ${files.map((f) => 'abcdefgh'[f]).join(' ')}`);
  return lines.join('\n');
}

/** How a person stopped a game before its end: resigned (a loss), or quit (typed `quit`, the input ended, Ctrl-C). */
export class HumanStop extends Error {
  constructor(readonly how: 'resign' | 'quit' | 'eof' | 'interrupt') {
    super(`the human player stopped the game (${how})`);
  }
}

/** Characters of a person's input quoted back in a message at most. */
const SHOWN_INPUT = 40;

/**
 * A person's input as quoted back to him: control characters escaped (no escape sequence reaches
 * the terminal) and cut to its first 40 characters + "…".
 */
export function shownInput(text: string): string {
  const chars = [...text];
  const cut = chars.length > SHOWN_INPUT ? chars.slice(0, SHOWN_INPUT) : chars;
  const escaped = cut
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029)
        return code === 9 ? '\\t' : code === 13 ? '\\r' : `\\x${code.toString(16).padStart(2, '0')}`;
      return c;
    })
    .join('');
  return chars.length > SHOWN_INPUT ? `${escaped}…` : escaped;
}

/** The move number of the view's owner now: his legal moves so far, counted from the start FEN's number. */
export function moveNumber(view: View): number {
  const fields = view.start.trim().split(/\s+/);
  const first = Math.max(1, Number.parseInt(fields[5] ?? '1', 10) || 1);
  const blackStarts = fields[1] === 'b';
  let own = 0;
  for (const event of view.events)
    if (event.type === 'attempt' && event.side === view.as && event.percept.answer === 'legal') own++;
  return first + own + (view.as === 'white' && blackStarts ? 1 : 0);
}

/** Work of the `belief` command at the prompt (positions generated and tested): a few seconds at most. */
export const HUMAN_BELIEF_WORK = 2_000_000;
/** Positions the `belief` command keeps at most. */
const HUMAN_BELIEF_POSITIONS = 20_000;

/**
 * Where the opponent's men may stand, from the view alone (`krieg belief --show heatmap`'s map),
 * within a bounded budget: the text to print.
 */
export function beliefText(engine: Engine, view: View): string {
  const result = estimateBelief(engine, view, 'auto', {
    positions: HUMAN_BELIEF_POSITIONS,
    work: HUMAN_BELIEF_WORK,
  });
  if (result.outcome === 'inconsistent') return 'No position fits what you have heard (the view is inconsistent).\n';
  if (result.handles.length === 0)
    return `The positions you may face are too many to count within the budget (${HUMAN_BELIEF_WORK} work).\n`;
  const enemy: 0 | 1 = view.as === 'white' ? 1 : 0;
  const map = pieceHeatmap(
    (function* () {
      for (const h of result.handles) yield engine.setup(h).board;
    })(),
    enemy,
  );
  const complete = result.outcome === 'complete';
  const head = complete
    ? `Where ${title(enemy === 1 ? 'black' : 'white')}'s men may stand: over all ${map.total} positions you may face (positions with a man there, share):`
    : `Where ${title(enemy === 1 ? 'black' : 'white')}'s men may stand: over ${map.total} of the positions you may face (a partial count, the budget of ${HUMAN_BELIEF_WORK} work reached):`;
  return `${head}\n${heatmapText(map)}`;
}

const HELP_TEXT = (any: boolean) =>
  [
    'Commands:',
    "  e2e4, e7e8q, e1g1  attempt a move (UCI; castling as the king's step)",
    ...(any ? ['  any                ask "Any?" (are there pawn captures?)'] : []),
    '  moves              list the attempts you can make',
    '  board              show your pieces again',
    "  belief             where the opponent's men may stand (a heatmap of the positions you may face)",
    '  resign             resign this game (a loss)',
    '  quit               stop: the game so far is saved unfinished (*) with the games already played',
    '  help               this list',
    'Ctrl-D (end of input) and Ctrl-C also stop and save, as quit does.',
  ].join('\n') + '\n';

export function humanPlayer(io: HumanIo): AsyncPlayerFactory {
  return (setup, engine) => ({
    name: 'human',
    observe(event) {
      io.write(eventText(event, setup.side) + '\n');
    },
    async choose(turn) {
      const any = setup.rules.pawnTries.startsWith('any');
      if (turn.tried.length === 0) io.write(`\n${ownBoardText(turn.view)}\n`);
      for (;;) {
        io.write(
          `Move ${moveNumber(turn.view)}, ${title(setup.side)} to attempt (UCI, or moves / board / belief${any ? ' / any' : ''} / help / resign / quit): `,
        );
        const line = await io.readLine();
        if (line === undefined) throw new HumanStop('eof');
        const text = line.trim().toLowerCase();
        if (text === '') continue;
        if (text === 'board') {
          io.write(`${ownBoardText(turn.view)}\n`);
          continue;
        }
        if (text === 'moves') {
          io.write(`${turn.attempts.map(makeUci).join(' ')}\n`);
          continue;
        }
        if (text === 'help' || text === '?') {
          io.write(HELP_TEXT(any));
          continue;
        }
        if (text === 'belief') {
          io.write(beliefText(engine, turn.view));
          continue;
        }
        if (text === 'resign') throw new HumanStop('resign');
        if (text === 'quit' || text === 'exit') throw new HumanStop('quit');
        if (text === 'any') {
          if (turn.canAskAny) return 'any';
          io.write('"Any?" is not asked under these rules, or was asked already this turn.\n');
          continue;
        }
        const attempt = parseUci(text);
        if (attempt === undefined) {
          io.write(
            `'${shownInput(line.trim())}' is not a move in UCI (e2e4, e7e8q, e1g1), nor a command (help lists them).\n`,
          );
          continue;
        }
        if (turn.tried.includes(attempt)) {
          io.write(`${makeUci(attempt)} was already rejected this turn.\n`);
          continue;
        }
        if (!turn.attempts.includes(attempt)) {
          io.write(`${makeUci(attempt)} is not a move of your own pieces (the referee would say Nonsense).\n`);
          continue;
        }
        return attempt;
      }
    },
  });
}

/** Lines of standard input, read synchronously (a player chooses synchronously). */
export function stdinLines(): () => string | undefined {
  const buffer = Buffer.alloc(4096);
  let pending = '';
  let ended = false;
  return () => {
    for (;;) {
      const newline = pending.indexOf('\n');
      if (newline >= 0) {
        const line = pending.slice(0, newline).replace(/\r$/, '');
        pending = pending.slice(newline + 1);
        return line;
      }
      if (ended) {
        if (pending === '') return undefined;
        const line = pending;
        pending = '';
        return line;
      }
      let read = 0;
      try {
        read = readSync(0, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          continue;
        }
        if ((error as NodeJS.ErrnoException).code === 'EOF') {
          ended = true;
          continue;
        }
        throw error;
      }
      if (read === 0) ended = true;
      else pending += buffer.toString('utf8', 0, read);
    }
  };
}

/**
 * Lines of a stream (standard input) as promises, for a person at the terminal: undefined at the
 * end of the input; Ctrl-C (SIGINT) while a line is awaited, or before the next one is asked,
 * rejects with HumanStop('interrupt') rather than killing the process, so the game so far can be
 * saved. `close` stops reading and gives SIGINT back.
 */
export function terminalLines(input: NodeJS.ReadableStream = process.stdin): {
  readLine(): Promise<string | undefined>;
  close(): void;
} {
  const lines: string[] = [];
  let ended = false;
  let interrupted = false;
  let waiting: { resolve: (line: string | undefined) => void; reject: (error: Error) => void } | undefined;
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!waiting) lines.push(line);
    else {
      const w = waiting;
      waiting = undefined;
      w.resolve(line);
    }
  });
  rl.on('close', () => {
    ended = true;
    const w = waiting;
    waiting = undefined;
    w?.resolve(undefined);
  });
  const onSigint = () => {
    interrupted = true;
    const w = waiting;
    waiting = undefined;
    w?.reject(new HumanStop('interrupt'));
  };
  process.on('SIGINT', onSigint);
  return {
    readLine() {
      if (interrupted) return Promise.reject(new HumanStop('interrupt'));
      if (lines.length) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    close() {
      process.off('SIGINT', onSigint);
      rl.close();
      input.pause();
    },
  };
}
