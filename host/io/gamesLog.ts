// A file of games written game by game, that a run killed at any moment resumes (krieg match,
// krieg play): each finished game is appended in order, and a tag of every game ([Match] of a
// match, [Play] of krieg play) holds the key of the run — everything that decides its games but
// their number —, with its number in [Round]. Reading it back keeps the complete games that belong
// to the run in order (a game cut short by a kill is dropped and played again) and refuses a file
// of another run. KPGN is appended; a JSON document cannot be, so it is rewritten whole (atomically)
// after a game, at most once a second, and at the end.
import { appendFileSync, existsSync, readFileSync, truncateSync, statSync } from 'node:fs';
import { KriegError, fail } from '../errors';
import { parseKpgn, makeRecordKpgn, kpgnGameComplete, kpgnGameSpans, kpgnGameText } from '../notation/kpgn';
import { parseRecordJsonGames } from '../notation/recordJson';
import type { GameRecord } from '../record/record';
import { writeAtomically, WRITE_ERRORS } from './files';
import { formatGames, type Format } from './gamesFile';

/** What the games of one run carry: the key in tag `tag`; `noun` names the run in messages. */
export interface RunIdentity {
  key: string;
  tag: string;
  noun: string;
}

/** The text a game takes in a KPGN log. */
export const gameText = (record: GameRecord) => makeRecordKpgn(record) + '\n';

/** Game `n` of `path` (from line `line`) must carry the run's key and number `n`. */
function checkGame(path: string, record: GameRecord, n: number, id: RunIdentity, line?: number): void {
  if (record.tags[id.tag] === id.key && record.tags.Round === String(n)) return;
  throw fail('match-mismatch', {
    text: `${path}: game ${n}${line === undefined ? '' : ` (line ${line})`} belongs to another ${id.noun} (${record.tags[id.tag] ?? `no [${id.tag}] tag`}, round ${record.tags.Round ?? '?'}), not to ${id.key}, round ${n}; resume with the same players and options, or choose a new file`,
  });
}

/** Whether the log `path` exists (a directory is refused as --out names one anywhere, a device or socket as no log). */
function logExists(path: string): boolean {
  if (!existsSync(path)) return false;
  const stat = statSync(path);
  if (stat.isDirectory()) throw fail('write-failed', { path, why: WRITE_ERRORS.EISDIR });
  if (!stat.isFile()) throw fail('match-file', { text: `${path} is not a file` });
  return true;
}

/**
 * The games of a KPGN log: every complete game (its text, parsed), checked to belong to the run in
 * order; `ends[i]` is where game i + 1 ends (the next game's first line), `validBytes` where the last
 * complete game ends (a game cut short follows). The games are found by the KPGN games scanner
 * (host/notation/kpgn/games.ts), as every KPGN reader finds them.
 */
export function readGamesLog(
  path: string,
  id: RunIdentity,
): { records: GameRecord[]; ends: number[]; validBytes: number } {
  if (!logExists(path)) return { records: [], ends: [], validBytes: 0 };
  const bytes = readFileSync(path);
  const spans = kpgnGameSpans(bytes);
  const records: GameRecord[] = [];
  const ends: number[] = [];
  spans.forEach(({ start, end }, i) => {
    const text = bytes.toString('utf8', start.offset, end);
    if (!kpgnGameComplete(text)) {
      if (i === spans.length - 1) return; // cut short by a kill: played again
      throw fail('match-file', { text: `${path}: line ${start.line + 1}: a game without its result line` });
    }
    let parsed;
    try {
      parsed = parseKpgn(kpgnGameText(text, end === bytes.length), start.line + 1);
    } catch (error) {
      if (error instanceof KriegError) throw fail('match-file', { text: `${path}: ${error.message}` });
      throw error;
    }
    if (parsed.kind !== 'record')
      throw fail('match-file', { text: `${path}: line ${start.line + 1}: a view, not a game record` });
    checkGame(path, parsed.record, records.length + 1, id, start.line + 1);
    records.push(parsed.record);
    ends.push(end);
  });
  return { records, ends, validBytes: ends.length ? ends[ends.length - 1] : 0 };
}

/** The games of a JSON file written by a GamesLog (whole, since it is written atomically). */
function readJsonLog(path: string, id: RunIdentity): GameRecord[] {
  if (!logExists(path)) return [];
  let games;
  try {
    games = parseRecordJsonGames(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof KriegError) throw fail('match-file', { text: `${path}: ${error.message}` });
    throw error;
  }
  return games.map((parsed, i) => {
    if (parsed.kind !== 'record')
      throw fail('match-file', { text: `${path}: game ${i + 1}: a view, not a game record` });
    checkGame(path, parsed.record, i + 1, id);
    return parsed.record;
  });
}

/** Seconds between two rewrites of a JSON log. */
const JSON_REWRITE_SECONDS = 1;

/**
 * A log of `total` games at `path` opened to go on: the games it holds already (`records`, at
 * most `total`; a game cut short by a kill is removed, and so is a last game `drop` rejects, to be
 * played again), and `append` for each next game in order; `finish` writes what is pending.
 */
export class GamesLog {
  readonly records: GameRecord[];
  readonly resumed: number;
  private written = 0;
  private lastWrite = 0;

  constructor(
    readonly path: string,
    readonly id: RunIdentity,
    total: number,
    private readonly format: Format = 'kpgn',
    drop?: (record: GameRecord) => boolean,
  ) {
    if (format === 'json') {
      this.records = readJsonLog(path, id);
      if (this.records.length && drop?.(this.records[this.records.length - 1])) this.records.pop();
    } else {
      const { records, ends, validBytes } = readGamesLog(path, id);
      let keep = validBytes;
      if (records.length && drop?.(records[records.length - 1])) {
        records.pop();
        keep = records.length ? ends[records.length - 1] : 0;
      }
      if (existsSync(path) && statSync(path).size > keep) truncateSync(path, keep); // a game cut short by a kill
      this.records = records;
    }
    if (this.records.length > total)
      throw fail('match-mismatch', {
        text: `${path} already holds ${this.records.length} games, more than the ${total} asked for`,
      });
    this.resumed = this.records.length;
    this.written = this.records.length;
  }

  /** Adds the next game (number records.length + 1) to the file. */
  append(record: GameRecord): void {
    this.records.push(record);
    if (this.format !== 'json') {
      appendFileSync(this.path, gameText(record));
      this.written = this.records.length;
    } else if (performance.now() - this.lastWrite >= JSON_REWRITE_SECONDS * 1000) this.flush();
  }

  /** Writes the games not in the file yet (a JSON log: the whole document again). */
  flush(): void {
    if (this.written === this.records.length && (existsSync(this.path) || this.records.length === 0)) return;
    if (this.format === 'json') writeAtomically(this.path, formatGames(this.records, 'json'));
    else for (const record of this.records.slice(this.written)) appendFileSync(this.path, gameText(record));
    this.written = this.records.length;
    this.lastWrite = performance.now();
  }
}
