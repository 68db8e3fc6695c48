// The web app's board: the 64 squares drawn for the mode (your pieces in a game, the true board or
// a side's view in a replay), with ghosts, the Know tab's heatmap, your last move and your last
// Illegal attempt, and the input on it (drag with a piece following the pointer, click, keyboard;
// a promotion asks which piece), which makes attempts through the Play tab. The squares are built
// once and only moved when the board turns, so the focused square keeps the focus across renders.
import { ownBoard } from '../../referee/ownBoard';
import { parseFen, pieceColor, pieceType } from '../../notation/fen';
import { makeSquare } from '../../notation/square';
import type { Side } from '../../record/record';
import type { PieceFilter } from '../belief';
import { enemyOf, squareIndex, type BoardPart, type Page } from './page';

/** The chess symbols, in their text (not emoji) form: U+FE0E after each. */
export const GLYPHS = ['', '♟\uFE0E', '♞\uFE0E', '♝\uFE0E', '♜\uFE0E', '♛\uFE0E', '♚\uFE0E'];
export const TYPE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const PROMOTION_NAMES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
const LETTERS = ' pnbrqk';
/** Viridis (colour-blind safe, sequential, light where few), from 0 to 1 of the positions. */
/** From this shade on, the share is written in white (≥ 4.5:1 either side of it). */
const DARK_SHADE = 5;
const VIRIDIS = ['#fde725', '#b5de2b', '#6ece58', '#35b779', '#1f9e89', '#26828e', '#31688e', '#3e4989', '#482878'];

export class Board implements BoardPart {
  selected: number | undefined;
  private focusSquare = 12;
  ghosts = new Map<number, number>();
  highlight = new Set<number>();
  private squareEls: HTMLElement[] = [];
  private rows: HTMLElement[] = [];
  private drawnAs: Side | undefined;
  private pointerFrom: number | undefined;
  private dragEl: HTMLElement | undefined;

  constructor(private readonly page: Page) {}

  build(): void {
    const board = this.page.$('board');
    for (let row = 0; row < 8; row++) {
      const el = this.page.doc.createElement('div');
      el.setAttribute('role', 'row');
      el.className = 'rank';
      this.rows.push(el);
    }
    board.replaceChildren(...this.rows);
    // one square made, the others cloned from it (64 times the HTML parser of innerHTML cost more
    // than the rest of the board's set-up)
    const square = this.page.doc.createElement('div');
    square.setAttribute('role', 'gridcell');
    square.tabIndex = -1;
    // what the square holds is said by its label; the glyphs and numbers are drawn for the eye
    for (const part of ['heat', 'piece', 'coord']) {
      const span = square.appendChild(this.page.doc.createElement('span'));
      span.className = part;
      span.setAttribute('aria-hidden', 'true');
    }
    for (let sq = 0; sq < 64; sq++) {
      const el = square.cloneNode(true) as HTMLElement;
      el.className = `sq ${(sq + (sq >> 3)) % 2 ? 'light' : 'dark'}`;
      el.dataset.square = makeSquare(sq);
      this.squareEls.push(el);
    }
    board.addEventListener('pointerdown', (e) => {
      const sq = this.squareAt(e);
      if (sq === undefined) return;
      this.page.lastClickDelay = performance.now() - e.timeStamp;
      this.pointerFrom = sq;
      this.onSquare(sq, false);
      if (this.selected === sq) this.startDrag(sq, e);
    });
    board.addEventListener('pointermove', (e) => this.moveDrag(e));
    board.addEventListener('pointerup', (e) => {
      this.endDrag();
      const sq = this.squareAt(e);
      if (sq !== undefined && this.pointerFrom !== undefined && sq !== this.pointerFrom) this.onSquare(sq, true);
      this.pointerFrom = undefined;
    });
    board.addEventListener('pointercancel', () => {
      this.endDrag();
      this.pointerFrom = undefined;
    });
    board.addEventListener('keydown', (e) => this.onKey(e));
  }

