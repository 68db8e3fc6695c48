// The web app's Play tab: a game against one of krieg's players in the game worker, the referee's
// transcript (grouped by move number), the material, the clocks (time used per side), the tray of
// the enemy men not yet taken, the attempts (from the board or typed as UCI), Resign, and a
// question before a running game is abandoned.
import { ownBoard } from '../../referee/ownBoard';
import { parseFen, pieceColor, pieceType } from '../../notation/fen';
import { makeSquare } from '../../notation/square';
import type { PresetName } from '../../record/rules';
import { other, type Side, type View, type ViewEvent } from '../../record/record';
import { PLAYER_HELP, PLAYER_OPTIONS } from '../../players/registry';
import type { GameState, Reply } from '../protocol';
import { GLYPHS, TYPE_NAMES } from './board';
import type { Page, PlayPart } from './page';
import { isMove } from '../../belief/describe';
import { END_TEXT, cap, clockText, enemyMen, errorSentence, moveNumberAt, plyCount, refereeSays } from './words';

export class PlayTab implements PlayPart {
  state: GameState | undefined;
  /** The human's side in the game being started or played (the opponent's turn may come before any state). */
  private side: Side = 'white';
  /** The clocks: milliseconds used per side, and the side whose clock runs (the side to move) since when. */
  private used: Record<Side, number> = { white: 0, black: 0 };
  private running: { side: Side; since: number } | undefined;
  /** Transcript: events shown, and the plies before the next one. */
  private shown = 0;
  private shownPlies = 0;

  constructor(private readonly page: Page) {}

  wire(on: (id: string, type: string, fn: (e: Event) => void) => void): void {
    on('new-game', 'click', () => void this.newGame());
    on('resign', 'click', () => void this.resign());
    on('opponent', 'change', () => this.describeOpponent());
    on('attempt-form', 'submit', (e) => {
      e.preventDefault();
      const input = this.page.$<HTMLInputElement>('attempt-text');
      const uci = input.value.trim().toLowerCase();
      input.value = '';
      if (uci) void this.attempt(uci);
    });
    on('ask-any', 'click', () => void this.askAny());
    // the transcript's move numbers: Know (the heatmap, the replay) after that move
    on('transcript', 'click', (e) => {
      const move = (e.target as HTMLElement).closest<HTMLElement>('button.see-ply')?.closest<HTMLElement>('li.move');
      if (move) this.seePly(Number(move.dataset.ply));
    });
    setInterval(() => this.tickClock(), 100);
    this.describeOpponent();
  }

