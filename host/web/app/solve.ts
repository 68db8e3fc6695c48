// The web app's Solve tab: "Is there a forced mate?" on the problem (a FEN set, a database instance,
// or the view shown), searched in the solver worker with live progress and Cancel; a proof shown
// as a tree whose attempts light up on the board.
import { heardText, type StrategyNode, type Strategy } from '../../solver/strategy';
import type { SolveOutcome, SolveRequest } from '../protocol';
import { squareIndex, type Page, type Problem, type SolvePart } from './page';
import { cap, errorSentence, plyCount } from './words';
import { showTablebase } from './egtb';
import { other, type View } from '../../record/record';

type Asked = Omit<SolveRequest, 'positions' | 'rules'> & Partial<SolveRequest> & { view?: View };

export class SolveTab implements SolvePart {
  problem: Problem | undefined;
  private solving = false;
  /** Solves asked: Cancel moves it on, so a belief read from Know meanwhile is dropped. */
  private asked = 0;
  /** The belief is being read from Know (Cancel then only drops it). */
  private reading = false;

  constructor(private readonly page: Page) {}

  wire(on: (id: string, type: string, fn: (e: Event) => void) => void): void {
    on('solve', 'click', () => void this.solve());
    on('cancel', 'click', () => void this.cancelSolve());
  }

  setProblem(problem: Problem): void {
    this.problem = problem;
    this.page.$('problem-label').textContent = problem.label;
    if (problem.ply) this.choosePly(problem.ply);
    if (problem.view) this.page.know.startReplay({ view: problem.view });
    this.page.showTab('solve');
  }

  /** "Mate within" set to `ply` (an option added for a deeper problem than the list offers). */
  private choosePly(ply: number): void {
    const select = this.page.$<HTMLSelectElement>('ply');
    if (!Array.from(select.options).some((o) => o.value === String(ply)))
      select.append(new Option(`${ply} plies`, String(ply)));
    select.value = String(ply);
  }

  /** Why a view cannot be asked: its player is not to move at its end (else undefined). */
  private notToMove(view: View): string | undefined {
    const plies = plyCount(view);
    const first = view.start.trim().split(/\s+/)[1] === 'b' ? 'black' : 'white';
    const toMove = plies % 2 === 0 ? first : other(first);
    if (toMove === view.as) return undefined;
    return `At ply ${plies} ${cap(toMove)} is to move, not ${cap(view.as)}: a forced mate is searched for the player to move, over his belief. Step to a ply where ${cap(view.as)} is to move (one on or one back), or show ${cap(toMove)}'s view in Know.`;
  }

  /** The problem asked: its positions, or the view whose belief they are (read from Know first). */
  private solveProblem(): Asked | undefined {
    const ply = Number(this.page.$<HTMLSelectElement>('ply').value);
    const algorithm = this.page.$<HTMLSelectElement>('algorithm').value;
    const nodes = Number(this.page.$<HTMLInputElement>('solve-nodes').value) || undefined;
    if (this.problem?.positions)
      return { positions: this.problem.positions, rules: this.problem.rules, ply, algorithm, nodes };
    const view = this.problem?.view ?? this.page.know.currentView();
    if (!view) return undefined;
    return { view, ply, algorithm, nodes };
  }

  /**
   * A view's belief as positions to search: every position of it, from the Know worker's tracker
   * of that side (fed up to the view's end: progress said on the way), when it holds the belief
   * exact, at any ply and up to the tracker's exact size; else why it cannot be searched.
   */
  private async exactBelief(view: View): Promise<{ positions: string[] } | { why: string }> {
    const progress = this.page.$('solve-progress');
    const reply = await this.page.knowWorker.send({ kind: 'belief', view, positions: true }, (r) => {
      if (r.kind === 'tracking')
        progress.textContent = `reading the belief: tracking the game, ply ${r.ply} of ${r.of} …`;
    });
    if (reply.kind === 'error')
      return {
        why: reply.message === 'superseded' ? 'Know moved to another view meanwhile: ask again.' : errorSentence(reply),
      };
    if (reply.kind !== 'belief') return { why: 'The belief could not be read.' };
    if (reply.positions) return { positions: reply.positions };
    const { ply, kind } = reply.belief;
    return {
      why:
        kind === 'none'
          ? `At ply ${ply} no position fits everything ${cap(view.as)} heard, as Know tracked it: there is no belief to search.`
          : `At ply ${ply} Know holds a sample of ${cap(view.as)}'s belief, not every position: the belief grew larger than the tracker keeps exactly (or an event was too costly to take whole). A forced mate must work against every position the opponent may have, so a sample cannot be searched: step back to a ply where Know says "exact", or save the game and ask \`krieg solve\` at the command line.`,
    };
  }