  wire(on: (id: string, type: string, fn: (e: Event) => void) => void): void {
    on('ghosts', 'change', () => this.render());
    on('clear-ghosts', 'click', () => {
      this.ghosts.clear();
      this.render();
    });
    on('heat-on-board', 'change', () => this.render());
  }

  /** A copy of the piece picked up follows the pointer until it is put down. */
  private startDrag(sq: number, e: PointerEvent): void {
    const piece = this.squareEls[sq].querySelector('.piece');
    if (!piece?.textContent) return;
    const drag = this.page.doc.createElement('span');
    drag.className = `${piece.className} drag`;
    drag.textContent = piece.textContent;
    drag.setAttribute('aria-hidden', 'true');
    this.dragEl = drag;
    this.page.doc.body.append(drag);
    this.moveDrag(e);
    this.squareEls[sq].classList.add('lifted');
  }

  private moveDrag(e: PointerEvent): void {
    if (!this.dragEl) return;
    this.dragEl.style.left = `${e.clientX}px`;
    this.dragEl.style.top = `${e.clientY}px`;
  }

  private endDrag(): void {
    this.dragEl?.remove();
    this.dragEl = undefined;
    for (const el of this.squareEls) el.classList.remove('lifted');
  }

  private squareAt(e: PointerEvent): number | undefined {
    // the square under the pointer (a touch's events all target the square it started on)
    const under = this.page.doc.elementFromPoint(e.clientX, e.clientY) ?? (e.target as Element | null);
    const target = under?.closest<HTMLElement>('.sq');
    const index = target ? this.squareEls.indexOf(target) : -1;
    return index >= 0 ? index : undefined;
  }

  private get orientation(): Side {
    if (this.page.mode === 'replay') return this.page.know.replaySide === 'black' ? 'black' : 'white';
    return this.page.play.state?.view.as ?? (this.page.$<HTMLSelectElement>('side').value as Side);
  }

  private onKey(e: KeyboardEvent): void {
    const flip = this.orientation === 'black' ? -1 : 1;
    const moves: Record<string, number> = {
      ArrowUp: 8 * flip,
      ArrowDown: -8 * flip,
      ArrowLeft: -flip,
      ArrowRight: flip,
    };
    if (e.key in moves) {
      const next = this.focusSquare + moves[e.key];
      const sameRow = e.key === 'ArrowLeft' || e.key === 'ArrowRight' ? next >> 3 === this.focusSquare >> 3 : true;
      if (next >= 0 && next < 64 && sameRow) {
        this.focusSquare = next;
        this.render();
        this.squareEls[next].focus();
      }
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.onSquare(this.focusSquare, false);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      this.selected = undefined;
      this.render();
    }
  }