  private describeOpponent(): void {
    const name = this.page.$<HTMLSelectElement>('opponent').value as keyof typeof PLAYER_HELP;
    const options = PLAYER_OPTIONS[name];
    this.page.$('opponent-help').textContent = `${PLAYER_HELP[name]}${
      options
        ? ` (options: ${Object.entries(options)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')})`
        : ''
    }`;
  }

  startFen(): string {
    return (
      this.page.$<HTMLInputElement>('start-fen').value.trim() ||
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    );
  }

  /** A running game, which a new game or another engine would abandon: asks first. */
  mayAbandon(): boolean {
    if (!this.state || this.state.over) return true;
    return this.page.doc.defaultView!.confirm('A game is in progress. Abandon it?');
  }

  async newGame(): Promise<void> {
    const { $, board, know } = this.page;
    if (!this.mayAbandon()) return;
    this.page.mode = 'play';
    board.highlight.clear();
    this.page.solve.problem = undefined;
    $('problem-label').textContent = 'the current belief (the game)';
    know.replay = undefined;
    board.ghosts.clear();
    know.belief = undefined;
    this.state = undefined;
    this.side = $<HTMLSelectElement>('side').value as Side;
    this.running = undefined;
    this.used = { white: 0, black: 0 };
    $('clock-note').textContent = '';
    delete $('app').dataset.followed;
    $('follow-note').textContent = '';
    $('transcript').replaceChildren();
    this.shown = 0;
    this.shownPlies = 0;
    $('result').textContent = '';
    $('replay').hidden = true;
    const seed = crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff;
    const start = $<HTMLInputElement>('start-fen').value.trim();
    this.page.status('Starting …');
    const reply = await this.page.gameWorker.send(
      {
        kind: 'new-game',
        game: {
          side: this.side,
          preset: $<HTMLSelectElement>('preset').value as PresetName,
          opponent: $<HTMLSelectElement>('opponent').value,
          timePerMove: Number($<HTMLInputElement>('time').value) || 1,
          seed,
          ...(start ? { start } : {}),
          tables: new URL('egtb/', this.page.doc.baseURI).href, // the opponent's tablebases (fetched when needed)
        },
      },
      (r) => this.onGameReply(r),
    );
    if (reply.kind === 'error') this.page.status(errorSentence(reply), 'error');
  }

  private onGameReply(reply: Reply): void {
    if (reply.kind === 'thinking') {
      this.runClock(other(this.side));
      this.page.status(`${cap(other(this.side))} is thinking …`, 'thinking');
      this.page.$('app').dataset.state = 'thinking';
    } else if (reply.kind === 'state') this.showState(reply.state);
    else if (reply.kind === 'error') this.page.status(errorSentence(reply), 'error');
  }

  private showState(state: GameState): void {
    const { $ } = this.page;
    const moved = state.view.events.length !== (this.state?.view.events.length ?? 0);
    this.state = state;
    this.runClock(state.over ? undefined : state.toMove);
    this.renderTranscript(state.view);
    $<HTMLButtonElement>('ask-any').hidden = !state.canAskAny;
    this.renderMaterial(state.view);
    this.renderTray(state.view);
    const mine = !state.over && state.toMove === state.view.as;
    const budget = Number($<HTMLInputElement>('time').value) || 1;
    $('clock-note').textContent =
      `${cap(other(this.side))} thinks ${budget} s a move${state.opponentMs !== undefined ? `; its last reply took ${(state.opponentMs / 1000).toFixed(1)} s` : ''}.`;
    $('app').dataset.state = state.over ? 'over' : mine ? 'your-move' : 'thinking';
    $('app').dataset.plies = String(plyCount(state.view));
    $('board').dataset.attempts = state.attempts.join(' ');
    if (state.over) {
      const reason = [...state.view.events].reverse().find((e) => 'percept' in e && e.percept?.end);
      const end = reason && 'percept' in reason ? reason.percept?.end : undefined;
      const winner = state.result === '1-0' ? 'White wins' : state.result === '0-1' ? 'Black wins' : '';
      const reasonText = state.resigned ? `${cap(state.view.as)} resigned` : end ? (END_TEXT[end] ?? end) : '';
      const text = `${winner && reasonText ? `${winner}: ${reasonText}` : winner || reasonText || 'Draw'} (${state.result})`;
      $('result').textContent = text;
      this.page.status(`Game over. ${text}. Reveal the board in Know.`, 'over');
      $<HTMLButtonElement>('reveal').disabled = false;
    } else if (mine)
      this.page.status(
        `Your move${state.last && state.last.answer !== 'legal' ? ` — ${state.last.answer === 'illegal' ? 'Illegal' : 'Nonsense'}, try again` : ''}.`,
        'your-move',
      );
    $<HTMLButtonElement>('resign').disabled = state.over;
    // the heatmap shown was of the last ply: cleared at once, and estimated afresh if it is looked at
    if (moved) this.page.know.gameMoved();
    this.page.board.render();
  }

  /** The referee's transcript: the events not yet shown, under their move numbers (1. …, 2. …). */
  private renderTranscript(view: View): void {
    const list = this.page.$('transcript');
    if (this.shown > view.events.length) {
      list.replaceChildren();
      this.shown = 0;
      this.shownPlies = 0;
    }
    for (; this.shown < view.events.length; this.shown++) {
      const event = view.events[this.shown];
      const number = moveNumberAt(view, this.shownPlies);
      let group = list.lastElementChild as HTMLLIElement | null;
      if (!group || group.value !== number) {
        group = this.page.doc.createElement('li');
        group.value = number;
        group.className = 'move';
        const see = this.page.doc.createElement('button');
        see.type = 'button';
        see.className = 'see-ply';
        see.textContent = 'Know';
        see.setAttribute('aria-label', `Know after move ${number}`);
        group.append(see, this.page.doc.createElement('ul'));
        list.append(group);
      }
      const li = this.page.doc.createElement('li');
      li.textContent = refereeSays(event, view.as);
      li.className = `event ${event.side === view.as ? 'mine' : 'theirs'}`;
      group.lastElementChild!.append(li);
      if (isMove(event)) this.shownPlies++;
      group.dataset.ply = String(this.shownPlies);
    }
    list.scrollTop = list.scrollHeight;
  }

  /** Know at `ply` of the game: the revealed record's replay once it is shown, else a replay of the player's view. */
  private seePly(ply: number): void {
    const { know, mode } = this.page;
    if (!this.state) return;
    if (mode === 'replay' && know.replay?.ofGame && know.replay.record) {
      this.page.showTab('know');
      void know.showReplayPly(ply);
    } else know.startReplay({ view: this.state.view, ofGame: true }, ply);
  }

  private async resign(): Promise<void> {
    if (!this.state || this.state.over) return;
    if (!this.page.doc.defaultView!.confirm('Resign this game?')) return;
    const reply = await this.page.gameWorker.send({ kind: 'resign' });
    if (reply.kind === 'state') this.showState(reply.state);
    else if (reply.kind === 'error') this.page.status(errorSentence(reply), 'error');
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
    this.page.$('material').textContent =
      `You lost: ${lost.join(' ') || 'nothing'}. You captured: ${taken.length} (${taken.map((e) => `${makeSquare(e.percept.capture!)}${e.percept.captured ? ` ${e.percept.captured}` : ''}`).join(', ') || '—'}).`;
  }

  /** Stops the clock running (its time added to its side's) and starts `side`'s, if any. */
  private runClock(side: Side | undefined): void {
    const now = performance.now();
    if (this.running) this.used[this.running.side] += now - this.running.since;
    this.running = side ? { side, since: now } : undefined;
  }

  /** The clocks as m:ss (written only when a second turns: a screen reader reads them when asked, not each tick). */
  private tickClock(): void {
    const now = performance.now();
    for (const side of ['white', 'black'] as const) {
      const runs = this.running?.side === side;
      const ms = this.used[side] + (runs ? now - this.running!.since : 0);
      const clock = this.page.$(`clock-${side}`);
      const parts: [string, string][] = [
        ['.who', `${cap(side)}${this.state && side === this.side ? ' (you)' : ''}`],
        ['.time', clockText(ms)],
        ['.runs', runs ? ', running' : ''],
      ];
      for (const [part, text] of parts) {
        const el = clock.querySelector<HTMLElement>(part)!;
        if (el.textContent !== text) el.textContent = text;
      }
      clock.classList.toggle('running', runs);
    }
  }

  /** The tray: the enemy men not yet taken, by type, from the material the player knows. */
  private renderTray(view: View): void {
    const { start, taken } = enemyMen(view);
    const color = view.as === 'white' ? 'black' : 'white';
    const doc = this.page.doc;
    const unsure = taken.piece + taken.unknown > 0;
    const men = [1, 2, 3, 4, 5, 6].map((type) => {
      const n = type === 1 ? start[1] - taken.pawn : start[type];
      const atMost = type === 6 ? false : type === 1 ? taken.unknown > 0 : unsure;
      const li = doc.createElement('li');
      li.dataset.type = TYPE_NAMES[type];
      li.dataset.count = String(n);
      const glyph = doc.createElement('span');
      glyph.className = `piece ${color}`;
      glyph.textContent = GLYPHS[type];
      const count = doc.createElement('span');
      count.textContent = `${atMost ? '≤' : '×'}${n}`;
      for (const el of [glyph, count]) el.setAttribute('aria-hidden', 'true');
      const said = doc.createElement('span');
      said.className = 'visually-hidden';
      said.textContent = `${atMost ? 'at most ' : ''}${n} ${TYPE_NAMES[type]}${n === 1 ? '' : 's'}`;
      li.append(glyph, count, said);
      return li;
    });
    this.page.$('tray-men').replaceChildren(...men);
    const all = taken.pawn + taken.piece + taken.unknown;
    const kinds = [
      taken.pawn ? `${taken.pawn} pawn${taken.pawn === 1 ? '' : 's'}` : '',
      taken.piece ? `${taken.piece} piece${taken.piece === 1 ? '' : 's'}` : '',
      taken.unknown ? `${taken.unknown} of a type not said` : '',
    ].filter(Boolean);
    const total = start.reduce((a, b) => a + b, 0);
    this.page.$('tray-note').textContent =
      `${total - all} of ${total} left; you took ${all}${kinds.length ? ` (${kinds.join(', ')})` : ''}. Promotions are not heard: a pawn may since be a piece.`;
  }

  async attempt(uci: string): Promise<void> {
    if (!this.state || this.state.over || this.state.toMove !== this.state.view.as) return;
    if (!this.state.attempts.includes(uci)) {
      this.page.status(`${uci} is not possible on your board.`, 'error');
      return;
    }
    const reply = await this.page.gameWorker.send({ kind: 'attempt', uci }, (r) => this.onGameReply(r));
    if (reply.kind === 'error') this.page.status(errorSentence(reply), 'error');
  }

  private async askAny(): Promise<void> {
    await this.page.gameWorker.send({ kind: 'any' }, (r) => this.onGameReply(r));
  }
}
