// The web app (host/web/index.html): play Kriegspiel against krieg's players, see what each side
// knew, search for forced mates, load and save games and problems. Everything runs in the page:
// the engine in three Web Workers (worker.ts: the game and replays; the belief estimates of the
// Know tab, which a newer view terminates; the solver, which Cancel may terminate), the problem database in sql.js loaded on demand. This file is the page's thread:
// the DOM, the human's view (never the true board while the game runs) and the messages.
import { ownBoard } from '../referee/ownBoard';
import { parseFen, pieceColor, pieceType } from '../notation/fen';
import { makeSquare } from '../notation/square';
import { makeRecordKpgn, makeViewKpgn, parseKpgn } from '../notation/kpgn';
import { parseRecordJson } from '../notation/recordJson';
import { PRESETS, PRESET_NAMES, parseRulesJson, type PresetName, type RuleSet } from '../record/rules';
import { directionNames, type Percept } from '../record/percept';
import { viewOf, type GameRecord, type Side, type View, type ViewEvent } from '../record/record';
import { pliesBefore } from '../belief/describe';
import { PLAYER_NAMES, PLAYER_HELP, PLAYER_OPTIONS } from '../players/registry';
import { ALGORITHM_CHOICES, AUTO } from '../solver/auto';
import { heardText, type StrategyNode, type Strategy } from '../solver/strategy';
import { PIECE_TYPES, type BeliefSummary, type PieceFilter } from './belief';
import type { BackendName, GameState, Replay, Reply, Request, SolveOutcome, SolveRequest } from './protocol';
import { openProblemDb, type BrowserDb } from './problemDb';

declare const __WORKER_SOURCE__: string;

/** The best algorithm for a single question (the CLI's default, docs/solver.md). */
const DEFAULT_ALGORITHM = AUTO; // the policy of bench:auto picks the algorithm for the belief
const OPPONENTS = PLAYER_NAMES.filter((name) => name !== 'human');
const GLYPHS = ['', '♟', '♞', '♝', '♜', '♛', '♚'];
const TYPE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const LETTERS = ' pnbrqk';
/** Viridis (colour-blind safe, sequential, light where few), from 0 to 1 of the positions. */
const VIRIDIS = ['#fde725', '#b5de2b', '#6ece58', '#35b779', '#1f9e89', '#26828e', '#31688e', '#3e4989', '#482878'];