  /** Your last legal move and your last attempt if the referee said Illegal to it (play only). */
  private marks(): { last: Set<number>; illegal: Set<number> } {
    const state = this.page.play.state;
    const last = new Set<number>();
    const illegal = new Set<number>();
    if (this.page.mode !== 'play' || !state) return { last, illegal };
    const events = state.view.events;
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (e.type !== 'attempt' || e.side !== state.view.as) continue;
      if (e.percept.answer === 'legal') {
        last.add(squareIndex(e.attempt.slice(0, 2))).add(squareIndex(e.attempt.slice(2, 4)));
        break;
      }
      // an Illegal attempt of this turn (the last one is marked)
      if (illegal.size === 0 && e.percept.answer === 'illegal' && !state.over && state.toMove === state.view.as)
        illegal.add(squareIndex(e.attempt.slice(0, 2))).add(squareIndex(e.attempt.slice(2, 4)));
    }
    return { last, illegal };
  }

  /** The player's own pieces now (play) or the board shown at the replay's ply. */
  private boardShown(): { board: number[]; hidden: boolean } {
    const { know, play } = this.page;
    if (this.page.mode === 'replay' && know.replay) {
      if (know.replaySide === 'true' && know.replay.fens)
        return { board: parseFen(know.replay.fens[know.replayPly]).board, hidden: false };
      const view = know.replayView();
      return { board: view ? ownBoard(view).board : new Array(64).fill(0), hidden: true };
    }
    if (play.state) return { board: ownBoard(play.state.view).board, hidden: true };
    const side = this.page.$<HTMLSelectElement>('side').value === 'black' ? 1 : 0;
    return { board: parseFen(play.startFen()).board.map((c) => (c && pieceColor(c) === side ? c : 0)), hidden: true };
  }

  private targets(): Set<number> {
    const state = this.page.play.state;
    if (this.page.mode !== 'play' || this.selected === undefined || !state) return new Set();
    const from = makeSquare(this.selected);
    return new Set(state.attempts.filter((a) => a.startsWith(from)).map((a) => squareIndex(a.slice(2, 4))));
  }

  render(): void {
    const board = this.page.$('board');
    const black = this.orientation === 'black';
    const { board: pieces, hidden } = this.boardShown();
    const targets = this.targets();
    const heat = this.heatShown();
    const showGhosts = this.page.mode === 'play' && this.page.$<HTMLInputElement>('ghosts').checked;
    const { last, illegal } = this.marks();
    const turned = this.drawnAs !== this.orientation;
    this.drawnAs = this.orientation;
    for (let row = 0; row < 8; row++)
      for (let col = 0; col < 8; col++) {
        const sq = black ? row * 8 + (7 - col) : (7 - row) * 8 + col;
        const el = this.squareEls[sq];
        if (turned) this.rows[row].append(el); // moved only when the board turns: the focus stays
        const code = pieces[sq];
        const pieceEl = el.children[1] as HTMLElement;
        const ghost = showGhosts && !code ? this.ghosts.get(sq) : undefined;
        pieceEl.textContent = code ? GLYPHS[pieceType(code)] : ghost ? GLYPHS[ghost] : '';
        pieceEl.className = `piece ${code ? (pieceColor(code) ? 'black' : 'white') : ghost ? `ghost ${enemyOf(this.page.play.state)}` : ''}`;
        el.dataset.piece = code ? `${pieceColor(code) ? 'b' : 'w'}${LETTERS[pieceType(code)].toUpperCase()}` : '';
        const heatEl = el.children[0] as HTMLElement;
        if (heat && heat.total > 0 && !code) {
          const share = heat.counts[sq] / heat.total;
          const shade = Math.min(8, Math.floor(share * 8.999));
          heatEl.style.background = share > 0 ? VIRIDIS[shade] : '';
          heatEl.textContent = share > 0 ? `${Math.round(share * 100)}` : '';
          heatEl.className = `heat ${shade >= DARK_SHADE ? 'dark' : ''}`;
        } else {
          heatEl.style.background = '';
          heatEl.textContent = '';
        }
        el.dataset.count = heat ? String(heat.counts[sq]) : '';
        const coord = el.children[2] as HTMLElement;
        // drawn by CSS from the attribute, not as text: the square's name is its label (a1, not "1a")
        coord.dataset.coord = (col === 0 ? String((sq >> 3) + 1) : '') + (row === 7 ? 'abcdefgh'[sq & 7] : '');
        el.classList.toggle('selected', sq === this.selected);
        el.classList.toggle('target', targets.has(sq));
        el.classList.toggle('hl', this.highlight.has(sq));
        el.classList.toggle('last', last.has(sq));
        el.classList.toggle('illegal', illegal.has(sq));
        el.classList.toggle('focus', sq === this.focusSquare);
        el.tabIndex = sq === this.focusSquare ? 0 : -1;
        const name = code ? `${pieceColor(code) ? 'black' : 'white'} ${TYPE_NAMES[pieceType(code)]}` : 'empty';
        el.setAttribute(
          'aria-label',
          `${makeSquare(sq)}, ${name}${ghost ? `, ghost ${TYPE_NAMES[ghost]}` : ''}${targets.has(sq) ? ', a target' : ''}${last.has(sq) ? ', your last move' : ''}${illegal.has(sq) ? ', Illegal' : ''}${heat && heat.total ? `, ${heat.counts[sq]} of ${heat.total} positions${heatEl.textContent ? `, ${heatEl.textContent}%` : ''}` : ''}`,
        );
        el.setAttribute('aria-selected', String(sq === this.selected));
      }
    board.dataset.hidden = String(hidden);
  }

  private heatShown(): { counts: number[]; total: number } | undefined {
    const belief = this.page.know.belief;
    if (!this.page.$<HTMLInputElement>('heat-on-board').checked || !belief) return undefined;
    const filter = this.page.$<HTMLSelectElement>('heat-piece').value as PieceFilter;
    return { counts: belief.heatmaps[filter], total: belief.positions };
  }

  private onSquare(sq: number, dragged: boolean): void {
    this.focusSquare = sq;
    const state = this.page.play.state;
    if (this.page.mode !== 'play' || !state) return this.render();
    const own = ownBoard(state.view).board;
    if (this.selected !== undefined && this.targets().has(sq)) {
      const from = this.selected;
      this.selected = undefined;
      const move = `${makeSquare(from)}${makeSquare(sq)}`;
      const promotions = state.attempts.filter((a) => a.length === 5 && a.startsWith(move)).map((a) => a[4]);
      this.render();
      if (promotions.length > 1) void this.askPromotion(move, promotions);
      else void this.page.play.attempt(`${move}${promotions[0] ?? ''}`);
      return;
    }
    if (dragged && this.selected !== undefined && this.selected !== sq && !own[sq]) {
      // a drop on a square your board does not offer: said, not silently ignored
      this.page.status(`${makeSquare(this.selected)}${makeSquare(sq)} is not possible on your board.`, 'error');
      this.selected = undefined;
    } else if (own[sq]) this.selected = dragged ? this.selected : sq === this.selected ? undefined : sq;
    else if (this.page.$<HTMLInputElement>('ghosts').checked && !dragged) {
      // cycle the ghost on an empty square: none → pawn → … → king → none
      const next = ((this.ghosts.get(sq) ?? 0) + 1) % 7;
      if (next) this.ghosts.set(sq, next);
      else this.ghosts.delete(sq);
    } else this.selected = undefined;
    this.render();
  }

  /** The promotion dialog: one button per piece the rules allow (Escape cancels the move); the focus comes back to the board. */
  private askPromotion(move: string, pieces: string[]): Promise<void> {
    const dialog = this.page.$<HTMLDialogElement>('promotion-dialog');
    const choices = this.page.$('promotion-choices');
    const white = this.orientation === 'white';
    return new Promise((resolve) => {
      const done = (piece: string | undefined) => {
        dialog.close();
        this.squareEls[this.focusSquare].focus();
        if (piece) void this.page.play.attempt(`${move}${piece}`);
        resolve();
      };
      choices.replaceChildren(
        ...['q', 'r', 'b', 'n']
          .filter((p) => pieces.includes(p))
          .map((p) => {
            const button = this.page.doc.createElement('button');
            button.type = 'button';
            button.dataset.piece = p;
            button.setAttribute('aria-label', PROMOTION_NAMES[p]);
            const glyph = this.page.doc.createElement('span');
            glyph.className = `piece ${white ? 'white' : 'black'}`;
            glyph.textContent = GLYPHS[' pnbrqk'.indexOf(p)];
            glyph.setAttribute('aria-hidden', 'true');
            button.append(glyph, PROMOTION_NAMES[p]);
            button.addEventListener('click', () => done(p));
            return button;
          }),
      );
      dialog.oncancel = (e) => {
        e.preventDefault();
        done(undefined);
      };
      dialog.showModal();
    });
  }
}