  async solve(): Promise<void> {
    const { $ } = this.page;
    let problem = this.solveProblem();
    if (!problem) {
      $('solve-answer').textContent = 'Nothing to solve yet: play a game, load a record or a problem.';
      return;
    }
    const why = problem.view && this.notToMove(problem.view);
    if (why) {
      $('solve-tree').replaceChildren();
      $('solve-progress').textContent = '';
      $('solve-answer').textContent = why;
      $('solve-answer').dataset.answer = 'not-to-move';
      return;
    }
    this.solving = true;
    const asked = ++this.asked;
    $('app').dataset.solving = 'true';
    $<HTMLButtonElement>('solve').disabled = true;
    $<HTMLButtonElement>('cancel').disabled = false;
    $('solve-tree').replaceChildren();
    $('solve-answer').textContent = '';
    $('solve-answer').dataset.answer = '';
    void showTablebase(this.page, 'solve-egtb', undefined);
    const progress = $('solve-progress');
    if (problem.view) {
      this.reading = true;
      const belief = await this.exactBelief(problem.view);
      this.reading = false;
      if (asked !== this.asked) return; // cancelled meanwhile
      if ('why' in belief) return this.finish('', belief.why, 'not-exact');
      problem = { ...problem, positions: belief.positions, rules: problem.view.rules };
    }
    const { positions, rules, ply, algorithm, nodes } = problem;
    if (!positions || !rules) return this.finish('', 'Nothing to solve.', 'error');
    progress.textContent = 'searching …';
    const request: SolveRequest = { positions, rules, ply, algorithm, ...(nodes ? { nodes } : {}) };
    const reply = await this.page.solveWorker.send({ kind: 'solve', problem: request }, (r) => {
      if (r.kind === 'progress')
        progress.textContent = `${r.stats.nodes.toLocaleString('en-US')} belief nodes, ${r.stats.positions.toLocaleString('en-US')} positions, ${(r.stats.ms / 1000).toFixed(1)} s`;
    });
    if (reply.kind === 'solved') {
      this.finish();
      this.showSolved(reply.outcome, problem.ply);
      // a lone king's belief (one position a square of his): the tablebase's guaranteed mate beside
      // the search's answer (./egtb.ts)
      if (positions.length <= 64) void showTablebase(this.page, 'solve-egtb', { rules, fens: positions });
    } else if (reply.kind === 'error') {
      const cancelled = reply.message === 'cancelled';
      this.finish('', cancelled ? 'Cancelled.' : errorSentence(reply), cancelled ? 'cancelled' : 'error');
    }
  }

  /** The search is over: the buttons back, and (progress, answer, its data-answer) when given. */
  private finish(...said: [progress: string, answer: string, kind: string] | []): void {
    const { $ } = this.page;
    this.solving = false;
    $('app').dataset.solving = 'false';
    $<HTMLButtonElement>('solve').disabled = false;
    $<HTMLButtonElement>('cancel').disabled = true;
    if (!said.length) return;
    $('solve-progress').textContent = said[0];
    $('solve-answer').textContent = said[1];
    $('solve-answer').dataset.answer = said[2];
  }

  private async cancelSolve(): Promise<void> {
    if (!this.solving) return;
    this.asked++; // a belief being read from Know is not searched when it comes
    if (this.reading) this.finish('', 'Cancelled.', 'cancelled');
    else await this.page.solveWorker.restart();
  }

  private showSolved(outcome: SolveOutcome, ply: number): void {
    const s = outcome.stats;
    this.page.$('solve-progress').textContent =
      `${outcome.positions} position${outcome.positions === 1 ? '' : 's'} searched: ${s.nodes.toLocaleString('en-US')} belief nodes in ${(s.ms / 1000).toFixed(2)} s.`;
    const answer = this.page.$('solve-answer');
    answer.dataset.answer = outcome.answer;
    answer.textContent =
      outcome.answer === 'proven'
        ? `Yes: a forced mate within ${ply} plies, whatever the opponent's pieces and moves. The strategy:`
        : outcome.answer === 'disproven'
          ? `No: there is no forced mate within ${ply} plies on this belief state.`
          : `Unknown: the search stopped at its ${outcome.limit ?? ''} limit before an answer.`;
    if (outcome.strategy) this.page.$('solve-tree').replaceChildren(this.strategyTree(outcome.strategy));
  }

  /** The strategy as nested <details>: attempt → answers → the opponent's replies → next attempt. */
  private strategyTree(strategy: Strategy): HTMLElement {
    const doc = this.page.doc;
    const them = strategy.side === 'white' ? 'Black' : 'White';
    const node = (n: StrategyNode, depth: number): HTMLElement => {
      const details = doc.createElement('details');
      details.open = depth < 2;
      details.className = 'node';
      const summary = doc.createElement('summary');
      summary.textContent = `try ${n.attempt}`;
      summary.dataset.attempt = n.attempt;
      const light = () => {
        this.page.board.highlight = new Set([squareIndex(n.attempt.slice(0, 2)), squareIndex(n.attempt.slice(2, 4))]);
        this.page.board.render();
      };
      summary.addEventListener('mouseenter', light);
      summary.addEventListener('focus', light);
      summary.addEventListener('click', light);
      details.append(summary);
      const ul = doc.createElement('ul');
      for (const b of n.answers) {
        const li = doc.createElement('li');
        const heard = `if ${heardText(b.heard)}`;
        if ('won' in b) li.textContent = `${heard}: mate`;
        else if ('next' in b) {
          li.textContent = `${heard}:`;
          li.append(node(b.next, depth + 1));
        } else {
          li.textContent = `${heard}: ${them} moves, then`;
          const replies = doc.createElement('ul');
          for (const r of b.replies) {
            const rl = doc.createElement('li');
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
}