type Request0 = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** A worker started from the bundled source (a Blob URL: works from file:// as well as http). */
class EngineWorker {
  private worker: Worker;
  private nextId = 1;
  private readonly listeners = new Map<number, (reply: Reply) => void>();
  backend: BackendName = 'wasm';

  constructor() {
    this.worker = EngineWorker.spawn();
    this.worker.onmessage = (event: MessageEvent<Reply>) => this.listeners.get(event.data.id)?.(event.data);
  }

  private static url: string | undefined;
  private static spawn(): Worker {
    EngineWorker.url ??= URL.createObjectURL(new Blob([__WORKER_SOURCE__], { type: 'text/javascript' }));
    return new Worker(EngineWorker.url);
  }

  /** Sends `request`; `onReply` hears every reply to it; resolves with the last (one of `final` kinds). */
  send(request: Request0, onReply?: (reply: Reply) => void): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.listeners.set(id, (reply) => {
        onReply?.(reply);
        if (
          !['thinking', 'progress'].includes(reply.kind) &&
          !(reply.kind === 'state' && onReply && !finalState(reply))
        ) {
          this.listeners.delete(id);
          resolve(reply);
        }
      });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  /** Stops whatever it is doing (a solve) and starts afresh on the same backend. */
  restart(): Promise<Reply> {
    this.worker.terminate();
    for (const listener of this.listeners.values()) listener({ id: 0, kind: 'error', message: 'cancelled' });
    this.listeners.clear();
    this.worker = EngineWorker.spawn();
    this.worker.onmessage = (event: MessageEvent<Reply>) => this.listeners.get(event.data.id)?.(event.data);
    return this.send({ kind: 'init', backend: this.backend });
  }
}

/** A state reply is final when the human is to move or the game is over (else the opponent's move follows). */
const finalState = (reply: Extract<Reply, { kind: 'state' }>) =>
  reply.state.over || reply.state.toMove === reply.state.view.as;

// ---- the referee's words ----

const END_TEXT: Record<string, string> = {
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  'draw-material': 'Draw: insufficient material',
  'draw-fifty': 'Draw: fifty moves without capture or pawn move',
  'draw-repetition': 'Draw: threefold repetition',
};

/** The announcements of a legal move, as the referee says them. */
function announcements(p: Percept): string[] {
  const said: string[] = [];
  if (p.capture !== undefined)
    said.push(
      `Capture at ${makeSquare(p.capture)}${p.captured ? ` (a ${p.captured})` : ''}${p.enPassant ? ', en passant' : ''}`,
    );
  if (p.directions) said.push(...directionNames(p.directions).map((d) => `Check: ${d.toLowerCase()}`));
  else if (p.check) said.push('Check');
  if (p.promotion) said.push('Promotion');
  if (p.end) said.push(END_TEXT[p.end] ?? p.end);
  return said;
}

const cap = (side: Side) => (side === 'white' ? 'White' : 'Black');

/** One view event in the referee's words, addressed to `you` (the player, in a game) or naming both sides (a replay). */
export function refereeSays(event: ViewEvent, you?: Side): string {
  const who = event.side === you ? 'You' : cap(event.side);
  switch (event.type) {
    case 'attempt': {
      if (event.percept.answer !== 'legal')
        return `${who} ${who === 'You' ? 'try' : 'tries'} ${event.attempt}: ${event.percept.answer === 'illegal' ? 'Illegal' : 'Nonsense'}`;
      return [
        `${who} ${who === 'You' ? 'play' : 'plays'} ${event.attempt}. ${cap(event.side)} has moved`,
        ...announcements(event.percept),
      ].join('. ');
    }
    case 'opponent-move': {
      const illegal = event.illegal ? ` after ${event.illegal} Illegal` : '';
      if (!event.percept) return `${who} is trying${illegal}`;
      return [`${who} has moved${illegal}`, ...announcements(event.percept)].join('. ');
    }
    case 'pawn-tries':
      if (event.count !== undefined)
        return `${cap(event.side)}: ${event.count === 0 ? 'no pawn tries' : `${event.count} pawn tr${event.count === 1 ? 'y' : 'ies'}`}`;
      if (event.exists !== undefined) return `${cap(event.side)}: ${event.exists ? 'Try!' : 'no pawn tries'}`;
      return `${cap(event.side)}: pawn tries ${event.squares?.length ? `at ${event.squares.map(makeSquare).join(', ')}` : 'none'}`;
    case 'any':
      return `${who === 'You' ? 'You ask' : `${who} asks`} "Any?": ${event.yes ? 'Yes' : 'No'}`;
  }
}

/** The view's first `plies` plies: every event before the (plies + 1)-th move. */
export function viewAtPly(view: View, plies: number): View {
  let end = view.events.length;
  for (let e = 0; e <= view.events.length; e++)
    if (pliesBefore(view, e) > plies) {
      end = e - 1;
      break;
    }
  return { ...view, events: view.events.slice(0, end) };
}

const plyCount = (view: View) => pliesBefore(view, view.events.length);

// ---- the page ----

interface Problem {
  label: string;
  positions?: string[];
  view?: View;
  rules?: RuleSet;
  ply?: number;
}

type BoardMode = 'play' | 'replay';

export class App {
  private readonly $: <T extends HTMLElement = HTMLElement>(id: string) => T;
  private readonly game = new EngineWorker();
  private readonly solver = new EngineWorker();
  /** Belief estimates: a worker of their own, so moves and reveals never wait behind one. */
  private readonly know = new EngineWorker();
  private state: GameState | undefined;
  private replay: { record?: GameRecord; view?: View; fens?: string[] } | undefined;
  private replayPly = 0;
  private replaySide: Side | 'true' = 'true';
  private mode: BoardMode = 'play';
  private selected: number | undefined;
  private focusSquare = 12;
  private ghosts = new Map<number, number>();
  private belief: BeliefSummary | undefined;
  private beliefFor: View | undefined;
  /** An estimate is running in the know worker (see refreshBelief). */
  private estimating = false;
  private problem: Problem | undefined;
  private solving = false;
  private thinkingSince: number | undefined;
  private turnSince = performance.now();
  private db: BrowserDb | undefined;
  private highlight = new Set<number>();
  /** Timing of the last handled click (ms from the event to its handler), for the responsiveness test. */
  lastClickDelay = 0;

  constructor(private readonly doc: Document) {
    this.$ = <T extends HTMLElement>(id: string) => {
      const el = doc.getElementById(id);
      if (!el) throw new Error(`krieg app: element #${id} missing`);
      return el as T;
    };
  }

  async start(): Promise<void> {
    this.fillControls();
    this.buildBoard();
    this.wire();
    const backend = this.$<HTMLSelectElement>('backend').value as BackendName;
    this.game.backend = this.solver.backend = this.know.backend = backend;
    await Promise.all([this.game, this.solver, this.know].map((w) => w.send({ kind: 'init', backend })));
    this.$('app').dataset.backend = backend;
    this.renderBoard();
    this.$('app').dataset.ready = 'true';
    performance.mark('krieg-interactive'); // bench/web.ts: load to first interactive
    this.status('Choose your colour, rules and opponent, then start a game.');
  }

  /** Fresh workers on `backend` (a game in progress ends: its engines were the other backend's). */
  private async setBackend(backend: BackendName): Promise<void> {
    this.game.backend = this.solver.backend = this.know.backend = backend;
    if (this.state && !this.state.over) this.status('The engine changed: start a new game.');
    this.state = undefined;
    this.$('app').dataset.state = '';
    this.estimating = false;
    await Promise.all([this.game.restart(), this.solver.restart(), this.know.restart()]);
    this.$('app').dataset.backend = backend;
    this.renderBoard();
  }

  // ---- controls ----

  private fillControls(): void {
    const options = (select: HTMLSelectElement, values: readonly string[], labels?: (v: string) => string) => {
      select.replaceChildren(
        ...values.map((v) => {
          const o = this.doc.createElement('option');
          o.value = v;
          o.textContent = labels ? labels(v) : v;
          return o;
        }),
      );
    };
    options(this.$('preset'), PRESET_NAMES);
    options(this.$('fen-preset'), PRESET_NAMES);
    options(this.$('opponent'), OPPONENTS, (name) => `${name} — ${PLAYER_HELP[name as keyof typeof PLAYER_HELP]}`);
    this.$<HTMLSelectElement>('opponent').value = 'krieg';
    options(this.$('heat-piece'), PIECE_TYPES);
    options(this.$('algorithm'), ALGORITHM_CHOICES);
    this.$<HTMLSelectElement>('algorithm').value = DEFAULT_ALGORITHM;
  }

  private wire(): void {
    const on = (id: string, type: string, fn: (e: Event) => void) => this.$(id).addEventListener(type, fn);
    for (const tab of Array.from(this.doc.querySelectorAll<HTMLButtonElement>('[role=tab]')))
      tab.addEventListener('click', (e: Event) => {
        this.lastClickDelay = performance.now() - e.timeStamp;
        this.showTab(tab.dataset.tab!);
      });
    on('new-game', 'click', () => void this.newGame());
    on('backend', 'change', () => void this.setBackend(this.$<HTMLSelectElement>('backend').value as BackendName));
    on('opponent', 'change', () => this.describeOpponent());
    on('attempt-form', 'submit', (e) => {
      e.preventDefault();
      const input = this.$<HTMLInputElement>('attempt-text');
      const uci = input.value.trim().toLowerCase();
      input.value = '';
      if (uci) void this.attempt(uci);
    });
    on('ask-any', 'click', () => void this.askAny());
    on('ghosts', 'change', () => this.renderBoard());
    on('clear-ghosts', 'click', () => {
      this.ghosts.clear();
      this.renderBoard();
    });
    on('heat-piece', 'change', () => this.renderKnow());
    on('heat-on-board', 'change', () => this.renderBoard());
    on('belief-refresh', 'click', () => void this.refreshBelief());
    on('replay-side', 'change', () => {
      this.replaySide = this.$<HTMLSelectElement>('replay-side').value as Side | 'true';
      void this.showReplayPly(this.replayPly);
    });
    on('replay-ply', 'input', () => void this.showReplayPly(Number(this.$<HTMLInputElement>('replay-ply').value)));
    on('replay-prev', 'click', () => void this.showReplayPly(this.replayPly - 1));
    on('replay-next', 'click', () => void this.showReplayPly(this.replayPly + 1));
    on('reveal', 'click', () => void this.reveal());
    on('solve', 'click', () => void this.solve());
    on('cancel', 'click', () => void this.cancelSolve());
    on('save-kpgn', 'click', () => this.save());
    on('file', 'change', () => {
      const file = this.$<HTMLInputElement>('file').files?.[0];
      if (file) void this.loadFile(file);
    });
    on('fen-use', 'click', () => this.useFens());
    on('db-shipped', 'click', () => void this.openShippedDb());
    on('db-ply', 'change', () => this.listInstances());
    on('db-class', 'change', () => this.listInstances());
    const drop = this.$('drop');
    drop.addEventListener('dragover', (e) => {
      e.preventDefault();
      drop.classList.add('over');
    });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const file = (e as DragEvent).dataTransfer?.files[0];
      if (file) void this.loadFile(file);
    });
    setInterval(() => this.tickClock(), 100);
    this.describeOpponent();
  }

  private describeOpponent(): void {
    const name = this.$<HTMLSelectElement>('opponent').value as keyof typeof PLAYER_HELP;
    const options = PLAYER_OPTIONS[name];
    this.$('opponent-help').textContent = `${PLAYER_HELP[name]}${
      options
        ? ` (options: ${Object.entries(options)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')})`
        : ''
    }`;
  }

  showTab(name: string): void {
    for (const tab of Array.from(this.doc.querySelectorAll<HTMLButtonElement>('[role=tab]'))) {
      const on = tab.dataset.tab === name;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      this.$(`panel-${tab.dataset.tab}`).hidden = !on;
    }
    this.$('app').dataset.tab = name;
    if (name === 'know' && this.mode === 'play') void this.refreshBelief();
  }

  private status(text: string, kind = ''): void {
    const el = this.$('status');
    el.textContent = text;
    el.dataset.kind = kind;
  }

  // ---- the board ----

  private squareEls: HTMLElement[] = [];

  private buildBoard(): void {
    const board = this.$('board');
    for (let sq = 0; sq < 64; sq++) {
      const el = this.doc.createElement('div');
      el.className = `sq ${(sq + (sq >> 3)) % 2 ? 'light' : 'dark'}`;
      el.dataset.square = makeSquare(sq);
      el.setAttribute('role', 'gridcell');
      el.tabIndex = -1;
      el.innerHTML = '<span class="heat"></span><span class="piece"></span><span class="coord"></span>';
      this.squareEls.push(el);
    }
    board.addEventListener('pointerdown', (e) => {
      const sq = this.squareAt(e);
      if (sq === undefined) return;
      this.lastClickDelay = performance.now() - e.timeStamp;
      this.pointerFrom = sq;
      this.onSquare(sq, false);
    });
    board.addEventListener('pointerup', (e) => {
      const sq = this.squareAt(e);
      if (sq !== undefined && this.pointerFrom !== undefined && sq !== this.pointerFrom) this.onSquare(sq, true);
      this.pointerFrom = undefined;
    });
    board.addEventListener('keydown', (e) => this.onKey(e));
  }
  private pointerFrom: number | undefined;

  private squareAt(e: PointerEvent): number | undefined {
    // the square under the pointer (a touch's events all target the square it started on)
    const under = this.doc.elementFromPoint(e.clientX, e.clientY) ?? (e.target as Element | null);
    const target = under?.closest<HTMLElement>('.sq');
    const index = target ? this.squareEls.indexOf(target) : -1;
    return index >= 0 ? index : undefined;
  }

  private get orientation(): Side {
    if (this.mode === 'replay') return this.replaySide === 'black' ? 'black' : 'white';
    return this.state?.view.as ?? (this.$<HTMLSelectElement>('side').value as Side);
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
        this.renderBoard();
        this.squareEls[next].focus();
      }
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.onSquare(this.focusSquare, false);
      e.preventDefault();
    } else if (e.key === 'Escape') {
      this.selected = undefined;
      this.renderBoard();
    }
  }

  /** The player's own pieces now (play) or the board shown at the replay's ply. */
  private boardShown(): { board: number[]; hidden: boolean } {
    if (this.mode === 'replay' && this.replay) {
      if (this.replaySide === 'true' && this.replay.fens)
        return { board: parseFen(this.replay.fens[this.replayPly]).board, hidden: false };
      const view = this.replayView();
      return { board: view ? ownBoard(view).board : new Array(64).fill(0), hidden: true };
    }
    if (this.state) return { board: ownBoard(this.state.view).board, hidden: true };
    const side = this.$<HTMLSelectElement>('side').value === 'black' ? 1 : 0;
    return { board: parseFen(this.startFen()).board.map((c) => (c && pieceColor(c) === side ? c : 0)), hidden: true };
  }

  private targets(): Set<number> {
    if (this.mode !== 'play' || this.selected === undefined || !this.state) return new Set();
    const from = makeSquare(this.selected);
    return new Set(this.state.attempts.filter((a) => a.startsWith(from)).map((a) => this.squareIndex(a.slice(2, 4))));
  }

  private squareIndex = (name: string) => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);

  renderBoard(): void {
    const board = this.$('board');
    const black = this.orientation === 'black';
    const { board: pieces, hidden } = this.boardShown();
    const targets = this.targets();
    const heat = this.heatShown();
    const showGhosts = this.mode === 'play' && this.$<HTMLInputElement>('ghosts').checked;
    const order: HTMLElement[] = [];
    for (let row = 0; row < 8; row++)
      for (let col = 0; col < 8; col++) {
        const sq = black ? row * 8 + (7 - col) : (7 - row) * 8 + col;
        order.push(this.squareEls[sq]);
        const el = this.squareEls[sq];
        const code = pieces[sq];
        const pieceEl = el.children[1] as HTMLElement;
        const ghost = showGhosts && !code ? this.ghosts.get(sq) : undefined;
        pieceEl.textContent = code ? GLYPHS[pieceType(code)] : ghost ? GLYPHS[ghost] : '';
        pieceEl.className = `piece ${code ? (pieceColor(code) ? 'black' : 'white') : ghost ? `ghost ${this.enemy()}` : ''}`;
        el.dataset.piece = code ? `${pieceColor(code) ? 'b' : 'w'}${LETTERS[pieceType(code)].toUpperCase()}` : '';
        const heatEl = el.children[0] as HTMLElement;
        if (heat && heat.total > 0 && !code) {
          const share = heat.counts[sq] / heat.total;
          heatEl.style.background = share > 0 ? VIRIDIS[Math.min(8, Math.floor(share * 8.999))] : '';
          heatEl.textContent = share > 0 ? `${Math.round(share * 100)}` : '';
          heatEl.className = `heat ${share > 0.55 ? 'dark' : ''}`;
        } else {
          heatEl.style.background = '';
          heatEl.textContent = '';
        }
        el.dataset.count = heat ? String(heat.counts[sq]) : '';
        const coord = el.children[2] as HTMLElement;
        coord.textContent = (col === 0 ? String((sq >> 3) + 1) : '') + (row === 7 ? 'abcdefgh'[sq & 7] : '');
        el.classList.toggle('selected', sq === this.selected);
        el.classList.toggle('target', targets.has(sq));
        el.classList.toggle('hl', this.highlight.has(sq));
        el.classList.toggle('focus', sq === this.focusSquare);
        el.tabIndex = sq === this.focusSquare ? 0 : -1;
        const name = code ? `${pieceColor(code) ? 'black' : 'white'} ${TYPE_NAMES[pieceType(code)]}` : 'empty';
        el.setAttribute(
          'aria-label',
          `${makeSquare(sq)}, ${name}${ghost ? `, ghost ${TYPE_NAMES[ghost]}` : ''}${heat && heat.total ? `, ${heat.counts[sq]} of ${heat.total} positions` : ''}`,
        );
      }
    board.replaceChildren(...order);
    board.dataset.hidden = String(hidden);
  }

  private enemy(): Side {
    return (this.state?.view.as ?? 'white') === 'white' ? 'black' : 'white';
  }

  private heatShown(): { counts: number[]; total: number } | undefined {
    if (!this.$<HTMLInputElement>('heat-on-board').checked || !this.belief) return undefined;
    const filter = this.$<HTMLSelectElement>('heat-piece').value as PieceFilter;
    return { counts: this.belief.heatmaps[filter], total: this.belief.positions };
  }

  private onSquare(sq: number, dragged: boolean): void {
    this.focusSquare = sq;
    if (this.mode !== 'play' || !this.state) return this.renderBoard();
    const own = ownBoard(this.state.view).board;
    if (this.selected !== undefined && this.targets().has(sq)) {
      const from = this.selected;
      this.selected = undefined;
      const move = `${makeSquare(from)}${makeSquare(sq)}`;
      const chosen = this.$<HTMLSelectElement>('promotion').value;
      // a promotion takes the piece chosen in "Promote to" when the rules allow it, else the first they allow
      const promotions = this.state.attempts.filter((a) => a.length === 5 && a.startsWith(move)).map((a) => a[4]);
      const promo =
        (own[from] & 7) === 1 && (sq >> 3 === 7 || sq >> 3 === 0)
          ? promotions.includes(chosen) || !promotions.length
            ? chosen
            : promotions[0]
          : '';
      void this.attempt(`${move}${promo}`);
      return;
    }
    if (own[sq]) this.selected = dragged ? this.selected : sq === this.selected ? undefined : sq;
    else if (this.$<HTMLInputElement>('ghosts').checked && !dragged) {
      // cycle the ghost on an empty square: none → pawn → … → king → none
      const next = ((this.ghosts.get(sq) ?? 0) + 1) % 7;
      if (next) this.ghosts.set(sq, next);
      else this.ghosts.delete(sq);
    } else this.selected = undefined;
    this.renderBoard();
  }

  // ---- play ----

  private startFen(): string {
    return (
      this.$<HTMLInputElement>('start-fen').value.trim() || 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    );
  }

  async newGame(): Promise<void> {
    this.mode = 'play';
    this.highlight.clear();
    this.problem = undefined;
    this.$('problem-label').textContent = 'the current belief (the game)';
    this.replay = undefined;
    this.ghosts.clear();
    this.belief = undefined;
    this.state = undefined;
    this.$('transcript').replaceChildren();
    this.$('result').textContent = '';
    this.$('replay').hidden = true;
    const seed = crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff;
    const start = this.$<HTMLInputElement>('start-fen').value.trim();
    this.status('Starting …');
    const reply = await this.game.send(
      {
        kind: 'new-game',
        game: {
          side: this.$<HTMLSelectElement>('side').value as Side,
          preset: this.$<HTMLSelectElement>('preset').value as PresetName,
          opponent: this.$<HTMLSelectElement>('opponent').value,
          timePerMove: Number(this.$<HTMLInputElement>('time').value) || 1,
          seed,
          ...(start ? { start } : {}),
        },
      },
      (r) => this.onGameReply(r),
    );
    if (reply.kind === 'error') this.status(reply.message, 'error');
  }

  private onGameReply(reply: Reply): void {
    if (reply.kind === 'thinking') {
      this.thinkingSince = performance.now();
      this.status(`${cap(this.enemy())} is thinking …`, 'thinking');
      this.$('app').dataset.state = 'thinking';
    } else if (reply.kind === 'state') this.showState(reply.state);
    else if (reply.kind === 'error') this.status(reply.message, 'error');
  }

  private showState(state: GameState): void {
    const before = this.state?.view.events.length ?? 0;
    this.state = state;
    this.thinkingSince = undefined;
    const list = this.$('transcript');
    if (before > state.view.events.length) list.replaceChildren();
    for (const event of state.view.events.slice(Math.min(before, list.childElementCount))) {
      const li = this.doc.createElement('li');
      li.textContent = refereeSays(event, state.view.as);
      li.className = event.side === state.view.as ? 'mine' : 'theirs';
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
    this.$<HTMLButtonElement>('ask-any').hidden = !state.canAskAny;
    this.renderMaterial(state.view);
    const mine = !state.over && state.toMove === state.view.as;
    if (mine) this.turnSince = performance.now();
    this.$('app').dataset.state = state.over ? 'over' : mine ? 'your-move' : 'thinking';
    this.$('app').dataset.plies = String(plyCount(state.view));
    this.$('board').dataset.attempts = state.attempts.join(' ');
    if (state.over) {
      const reason = [...state.view.events].reverse().find((e) => 'percept' in e && e.percept?.end);
      const end = reason && 'percept' in reason ? reason.percept?.end : undefined;
      const winner = state.result === '1-0' ? 'White wins' : state.result === '0-1' ? 'Black wins' : '';
      const reasonText = end ? (END_TEXT[end] ?? end) : '';
      const text = `${winner && reasonText ? `${winner}: ${reasonText}` : winner || reasonText || 'Draw'} (${state.result})`;
      this.$('result').textContent = text;
      this.status(`Game over. ${text}. Reveal the board in Know.`, 'over');
      this.$<HTMLButtonElement>('reveal').disabled = false;
    } else if (mine)
      this.status(
        `Your move${state.last && state.last.answer !== 'legal' ? ` — ${state.last.answer === 'illegal' ? 'Illegal' : 'Nonsense'}, try again` : ''}.`,
        'your-move',
      );
    this.renderBoard();
    if (!this.$('panel-know').hidden) void this.refreshBelief();
  }

  private renderMaterial(view: View): void {
    const start = parseFen(view.start).board;
    const now = ownBoard(view).board;
    const color = view.as === 'white' ? 0 : 1;
    const lost: string[] = [];
    for (let type = 1; type <= 5; type++) {
      const count = (b: number[]) => b.filter((c) => c && pieceColor(c) === color && pieceType(c) === type).length;
      for (let n = count(start) - count(now); n > 0; n--) lost.push(GLYPHS[type]);
    }
    const taken = view.events.filter(
      (e): e is Extract<ViewEvent, { type: 'attempt' }> =>
        e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal' && e.percept.capture !== undefined,
    );
    this.$('material').textContent =
      `You lost: ${lost.join(' ') || 'nothing'}. You captured: ${taken.length} (${taken.map((e) => `${makeSquare(e.percept.capture!)}${e.percept.captured ? ` ${e.percept.captured}` : ''}`).join(', ') || '—'}).`;
  }

  private tickClock(): void {
    const clock = this.$('clock');
    if (this.thinkingSince !== undefined) {
      const budget = Number(this.$<HTMLInputElement>('time').value) || 1;
      clock.textContent = `${cap(this.enemy())} thinking: ${((performance.now() - this.thinkingSince) / 1000).toFixed(1)} s of ${budget} s`;
    } else if (this.state && !this.state.over && this.state.toMove === this.state.view.as) {
      clock.textContent = `Your time: ${((performance.now() - this.turnSince) / 1000).toFixed(1)} s${this.state.opponentMs !== undefined ? ` · last reply took ${(this.state.opponentMs / 1000).toFixed(2)} s` : ''}`;
    } else clock.textContent = '';
  }

  async attempt(uci: string): Promise<void> {
    if (!this.state || this.state.over || this.state.toMove !== this.state.view.as) return;
    if (!this.state.attempts.includes(uci)) {
      this.status(`${uci} is not possible on your board.`, 'error');
      return;
    }
    const reply = await this.game.send({ kind: 'attempt', uci }, (r) => this.onGameReply(r));
    if (reply.kind === 'error') this.status(reply.message, 'error');
  }

  private async askAny(): Promise<void> {
    await this.game.send({ kind: 'any' }, (r) => this.onGameReply(r));
  }

  // ---- know ----

  private currentView(): View | undefined {
    return this.mode === 'replay' ? this.replayView() : this.state?.view;
  }

  private async refreshBelief(): Promise<void> {
    const view = this.currentView();
    if (!view) return this.renderKnow();
    if (this.beliefFor === view) return this.renderKnow();
    this.beliefFor = view;
    this.$('belief-size').textContent = 'estimating …';
    delete this.$('know-data').dataset.heatmap; // the last view's numbers are not this one's
    // A newer view cancels the running estimate (a whole long game's may take seconds) rather than
    // queueing behind it: a slider dragged across a game asks for many.
    if (this.estimating) await this.know.restart();
    if (this.beliefFor !== view) return; // newer still: that request runs
    this.estimating = true;
    const reply = await this.know.send({ kind: 'belief', view });
    if (this.beliefFor !== view) return; // cancelled for a newer one
    this.estimating = false;
    if (reply.kind === 'belief') this.belief = reply.belief;
    else if (reply.kind === 'error') this.$('belief-size').textContent = reply.message;
    this.renderKnow();
    this.renderBoard();
  }

  private renderKnow(): void {
    const b = this.belief;
    const know = this.$('know-data');
    if (!b) {
      know.dataset.positions = '';
      return;
    }
    this.$('belief-size').textContent = b.exact
      ? `${b.positions} position${b.positions === 1 ? '' : 's'} (exact)`
      : `too large to list in time: ${b.positions} positions of the tracker's pool, each consistent with everything heard (${b.outcome})`;
    know.dataset.positions = String(b.positions);
    know.dataset.exact = String(b.exact);
    const filter = this.$<HTMLSelectElement>('heat-piece').value as PieceFilter;
    know.dataset.heatmap = b.heatmaps[filter].join(',');
    know.dataset.filter = filter;
    const list = this.$('samples');
    list.replaceChildren(
      ...b.samples.map((fen) => {
        const li = this.doc.createElement('li');
        li.textContent = fen;
        return li;
      }),
    );
    this.$('heat-legend').textContent =
      `${b.enemy === 'white' ? 'White' : 'Black'} ${filter === 'all' ? 'pieces' : `${filter}s`}: the number in a square is the share (%) of the ${b.positions} positions with one there.`;
    this.renderBoard();
  }

  private async reveal(): Promise<void> {
    const reply = await this.game.send({ kind: 'reveal' });
    if (reply.kind === 'replay') this.startReplay(reply.replay);
  }

  private startReplay(replay: Partial<Replay> & { view?: View }): void {
    this.replay = replay;
    this.mode = 'replay';
    this.highlight.clear();
    this.selected = undefined;
    this.status(
      replay.record
        ? 'Replay: the true board, or either side’s view, ply by ply (Know).'
        : `Replay of ${cap(replay.view!.as)}'s view, ply by ply (Know).`,
    );
    this.replaySide = replay.record ? 'true' : replay.view!.as;
    const side = this.$<HTMLSelectElement>('replay-side');
    for (const option of Array.from(side.options)) option.disabled = !replay.record && option.value !== replay.view?.as;
    side.value = this.replaySide;
    const plies = replay.record ? (replay.fens?.length ?? 1) - 1 : plyCount(replay.view!);
    const slider = this.$<HTMLInputElement>('replay-ply');
    slider.max = String(plies);
    this.$('replay').hidden = false;
    this.showTab('know');
    void this.showReplayPly(plies);
  }

  private replayView(): View | undefined {
    if (!this.replay) return undefined;
    const side: Side = this.replaySide === 'true' ? 'white' : this.replaySide;
    const view = this.replay.record ? viewOf(this.replay.record, side) : this.replay.view!;
    return viewAtPly(view, this.replayPly);
  }

  private async showReplayPly(ply: number): Promise<void> {
    const slider = this.$<HTMLInputElement>('replay-ply');
    this.replayPly = Math.max(0, Math.min(Number(slider.max), ply));
    slider.value = String(this.replayPly);
    this.$('replay-label').textContent = `ply ${this.replayPly} of ${slider.max}`;
    this.$('replay').dataset.ply = String(this.replayPly);
    const view = this.replayView();
    this.$('replay-events').replaceChildren(
      ...(view?.events.slice(-4) ?? []).map((e) => {
        const li = this.doc.createElement('li');
        li.textContent = refereeSays(e);
        return li;
      }),
    );
    this.belief = undefined;
    this.renderBoard();
    if (this.replaySide !== 'true') await this.refreshBelief();
    else this.renderKnow();
  }

  // ---- solve ----

  private solveProblem(): SolveRequest | undefined {
    const ply = Number(this.$<HTMLSelectElement>('ply').value);
    const algorithm = this.$<HTMLSelectElement>('algorithm').value;
    const nodes = Number(this.$<HTMLInputElement>('solve-nodes').value) || undefined;
    if (this.problem?.positions)
      return { positions: this.problem.positions, rules: this.problem.rules, ply, algorithm, nodes };
    const view = this.problem?.view ?? this.currentView();
    if (!view) return undefined;
    return { view, ply, algorithm, nodes };
  }

  async solve(): Promise<void> {
    const problem = this.solveProblem();
    if (!problem) {
      this.$('solve-answer').textContent = 'Nothing to solve yet: play a game, load a record or a problem.';
      return;
    }
    this.solving = true;
    this.$('app').dataset.solving = 'true';
    this.$<HTMLButtonElement>('solve').disabled = true;
    this.$<HTMLButtonElement>('cancel').disabled = false;
    this.$('solve-tree').replaceChildren();
    this.$('solve-answer').textContent = '';
    this.$('solve-answer').dataset.answer = '';
    const progress = this.$('solve-progress');
    progress.textContent = 'searching …';
    const reply = await this.solver.send({ kind: 'solve', problem }, (r) => {
      if (r.kind === 'progress')
        progress.textContent = `${r.stats.nodes.toLocaleString('en-US')} belief nodes, ${r.stats.positions.toLocaleString('en-US')} positions, ${(r.stats.ms / 1000).toFixed(1)} s`;
    });
    this.solving = false;
    this.$('app').dataset.solving = 'false';
    this.$<HTMLButtonElement>('solve').disabled = false;
    this.$<HTMLButtonElement>('cancel').disabled = true;
    if (reply.kind === 'solved') this.showSolved(reply.outcome, problem.ply);
    else if (reply.kind === 'error') {
      progress.textContent = '';
      this.$('solve-answer').textContent = reply.message === 'cancelled' ? 'Cancelled.' : reply.message;
      this.$('solve-answer').dataset.answer = reply.message === 'cancelled' ? 'cancelled' : 'error';
    }
  }

  private async cancelSolve(): Promise<void> {
    if (!this.solving) return;
    await this.solver.restart();
  }

  private showSolved(outcome: SolveOutcome, ply: number): void {
    const s = outcome.stats;
    this.$('solve-progress').textContent =
      `${outcome.positions} position${outcome.positions === 1 ? '' : 's'} searched: ${s.nodes.toLocaleString('en-US')} belief nodes in ${(s.ms / 1000).toFixed(2)} s.`;
    const answer = this.$('solve-answer');
    answer.dataset.answer = outcome.answer;
    answer.textContent =
      outcome.answer === 'proven'
        ? `Yes: a forced mate within ${ply} plies, whatever the opponent's pieces and moves. The strategy:`
        : outcome.answer === 'disproven'
          ? `No: there is no forced mate within ${ply} plies on this belief state.`
          : `Unknown: the search stopped at its ${outcome.limit ?? ''} limit before an answer.`;
    if (outcome.strategy) this.$('solve-tree').replaceChildren(this.strategyTree(outcome.strategy));
  }

  /** The strategy as nested <details>: attempt → answers → the opponent's replies → next attempt. */
  private strategyTree(strategy: Strategy): HTMLElement {
    const them = strategy.side === 'white' ? 'Black' : 'White';
    const node = (n: StrategyNode, depth: number): HTMLElement => {
      const details = this.doc.createElement('details');
      details.open = depth < 2;
      details.className = 'node';
      const summary = this.doc.createElement('summary');
      summary.textContent = `try ${n.attempt}`;
      summary.dataset.attempt = n.attempt;
      const light = () => {
        this.highlight = new Set([this.squareIndex(n.attempt.slice(0, 2)), this.squareIndex(n.attempt.slice(2, 4))]);
        this.renderBoard();
      };
      summary.addEventListener('mouseenter', light);
      summary.addEventListener('focus', light);
      summary.addEventListener('click', light);
      details.append(summary);
      const ul = this.doc.createElement('ul');
      for (const b of n.answers) {
        const li = this.doc.createElement('li');
        const heard = `if ${heardText(b.heard)}`;
        if ('won' in b) li.textContent = `${heard}: mate`;
        else if ('next' in b) {
          li.textContent = `${heard}:`;
          li.append(node(b.next, depth + 1));
        } else {
          li.textContent = `${heard}: ${them} moves, then`;
          const replies = this.doc.createElement('ul');
          for (const r of b.replies) {
            const rl = this.doc.createElement('li');
            rl.textContent = `if ${heardText(r.heard)}:`;
            rl.append(node(r.next, depth + 1));
            replies.append(rl);
          }
          li.append(replies);
        }
        ul.append(li);
      }
      details.append(ul);
      return details;
    };
    return node(strategy.root, 0);
  }

  // ---- load and save ----

  private async loadFile(file: File): Promise<void> {
    const note = this.$('load-note');
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (new TextDecoder('latin1').decode(bytes.subarray(0, 15)) === 'SQLite format 3') {
        await this.openDb(bytes, file.name);
        return;
      }
      const text = new TextDecoder().decode(bytes);
      this.loadText(text, file.name);
    } catch (error) {
      note.textContent = `${file.name}: ${error instanceof Error ? error.message : String(error)}`;
      note.dataset.kind = 'error';
    }
  }

  loadText(text: string, name: string): void {
    // JSON opens with { or [{; KPGN with a [Tag "…"] line
    const parsed = /^\s*(\{|\[\s*\{)/.test(text) ? parseRecordJson(text) : parseKpgn(text);
    this.problem = undefined;
    const note = this.$('load-note');
    note.dataset.kind = 'ok';
    if (parsed.kind === 'record') {
      note.textContent = `${name}: a game record, ${parsed.record.white} v ${parsed.record.black}, ${parsed.record.result}.`;
      void this.game.send({ kind: 'replay', record: parsed.record }).then((reply) => {
        if (reply.kind === 'replay') this.startReplay(reply.replay);
        else if (reply.kind === 'error') note.textContent = `${name}: ${reply.message}`;
      });
    } else {
      note.textContent = `${name}: ${cap(parsed.view.as)}'s view of ${parsed.view.white} v ${parsed.view.black}.`;
      this.startReplay({ view: parsed.view });
    }
  }

  /** The KPGN to save: the finished game's record, the running game's view, or what was loaded. */
  kpgnToSave(): string | undefined {
    if (this.mode === 'replay' && this.replay?.record) return makeRecordKpgn(this.replay.record);
    if (this.mode === 'replay' && this.replay?.view) return makeViewKpgn(this.replay.view);
    if (this.state) return makeViewKpgn(this.state.view);
    return undefined;
  }

  private save(): void {
    const text = this.kpgnToSave();
    if (text === undefined) {
      this.$('load-note').textContent = 'Nothing to save yet.';
      return;
    }
    const a = this.doc.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-kriegspiel-pgn' }));
    a.download = this.replay?.record ? 'game.kpgn' : 'view.kpgn';
    this.doc.body.append(a);
    a.click();
    a.remove();
  }

  private useFens(): void {
    const fens = this.$<HTMLTextAreaElement>('fen-set')
      .value.split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const note = this.$('load-note');
    if (fens.length === 0) {
      note.textContent = 'Give one FEN per line.';
      return;
    }
    try {
      fens.forEach((f) => parseFen(f));
    } catch (error) {
      note.textContent = error instanceof Error ? error.message : String(error);
      note.dataset.kind = 'error';
      return;
    }
    const preset = this.$<HTMLSelectElement>('fen-preset').value as PresetName;
    this.setProblem({
      label: `${fens.length} FEN${fens.length === 1 ? '' : 's'} (${preset} rules)`,
      positions: fens,
      rules: PRESETS[preset],
    });
  }

  private setProblem(problem: Problem): void {
    this.problem = problem;
    this.$('problem-label').textContent = problem.label;
    if (problem.ply) this.$<HTMLSelectElement>('ply').value = String(problem.ply);
    if (problem.view) this.startReplay({ view: problem.view });
    this.showTab('solve');
  }

  private async openShippedDb(): Promise<void> {
    const note = this.$('load-note');
    note.textContent = 'loading the problem database …';
    try {
      const response = await fetch('problems.sqlite');
      if (!response.ok) throw new Error(`problems.sqlite: HTTP ${response.status} (serve the page with npm run web)`);
      await this.openDb(new Uint8Array(await response.arrayBuffer()), 'problems.sqlite');
    } catch (error) {
      note.textContent = error instanceof Error ? error.message : String(error);
      note.dataset.kind = 'error';
    }
  }

  private async openDb(bytes: Uint8Array, name: string): Promise<void> {
    this.db = await openProblemDb(bytes, name);
    const counts = this.db.counts();
    const plies = [...new Set(counts.map((c) => c.ply))];
    const select = this.$<HTMLSelectElement>('db-ply');
    select.replaceChildren(
      new Option('any ply', ''),
      ...plies.map(
        (p) =>
          new Option(
            `${p} plies (${counts
              .filter((c) => c.ply === p)
              .map((c) => `${c.count} ${c.cls}`)
              .join(', ')})`,
            String(p),
          ),
      ),
    );
    this.$('db').hidden = false;
    this.$('load-note').textContent = `${name}: ${counts.reduce((n, c) => n + c.count, 0)} instances.`;
    this.listInstances();
  }

  private listInstances(): void {
    if (!this.db) return;
    const ply = this.$<HTMLSelectElement>('db-ply').value;
    const cls = this.$<HTMLSelectElement>('db-class').value;
    const rows = this.db.summaries({ ...(ply ? { ply: Number(ply) } : {}), ...(cls ? { cls } : {}) }).slice(0, 200);
    const body = this.$('db-rows');
    body.replaceChildren(
      ...rows.map((r) => {
        const tr = this.doc.createElement('tr');
        tr.dataset.id = String(r.id);
        for (const v of [r.id, r.ply, r.cls, r.beliefSize, r.rules, r.cutPly]) {
          const td = this.doc.createElement('td');
          td.textContent = String(v);
          tr.append(td);
        }
        const td = this.doc.createElement('td');
        const open = this.doc.createElement('button');
        open.textContent = 'open';
        open.type = 'button';
        open.setAttribute('aria-label', `open instance ${r.id}`);
        open.addEventListener('click', () => this.openInstance(r.id));
        td.append(open);
        tr.append(td);
        return tr;
      }),
    );
  }

  private openInstance(id: number): void {
    let row: ReturnType<BrowserDb['instance']>;
    try {
      row = this.db!.instance(id);
    } catch (error) {
      // a damaged row (host/db/rows.ts): its one line, where the database's name is shown
      const note = this.$('load-note');
      note.textContent = error instanceof Error ? error.message : String(error);
      note.dataset.kind = 'error';
      return;
    }
    const view = parseRecordJson(row.viewJson);
    this.setProblem({
      label: `instance ${id}: ${row.cls} in ${row.ply} plies, White's belief of ${row.positions.length} positions`,
      positions: row.positions,
      rules: parseRulesJson(row.rulesJson),
      ply: row.ply,
      ...(view.kind === 'view' ? { view: view.view } : {}),
    });
  }
}

export async function mountApp(doc: Document = document): Promise<App> {
  const app = new App(doc);
  (globalThis as unknown as { kriegApp: App }).kriegApp = app;
  await app.start();
  return app;
}
