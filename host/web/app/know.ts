// The web app's Know tab: the belief state of the view shown (estimated in the know worker; a newer
// view cancels a running estimate), its heatmap and samples, and the replay of a finished game or a
// loaded record or view, ply by ply, as the true board or either side's view.
import { viewOf, type Side, type View } from '../../record/record';
import type { BeliefSummary, PieceFilter } from '../belief';
import type { KnowPart, Page, Replaying } from './page';
import { cap, plyCount, refereeSays, viewAtPly } from './words';

export class KnowTab implements KnowPart {
  replay: Replaying | undefined;
  replayPly = 0;
  replaySide: Side | 'true' = 'true';
  belief: BeliefSummary | undefined;
  private beliefFor: View | undefined;
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
  }

  currentView(): View | undefined {
    return this.page.mode === 'replay' ? this.replayView() : this.page.play.state?.view;
  }

  async refreshBelief(): Promise<void> {
    const view = this.currentView();
    if (!view) return this.renderKnow();
    if (this.beliefFor === view) return this.renderKnow();
    this.beliefFor = view;
    this.page.$('belief-size').textContent = 'estimating …';
    delete this.page.$('know-data').dataset.heatmap; // the last view's numbers are not this one's
    // A newer view cancels the running estimate (a whole long game's may take seconds) rather than
    // queueing behind it: a slider dragged across a game asks for many.
    if (this.estimating) await this.page.knowWorker.restart();
    if (this.beliefFor !== view) return; // newer still: that request runs
    this.estimating = true;
    const reply = await this.page.knowWorker.send({ kind: 'belief', view });
    if (this.beliefFor !== view) return; // cancelled for a newer one
    this.estimating = false;
    if (reply.kind === 'belief') this.belief = reply.belief;
    else if (reply.kind === 'error') this.page.$('belief-size').textContent = reply.message;
    this.renderKnow();
    this.page.board.render();
  }

  renderKnow(): void {
    const { $ } = this.page;
    const b = this.belief;
    const know = $('know-data');
    if (!b) {
      know.dataset.positions = '';
      return;
    }
    $('belief-size').textContent = b.exact
      ? `${b.positions} position${b.positions === 1 ? '' : 's'} (exact)`
      : `too large to list in time: ${b.positions} positions of the tracker's pool, each consistent with everything heard (${b.outcome})`;
    know.dataset.positions = String(b.positions);
    know.dataset.exact = String(b.exact);
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
    if (reply.kind === 'replay') this.startReplay(reply.replay);
  }

  startReplay(replay: Replaying): void {
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
    void this.showReplayPly(plies);
  }

  replayView(): View | undefined {
    if (!this.replay) return undefined;
    const side: Side = this.replaySide === 'true' ? 'white' : this.replaySide;
    const view = this.replay.record ? viewOf(this.replay.record, side) : this.replay.view!;
    return viewAtPly(view, this.replayPly);
  }

  private async showReplayPly(ply: number): Promise<void> {
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
