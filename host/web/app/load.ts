// The web app's Load/Save tab: a dropped or chosen KPGN or JSON record or view (replayed in Know;
// a file of several games offers a choice of game), a problem database (sql.js, in the page) listed
// by ply and class, a FEN set to solve, and saving the game as KPGN.
import { parseFen } from '../../notation/fen';
import { makeRecordKpgn, makeViewKpgn, parseKpgnGames, type ParsedKpgn } from '../../notation/kpgn';
import { parseRecordJson } from '../../notation/recordJson';
import { PRESETS, parseRulesJson, type PresetName } from '../../record/rules';
import { openProblemDb, type BrowserDb } from '../problemDb';
import type { Page } from './page';
import { cap, errorSentence } from './words';

export class LoadTab {
  private db: BrowserDb | undefined;
  /** The games of the file loaded last (KPGN may hold several), and its name. */
  private games: ParsedKpgn[] = [];
  private fileName = '';

  constructor(private readonly page: Page) {}

  wire(on: (id: string, type: string, fn: (e: Event) => void) => void): void {
    on('save-kpgn', 'click', () => this.save());
    on('file', 'change', () => {
      const file = this.page.$<HTMLInputElement>('file').files?.[0];
      if (file) void this.loadFile(file);
    });
    on('fen-use', 'click', () => this.useFens());
    on('game-choice', 'change', () =>
      this.showGame(Number(this.page.$<HTMLSelectElement>('game-choice').value), this.fileName),
    );
    on('db-shipped', 'click', () => void this.openShippedDb());
    on('db-ply', 'change', () => this.listInstances());
    on('db-class', 'change', () => this.listInstances());
    const drop = this.page.$('drop');
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
  }

