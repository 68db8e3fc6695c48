// "Guaranteed mate in N" on the Know and Solve tabs (issue #37 item 7): when the belief shown is a
// tablebase's state (the viewer to move with K+R, K+Q, K+B+B or K+B+N, the lone king on a set of
// squares), the Know worker values it with the table (host/web/egtb.ts: fetched on first use) and
// the line says the mate and the attempt, which lights up on the board.
import type { View } from '../../record/record';
import type { BeliefSummary } from '../belief';
import type { TableAnswer } from '../egtb';
import { squareIndex, type Page } from './page';

const ENDING_NAMES: Record<string, string> = {
  krk: 'K+R v K',
  kqk: 'K+Q v K',
  kbbk: 'K+B+B v K',
  kbnk: 'K+B+N v K',
};

/**
 * Whether a FEN may be a tabled state (the side to move with K+R, K+Q, K+B+B or K+B+N, the other a
 * king alone), by its letters: the worker, which checks it, is not woken for every small belief.
 */
export function mayBeTabled(fen: string): boolean {
  const [placement, side] = fen.split(' ');
  const letters = placement.replace(/[^a-zA-Z]/g, '');
  const [own, enemy] = side === 'w' ? [/[A-Z]/g, /[a-z]/g] : [/[a-z]/g, /[A-Z]/g];
  if ((letters.match(enemy) ?? []).join('').toLowerCase() !== 'k') return false;
  const men = (letters.match(own) ?? [])
    .map((c) => c.toLowerCase())
    .sort()
    .join('');
  return ['kr', 'kq', 'bbk', 'bkn'].includes(men);
}

/** The questions asked, by line: an answer to an older one is dropped. */
const asked = new Map<string, number>();
let nextAsk = 1;

/**
 * The tablebase's question for a belief shown in Know: every position counted, the enemy's men a
 * king alone, the viewer to move; the men of one position and the king's squares. Else undefined.
 */
export function beliefQuery(belief: BeliefSummary, view: View): { fens: string[]; squares: number[] } | undefined {
  const { heatmaps, samples } = belief;
  if (belief.kind !== 'exact' || belief.positions !== belief.held || belief.positions === 0 || !samples.length)
    return undefined;
  if (heatmaps.all.some((n, sq) => n !== heatmaps.king[sq])) return undefined; // men beside the king
  if (samples[0].split(' ')[1] !== view.as[0] || !mayBeTabled(samples[0])) return undefined; // not to move, or no ending
  const squares = heatmaps.king.flatMap((n, sq) => (n > 0 ? [sq] : []));
  return { fens: [samples[0]], squares };
}

/**
 * Asks the table about a belief (its rules and positions, or one and the king's squares) and
 * writes the answer in the line `id`, lighting the attempt on the board; with no question, clears
 * the line.
 */
export async function showTablebase(
  page: Page,
  id: string,
  query: { rules: View['rules']; fens: string[]; squares?: number[] } | undefined,
): Promise<void> {
  const line = page.$(id);
  const ask = nextAsk++;
  asked.set(id, ask);
  const lit = line.dataset.attempt;
  line.textContent = '';
  line.hidden = true;
  for (const key of ['value', 'attempt', 'state']) delete line.dataset[key];
  if (lit && lit === litAttempt(page)) light(page, undefined);
  if (!query || query.fens.length === 0 || !mayBeTabled(query.fens[0])) return;
  const base = new URL('egtb/', page.doc.baseURI).href;
  const reply = await page.knowWorker.send({ kind: 'tablebase', query: { ...query, base } }, (r) => {
    if (r.kind !== 'loading' || asked.get(id) !== ask) return;
    line.hidden = false;
    line.dataset.state = 'loading';
    line.textContent = `Loading the ${ENDING_NAMES[r.what.split('-')[0]] ?? r.what} tablebase …`;
  });
  if (asked.get(id) !== ask) return; // a newer belief asked meanwhile
  if (reply.kind === 'error') {
    line.hidden = false;
    line.dataset.state = 'error';
    line.textContent = `The tablebase could not answer: ${reply.message}`;
    return;
  }
  if (reply.kind !== 'tablebase' || !reply.answer) {
    delete line.dataset.state;
    return;
  }
  line.hidden = false;
  write(page, line, reply.answer);
}

function write(page: Page, line: HTMLElement, answer: TableAnswer): void {
  const name = ENDING_NAMES[answer.ending];
  if ('absent' in answer) {
    line.dataset.state = 'absent';
    line.textContent = `${name}: ${answer.absent}.`;
    return;
  }
  line.dataset.state = 'answered';
  line.dataset.value = String(answer.value);
  const king = `the king on ${answer.squares} square${answer.squares === 1 ? '' : 's'}`;
  if (answer.value === 0) {
    line.textContent = `${name}, ${king}: the tablebase knows no forced mate from here (whatever the king does).`;
    return;
  }
  const moves = `${answer.value} move${answer.value === 1 ? '' : 's'}`;
  line.dataset.attempt = answer.attempt ?? '';
  line.textContent =
    `Guaranteed mate in ${answer.bound ? 'at most ' : ''}${moves} (${name} tablebase, ${king}; ` +
    `${2 * answer.value - 1} plies, whatever the defender does and the referee answers)` +
    (answer.attempt ? `: try ${answer.attempt} first, lit on the board.` : '.');
  if (answer.attempt) light(page, answer.attempt);
}

const litAttempt = (page: Page) => page.doc.getElementById('board')?.dataset.tablebase;

/** Lights an attempt's squares on the board (undefined: none). */
function light(page: Page, attempt: string | undefined): void {
  const board = page.doc.getElementById('board');
  if (board) board.dataset.tablebase = attempt ?? '';
  page.board.highlight = attempt
    ? new Set([squareIndex(attempt.slice(0, 2)), squareIndex(attempt.slice(2, 4))])
    : new Set();
  page.board.render();
}
