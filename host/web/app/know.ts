// The web app's Know tab: the belief state of the view shown (estimated in the know worker; a newer
// view cancels a running estimate), its heatmap and samples, and the replay of a finished game or a
// loaded record or view, ply by ply, as the true board or either side's view. While a game is
// played, the know worker follows it in the background (unless "Follow the game" is unticked, or
// the page's address says ?follow=0, as the browser tests do), so Know answers at once at any ply.
import { viewOf, type Side, type View } from '../../record/record';
import type { BeliefSummary, PieceFilter } from '../belief';
import type { KnowPart, Page, Replaying } from './page';
import { cap, errorSentence, plyCount, refereeSays, viewAtPly } from './words';
import { beliefQuery, showTablebase } from './egtb';

export class KnowTab implements KnowPart {
  replay: Replaying | undefined;
  replayPly = 0;
  replaySide: Side | 'true' = 'true';
  belief: BeliefSummary | undefined;
  private beliefFor: View | undefined;
  /** The belief the tablebase line was asked for. */
  private tableFor: BeliefSummary | undefined;
  estimating = false;

  constructor(private readonly page: Page) {}

  wire(on: (id: string, type: string, fn: (e: Event) => void) => void): void {
    on('heat-piece', 'change', () => this.renderKnow());
    on('belief-refresh', 'click', () => void this.refreshBelief());
    on('replay-side', 'change', () => {
      this.replaySide = this.page.$<HTMLSelectElement>('replay-side').value as Side | 'true';
      void this.showReplayPly(this.replayPly);
    });
    on('replay-ply', 'input', () => void this.showReplayPly(Number(this.page.$<HTMLInputElement>('replay-ply').value)));
    on('replay-prev', 'click', () => void this.showReplayPly(this.replayPly - 1));
    on('replay-next', 'click', () => void this.showReplayPly(this.replayPly + 1));
    on('reveal', 'click', () => void this.reveal());
    on('know-follow', 'change', () => void this.follow());
  }

  currentView(): View | undefined {
    return this.page.mode === 'replay' ? this.replayView() : this.page.play.state?.view;
  }

  async refreshBelief(): Promise<void> {
    const view = this.currentView();
    if (!view) return this.renderKnow();
    if (this.beliefFor === view) return this.renderKnow();
    this.beliefFor = view;
    const size = this.page.$('belief-size');
    size.textContent = 'tracking …';
    delete this.page.$('know-data').dataset.heatmap; // the last view's numbers are not this one's
    // The Know worker's tracker of this side takes the events it has not had (a newer view
    // supersedes this request there; the tracker keeps what it was fed).
    this.estimating = true;
    const reply = await this.page.knowWorker.send({ kind: 'belief', view }, (r) => {
      if (r.kind === 'tracking' && this.beliefFor === view)
        size.textContent = `tracking the game: ply ${r.ply} of ${r.of} …`;
    });
    if (this.beliefFor !== view) return; // superseded by a newer view
    this.estimating = false;
    if (reply.kind === 'belief') {
      this.belief = reply.belief;
      this.page.$('know-data').dataset.source = reply.kept ? 'kept' : 'fed';
    } else if (reply.kind === 'error') size.textContent = errorSentence(reply);
    this.renderKnow();
    this.page.board.render();
  }

  gameMoved(): void {
    if (this.page.mode !== 'play') return;
    const shown = this.belief !== undefined;
    this.belief = undefined;
    this.renderKnow();
    this.page.$('belief-size').textContent = '— (the game moved on: estimating afresh when shown)';
    if (!this.page.$('panel-know').hidden || shown) void this.refreshBelief();
    else void this.follow();
  }

  /**
   * While the player thinks (or once the game is over), the know worker feeds his side's tracker
   * the game so far in the background, and keeps the belief at its end: Know answers it at once.
   */
  private async follow(): Promise<void> {
    const state = this.page.play.state;
    const { $ } = this.page;
    if (!$<HTMLInputElement>('know-follow').checked || this.page.mode !== 'play' || !state) return;
    if (!state.over && state.toMove !== state.view.as) return; // the opponent thinks: not now
    const reply = await this.page.knowWorker.send({ kind: 'follow', view: state.view });
    if (reply.kind !== 'followed' || this.page.play.state?.view !== state.view) return;
    $('app').dataset.followed = String(reply.ply);
    $('follow-note').textContent = `Followed to ply ${reply.ply}.`;
  }