  private async loadFile(file: File): Promise<void> {
    const note = this.page.$('load-note');
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (new TextDecoder('latin1').decode(bytes.subarray(0, 15)) === 'SQLite format 3') {
        await this.openDb(bytes, file.name);
        return;
      }
      const text = new TextDecoder().decode(bytes);
      this.loadText(text, file.name);
    } catch (error) {
      note.textContent = `${file.name}: ${errorSentence(error)}`;
      note.dataset.kind = 'error';
    }
  }

  loadText(text: string, name: string): void {
    // JSON opens with { or [{; KPGN with a [Tag "…"] line, and may hold several games
    this.games = /^\s*(\{|\[\s*\{)/.test(text) ? [parseRecordJson(text)] : parseKpgnGames(text);
    this.fileName = name;
    const choice = this.page.$<HTMLSelectElement>('game-choice');
    choice.replaceChildren(
      ...this.games.map((g, i) => {
        const who = g.kind === 'record' ? g.record : g.view;
        const what = g.kind === 'record' ? 'record' : `${cap(g.view.as)}'s view`;
        return new Option(`game ${i + 1}: ${who.white} v ${who.black}, ${who.result} (${what})`, String(i));
      }),
    );
    this.page.$('games-row').hidden = this.games.length < 2;
    this.showGame(0, name);
  }

  /** Game `index` of the file loaded, replayed in Know. */
  private showGame(index: number, name: string): void {
    const parsed = this.games[index];
    if (!parsed) return;
    this.page.$<HTMLSelectElement>('game-choice').value = String(index);
    if (this.games.length > 1) name = `${name}, game ${index + 1} of ${this.games.length}`;
    this.page.solve.problem = undefined;
    const note = this.page.$('load-note');
    note.dataset.kind = 'ok';
    if (parsed.kind === 'record') {
      note.textContent = `${name}: a game record, ${parsed.record.white} v ${parsed.record.black}, ${parsed.record.result}.`;
      void this.page.gameWorker.send({ kind: 'replay', record: parsed.record }).then((reply) => {
        if (reply.kind === 'replay') this.page.know.startReplay(reply.replay);
        else if (reply.kind === 'error') note.textContent = `${name}: ${errorSentence(reply)}`;
      });
    } else {
      note.textContent = `${name}: ${cap(parsed.view.as)}'s view of ${parsed.view.white} v ${parsed.view.black}.`;
      this.page.know.startReplay({ view: parsed.view });
    }
  }

  /** The KPGN to save: the finished game's record, the running game's view, or what was loaded. */
  kpgnToSave(): string | undefined {
    const replay = this.page.know.replay;
    if (this.page.mode === 'replay' && replay?.record) return makeRecordKpgn(replay.record);
    if (this.page.mode === 'replay' && replay?.view) return makeViewKpgn(replay.view);
    if (this.page.play.state) return makeViewKpgn(this.page.play.state.view);
    return undefined;
  }

  private save(): void {
    const text = this.kpgnToSave();
    if (text === undefined) {
      this.page.$('load-note').textContent = 'Nothing to save yet.';
      return;
    }
    const a = this.page.doc.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-kriegspiel-pgn' }));
    a.download = this.page.know.replay?.record ? 'game.kpgn' : 'view.kpgn';
    this.page.doc.body.append(a);
    a.click();
    a.remove();
  }

  private useFens(): void {
    const fens = this.page
      .$<HTMLTextAreaElement>('fen-set')
      .value.split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const note = this.page.$('load-note');
    if (fens.length === 0) {
      note.textContent = 'Give one FEN per line.';
      return;
    }
    try {
      fens.forEach((f) => parseFen(f));
    } catch (error) {
      note.textContent = errorSentence(error);
      note.dataset.kind = 'error';
      return;
    }
    const preset = this.page.$<HTMLSelectElement>('fen-preset').value as PresetName;
    this.page.solve.setProblem({
      label: `${fens.length} FEN${fens.length === 1 ? '' : 's'} (${preset} rules)`,
      positions: fens,
      rules: PRESETS[preset],
    });
  }

  private async openShippedDb(): Promise<void> {
    const note = this.page.$('load-note');
    note.textContent = 'loading the problem database …';
    this.page.$('db').hidden = true; // the old list must not be used while the new one loads
    try {
      const response = await fetch('problems.sqlite');
      if (!response.ok) throw new Error(`problems.sqlite: HTTP ${response.status} (serve the page with npm run web)`);
      await this.openDb(new Uint8Array(await response.arrayBuffer()), 'problems.sqlite');
    } catch (error) {
      note.textContent = errorSentence(error);
      note.dataset.kind = 'error';
    }
  }

  private async openDb(bytes: Uint8Array, name: string): Promise<void> {
    this.db = await openProblemDb(bytes, name);
    const counts = this.db.counts();
    const plies = [...new Set(counts.map((c) => c.ply))];
    const select = this.page.$<HTMLSelectElement>('db-ply');
    const chosen = select.value; // a reload keeps the reader's filter where the new database offers it
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
    if (plies.some((p) => String(p) === chosen)) select.value = chosen;
    this.page.$('db').hidden = false;
    this.page.$('load-note').textContent = `${name}: ${counts.reduce((n, c) => n + c.count, 0)} instances.`;
    this.listInstances();
  }

  private listInstances(): void {
    if (!this.db) return;
    const doc = this.page.doc;
    const ply = this.page.$<HTMLSelectElement>('db-ply').value;
    const cls = this.page.$<HTMLSelectElement>('db-class').value;
    const rows = this.db.summaries({ ...(ply ? { ply: Number(ply) } : {}), ...(cls ? { cls } : {}) }).slice(0, 200);
    const body = this.page.$('db-rows');
    body.replaceChildren(
      ...rows.map((r) => {
        const tr = doc.createElement('tr');
        tr.dataset.id = String(r.id);
        for (const v of [r.id, r.ply, r.cls, r.beliefSize, r.rules, r.cutPly]) {
          const td = doc.createElement('td');
          td.textContent = String(v);
          tr.append(td);
        }
        const td = doc.createElement('td');
        const open = doc.createElement('button');
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
      const note = this.page.$('load-note');
      note.textContent = errorSentence(error);
      note.dataset.kind = 'error';
      return;
    }
    const view = parseRecordJson(row.viewJson);
    this.page.solve.setProblem({
      label: `instance ${id}: ${row.cls} in ${row.ply} plies, White's belief of ${row.positions.length} positions`,
      positions: row.positions,
      rules: parseRulesJson(row.rulesJson),
      ply: row.ply,
      ...(view.kind === 'view' ? { view: view.view } : {}),
    });
  }
}
