// The web app (host/web/index.html): play Kriegspiel against krieg's players, see what each side
// knew, search for forced mates, load and save games and problems. Everything runs in the page:
// the engine in three Web Workers (worker.ts: the game and replays; the belief estimates of the
// Know tab, which a newer view terminates; the solver, which Cancel may terminate), the problem
// database in sql.js loaded on demand. This file is the shell: the page's set-up, the engines, the
// tabs' switching and the status line. The parts live in app/: the board (app/board.ts), one module
// per tab (app/play.ts, know.ts, solve.ts, load.ts), the referee's words (app/words.ts); what they
// share is app/page.ts. The page's thread holds the DOM, the human's view (never the true board
// while the game runs) and the messages.
import { PRESET_NAMES } from '../record/rules';
import { PLAYER_NAMES, PLAYER_HELP } from '../players/registry';
import { ALGORITHM_CHOICES, AUTO } from '../solver/auto';
import { PIECE_TYPES } from './belief';
import type { BackendName } from './protocol';
import { Board } from './app/board';
import { EngineWorker } from './app/engineWorker';
import { KnowTab } from './app/know';
import { LoadTab } from './app/load';
import type { BoardMode, Page } from './app/page';
import { PlayTab } from './app/play';
import { SolveTab } from './app/solve';
import { errorSentence } from './app/words';

/** The best algorithm for a single question (the CLI's default, docs/solver.md). */
const DEFAULT_ALGORITHM = AUTO; // the policy of bench:auto picks the algorithm for the belief
const OPPONENTS = PLAYER_NAMES.filter((name) => name !== 'human');

export class App implements Page {
  readonly $: <T extends HTMLElement = HTMLElement>(id: string) => T;
  readonly gameWorker = new EngineWorker(2); // the referee's core and the opponent's
  readonly solveWorker = new EngineWorker();
  readonly knowWorker = new EngineWorker();
  mode: BoardMode = 'play';
  lastClickDelay = 0;
  readonly board: Board = new Board(this);
  readonly play: PlayTab = new PlayTab(this);
  readonly know: KnowTab = new KnowTab(this);
  readonly solve: SolveTab = new SolveTab(this);
  readonly load: LoadTab = new LoadTab(this);

  constructor(readonly doc: Document) {
    this.$ = <T extends HTMLElement>(id: string) => {
      const el = doc.getElementById(id);
      if (!el) throw new Error(`krieg app: element #${id} missing`);
      return el as T;
    };
  }

  private get workers(): EngineWorker[] {
    return [this.gameWorker, this.solveWorker, this.knowWorker];
  }

  async start(): Promise<void> {
    // the game's engine first, while the page is set up: interactive once it is up (a game started
    // and a move answered at once); the solver's and Know's start after it, so that it has the
    // cores to itself (a request sent to one before it is up waits behind its init)
    const backend = this.$<HTMLSelectElement>('backend').value as BackendName;
    for (const worker of this.workers) worker.backend = backend;
    const engine = this.gameWorker.start();
    this.fillControls();
    // a phone's narrow screen: the settings folded, so the board and the transcript come first
    if (this.doc.defaultView?.matchMedia('(max-width: 800px)').matches)
      this.$<HTMLDetailsElement>('settings').open = false;
    // ?follow=0: Know does not follow the game in the background (the browser tests' default)
    if (new URLSearchParams(this.doc.defaultView?.location.search).get('follow') === '0')
      this.$<HTMLInputElement>('know-follow').checked = false;
    this.board.build();
    this.wire();
    // drawn while the engine starts, so that its reply finds only the marks left to set
    this.board.render();
    performance.mark('krieg-controls'); // bench/web.ts: the board drawn, the controls wired
    const game = await engine;
    if (game.kind === 'error') return this.status(errorSentence(game), 'error');
    this.$('app').dataset.backend = backend;
    this.$('app').dataset.ready = 'true';
    performance.mark('krieg-interactive'); // bench/web.ts: load to first interactive
    this.status('Choose your colour, rules and opponent, then start a game.');
    void this.knowWorker.start();
    void this.solveWorker.start();
  }

  /** Fresh workers on `backend` (a game in progress ends: its engines were the other backend's). */
  private async setBackend(backend: BackendName): Promise<void> {
    for (const worker of this.workers) worker.backend = backend;
    if (this.play.state && !this.play.state.over) this.status('The engine changed: start a new game.');
    this.play.state = undefined;
    this.$('app').dataset.state = '';
    this.know.estimating = false;
    const [game] = await Promise.all(this.workers.map((w) => w.restart()));
    if (game.kind === 'error') this.status(errorSentence(game), 'error');
    this.$('app').dataset.backend = backend;
    this.board.render();
  }

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
    const tabs = Array.from(this.doc.querySelectorAll<HTMLButtonElement>('[role=tab]'));
    for (const tab of tabs)
      tab.addEventListener('click', (e: Event) => {
        this.lastClickDelay = performance.now() - e.timeStamp;
        this.showTab(tab.dataset.tab!);
      });
    // the tab list is one stop of the Tab key; arrows, Home and End move along it (and show the tab)
    this.$('tabs').addEventListener('keydown', (e: KeyboardEvent) => {
      const at = tabs.indexOf(e.target as HTMLButtonElement);
      const step: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      const next =
        e.key in step
          ? (at + step[e.key] + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? -1
              : -2;
      if (at < 0 || next === -2) return;
      e.preventDefault();
      const tab = tabs.at(next)!;
      this.showTab(tab.dataset.tab!);
      tab.focus();
    });
    on('backend', 'change', () => {
      const select = this.$<HTMLSelectElement>('backend');
      if (this.play.mayAbandon()) void this.setBackend(select.value as BackendName);
      else select.value = this.play.state ? this.gameWorker.backend : select.value;
    });
    this.board.wire(on);
    this.know.wire(on);
    this.solve.wire(on);
    this.load.wire(on);
    this.play.wire(on); // last: it starts the clock and describes the opponent chosen
  }

  showTab(name: string): void {
    for (const tab of Array.from(this.doc.querySelectorAll<HTMLButtonElement>('[role=tab]'))) {
      const on = tab.dataset.tab === name;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      this.$(`panel-${tab.dataset.tab}`).hidden = !on;
    }
    this.$('app').dataset.tab = name;
    if (name === 'play') this.know.leaveReplay(); // a replay of the running game (its transcript's Know) ends
    if (name === 'know' && this.mode === 'play') void this.know.refreshBelief();
  }

  status(text: string, kind = ''): void {
    const el = this.$('status');
    el.textContent = text;
    el.dataset.kind = kind;
  }
}

export async function mountApp(doc: Document = document): Promise<App> {
  const app = new App(doc);
  (globalThis as unknown as { kriegApp: App }).kriegApp = app;
  await app.start();
  return app;
}