  renderKnow(): void {
    const { $ } = this.page;
    const b = this.belief;
    const know = $('know-data');
    if (this.tableFor !== b) {
      // a lone king's belief: the tablebase's guaranteed mate (./egtb.ts)
      this.tableFor = b;
      const query = b && this.beliefFor && beliefQuery(b, this.beliefFor);
      void showTablebase(this.page, 'know-egtb', query && { rules: this.beliefFor!.rules, ...query });
    }
    if (!b) {
      know.dataset.positions = '';
      return;
    }
    $('belief-size').textContent = beliefWords(b);
    know.dataset.positions = String(b.positions);
    know.dataset.kind = b.kind;
    const filter = $<HTMLSelectElement>('heat-piece').value as PieceFilter;
    know.dataset.heatmap = b.heatmaps[filter].join(',');
    know.dataset.filter = filter;
    const list = $('samples');
    list.replaceChildren(
      ...b.samples.map((fen) => {
        const li = this.page.doc.createElement('li');
        li.textContent = fen;
        return li;
      }),
    );
    $('heat-legend').textContent =
      `${b.enemy === 'white' ? 'White' : 'Black'} ${filter === 'all' ? 'pieces' : `${filter}s`}: the number in a square is the share (%) of the ${b.positions} positions with one there.`;
    this.page.board.render();
  }

  private async reveal(): Promise<void> {
    const reply = await this.page.gameWorker.send({ kind: 'reveal' });
    if (reply.kind === 'replay') this.startReplay({ ...reply.replay, ofGame: true });
  }

  startReplay(replay: Replaying, ply?: number): void {
    const { $, board } = this.page;
    this.replay = replay;
    this.page.mode = 'replay';
    board.highlight.clear();
    board.selected = undefined;
    this.page.status(
      replay.record
        ? 'Replay: the true board, or either side’s view, ply by ply (Know).'
        : `Replay of ${cap(replay.view!.as)}'s view, ply by ply (Know).`,
    );
    this.replaySide = replay.record ? 'true' : replay.view!.as;
    const side = $<HTMLSelectElement>('replay-side');
    for (const option of Array.from(side.options)) option.disabled = !replay.record && option.value !== replay.view?.as;
    side.value = this.replaySide;
    const plies = replay.record ? (replay.fens?.length ?? 1) - 1 : plyCount(replay.view!);
    const slider = $<HTMLInputElement>('replay-ply');
    slider.max = String(plies);
    $('replay').hidden = false;
    this.page.showTab('know');
    void this.showReplayPly(ply ?? plies);
  }

  leaveReplay(): void {
    const { $, play } = this.page;
    if (this.page.mode !== 'replay' || !this.replay?.ofGame || !play.state || play.state.over) return;
    this.replay = undefined;
    this.page.mode = 'play';
    $('replay').hidden = true;
    this.belief = undefined;
    this.beliefFor = undefined;
    this.renderKnow();
    this.page.board.render();
    const mine = play.state.toMove === play.state.view.as;
    if (mine) this.page.status('Back to the game: your move.', 'your-move');
    else this.page.status(`Back to the game: ${cap(play.state.toMove)} is thinking …`, 'thinking');
  }

  replayView(): View | undefined {
    if (!this.replay) return undefined;
    const side: Side = this.replaySide === 'true' ? 'white' : this.replaySide;
    const view = this.replay.record ? viewOf(this.replay.record, side) : this.replay.view!;
    return viewAtPly(view, this.replayPly);
  }

  async showReplayPly(ply: number): Promise<void> {
    const { $ } = this.page;
    const slider = $<HTMLInputElement>('replay-ply');
    this.replayPly = Math.max(0, Math.min(Number(slider.max), ply));
    slider.value = String(this.replayPly);
    $('replay-label').textContent = `ply ${this.replayPly} of ${slider.max}`;
    $('replay').dataset.ply = String(this.replayPly);
    const view = this.replayView();
    $('replay-events').replaceChildren(
      ...(view?.events.slice(-4) ?? []).map((e) => {
        const li = this.page.doc.createElement('li');
        li.textContent = refereeSays(e);
        return li;
      }),
    );
    this.belief = undefined;
    this.page.board.render();
    if (this.replaySide !== 'true') await this.refreshBelief();
    else this.renderKnow();
  }
}

/** The belief's size in honest words: exact, a sample, or none. */
export function beliefWords(b: BeliefSummary): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const ply = `at ply ${b.ply}`;
  if (b.kind === 'none')
    return `none ${ply}: the tracker holds no position that fits everything heard (it lost the belief); no heatmap`;
  if (b.kind === 'exact')
    return b.positions === b.held
      ? `exact ${ply}: ${n(b.held)} position${b.held === 1 ? '' : 's'}, every one counted`
      : `exact ${ply}: ${n(b.held)} positions; the heatmap counts ${n(b.positions)} of them, drawn at random`;
  return `a sample ${ply}: ${n(b.positions)} positions that fit everything heard, not all the belief holds (it is larger)`;
}
