// `human`: a person at the terminal (krieg play --white human). He sees what a Kriegspiel referee
// would tell him — his own answers, "Black has moved" with the Illegal attempts heard and the
// announcements, pawn tries — and his own pieces, and types his attempts in UCI ("e2e4", "e7e8q",
// castling as the king's step "e1g1"); "any" asks "Any?" where the rules have it, "board" shows
// his pieces again, "moves" lists his attempts.
import { fail } from '../errors';
import { readSync } from 'node:fs';
import { makeSquare } from '../notation/square';
import { makeUci, parseUci } from '../notation/move';
import { directionNames, type Percept } from '../record/percept';
import { ownBoard } from '../referee/ownBoard';
import type { Side, View, ViewEvent } from '../record/record';
import type { PlayerFactory } from './player';

export interface HumanIo {
  /** The next line typed (without its end), or undefined at the end of the input. */
  readLine(): string | undefined;
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

export function humanPlayer(io: HumanIo): PlayerFactory {
  return (setup) => ({
    name: 'human',
    observe(event) {
      io.write(eventText(event, setup.side) + '\n');
    },
    choose(turn) {
      if (turn.tried.length === 0) io.write(`\n${ownBoardText(turn.view)}\n`);
      for (;;) {
        io.write(
          `${title(setup.side)} to attempt (UCI, or moves / board${setup.rules.pawnTries.startsWith('any') ? ' / any' : ''}): `,
        );
        const line = io.readLine();
        if (line === undefined) throw fail('human-eof');
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
        if (text === 'any') {
          if (turn.canAskAny) return 'any';
          io.write('"Any?" is not asked under these rules, or was asked already this turn.\n');
          continue;
        }
        const attempt = parseUci(text);
        if (attempt === undefined) {
          io.write(`'${line.trim()}' is not a move in UCI (e2e4, e7e8q, e1g1).\n`);
          continue;
        }
        if (turn.tried.includes(attempt)) {
          io.write(`${text} was already rejected this turn.\n`);
          continue;
        }
        if (!turn.attempts.includes(attempt)) {
          io.write(`${text} is not a move of your own pieces (the referee would say Nonsense).\n`);
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
