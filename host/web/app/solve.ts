// The web app's Solve tab: "Is there a forced mate?" on the problem (a FEN set, a database instance,
// or the view shown), searched in the solver worker with live progress and Cancel; a proof shown
// as a tree whose attempts light up on the board.
import { heardText, type StrategyNode, type Strategy } from '../../solver/strategy';
import type { SolveOutcome, SolveRequest } from '../protocol';
import { squareIndex, type Page, type Problem, type SolvePart } from './page';
import { cap, errorSentence, plyCount } from './words';
import { showTablebase } from './egtb';
import { other, type View } from '../../record/record';

export class SolveTab implements SolvePart {
  problem: Problem | undefined;
  private solving = false;

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

  private solveProblem(): SolveRequest | undefined {
    const ply = Number(this.page.$<HTMLSelectElement>('ply').value);
    const algorithm = this.page.$<HTMLSelectElement>('algorithm').value;
    const nodes = Number(this.page.$<HTMLInputElement>('solve-nodes').value) || undefined;
    if (this.problem?.positions)
      return { positions: this.problem.positions, rules: this.problem.rules, ply, algorithm, nodes };
    const view = this.problem?.view ?? this.page.know.currentView();
    if (!view) return undefined;
    return { view, ply, algorithm, nodes };
  }

  async solve(): Promise<void> {
    const { $ } = this.page;
    const problem = this.solveProblem();
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
    $('app').dataset.solving = 'true';
    $<HTMLButtonElement>('solve').disabled = true;
    $<HTMLButtonElement>('cancel').disabled = false;
    $('solve-tree').replaceChildren();
    $('solve-answer').textContent = '';
    $('solve-answer').dataset.answer = '';
    void showTablebase(this.page, 'solve-egtb', undefined);
    const progress = $('solve-progress');
    progress.textContent = 'searching …';
    const reply = await this.page.solveWorker.send({ kind: 'solve', problem }, (r) => {
      if (r.kind === 'progress')
        progress.textContent = `${r.stats.nodes.toLocaleString('en-US')} belief nodes, ${r.stats.positions.toLocaleString('en-US')} positions, ${(r.stats.ms / 1000).toFixed(1)} s`;
    });
    this.solving = false;
    $('app').dataset.solving = 'false';
    $<HTMLButtonElement>('solve').disabled = false;
    $<HTMLButtonElement>('cancel').disabled = true;
    if (reply.kind === 'solved') {
      this.showSolved(reply.outcome, problem.ply);
      const rules = problem.view?.rules ?? problem.rules;
      // a lone king's belief: the tablebase's guaranteed mate beside the search's answer (./egtb.ts)
      if (rules && reply.outcome.fens) void showTablebase(this.page, 'solve-egtb', { rules, fens: reply.outcome.fens });
    } else if (reply.kind === 'error') {
      progress.textContent = '';
      $('solve-answer').textContent = reply.message === 'cancelled' ? 'Cancelled.' : errorSentence(reply);
      $('solve-answer').dataset.answer = reply.message === 'cancelled' ? 'cancelled' : 'error';
    }
  }

  private async cancelSolve(): Promise<void> {
    if (!this.solving) return;
    await this.page.solveWorker.restart();
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
