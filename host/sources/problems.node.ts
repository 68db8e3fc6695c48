// Where a problem comes from: a problems file (krieg-problems JSON), an instance of the problem
// database (db:ID), a game file (a view, or a record and the side whose view: the belief at its end
// is estimated first), or FENs. `krieg solve` and `krieg verify` read their problem through here,
// `krieg belief`, `infoset` and `track` their view (viewInFile).
import type { Engine } from '../engine';
import { fail } from '../errors';
import { readTextFile } from '../io/files';
import { isKpgnFile, readGame, type ReadDeadline } from '../io/gamesFile';
import { viewOfGame } from '../referee/validate';
import type { RuleSet } from '../record/rules';
import type { Side, View } from '../record/record';
import { DB_PREFIX, dbPath, withDb, instanceById, problemOfInstance, viewOfInstance } from '../db/instances.node';
import { parseProblems, PROBLEMS_FORMAT } from '../solver/problemFile';
import { beliefPositions, DEFAULT_BELIEF_LIMIT, type Problem } from '../solver/solve';

export interface ProblemRequest {
  /** A problems file, db:ID, or a game file; none ('-' or '' too) when the positions are given. */
  file?: string;
  /** The belief state as FENs, with `rules`. */
  positions?: string[];
  rules?: RuleSet;
  /** In a problems file: the problem with this id (default: the first). */
  problem?: string;
  /** In a game file: whose view (required for a record), and which game (1-based, default 1). */
  as?: Side;
  game?: string | number;
  /** Mate within this many plies: this, else the problem's, else `defaultPly`. */
  ply?: number;
  defaultPly?: number;
  materialWins?: boolean;
  /** In a game file: the most belief positions to accept. */
  beliefLimit?: number;
  /** For db:ID: the database file (default: the shipped one). */
  db?: string;
  /** In a game file: the estimation's time limit (ms), and how to name it in the message when it is reached. */
  timeMs?: number;
  timeText?: string;
  /**
   * In a game file: the memory budget of the whole run (solve --memory): the estimation runs in
   * the position records the search takes over afterwards, never more. None: the estimator's own
   * default budget.
   */
  memoryBytes?: number;
  /** In a game file: the most work the estimation may do (positions generated and tested; --limit-nodes). */
  work?: number;
  /** In a game file: called as the estimation goes (positions found, work done). */
  onProgress?: (found: number, work: number) => void;
}

const fileOf = (request: ProblemRequest) => (request.file === '-' || request.file === '' ? undefined : request.file);

/** The text of a problems file, or undefined when `file` is some other file (a game file). */
function problemsText(file: string): string | undefined {
  if (isKpgnFile(file)) return undefined; // a KPGN file is a game file: not read whole here
  const text = readTextFile(file);
  return new RegExp(`"format"\\s*:\\s*"${PROBLEMS_FORMAT}"`).test(text) ? text : undefined;
}

/** The problem a request names, and a description of where it came from. */
export async function loadProblem(
  engine: Engine,
  request: ProblemRequest,
): Promise<{ problem: Problem; source: string; estimated?: boolean }> {
  const { ply } = request;
  const materialWins = request.materialWins === true;
  const file = fileOf(request);
  const need = (p: number | undefined) =>
    p ??
    request.defaultPly ??
    (() => {
      throw fail('missing-ply');
    })();
  if (request.positions !== undefined) {
    if (file !== undefined) throw fail('bad-arguments', { text: 'give either a FILE or --positions, not both' });
    if (request.positions.length === 0) throw fail('empty-problem', { text: '--positions needs at least one FEN' });
    return {
      problem: { rules: request.rules!, positions: request.positions, ply: need(ply), materialWins },
      source: '--positions',
    };
  }
  if (file === undefined) throw fail('missing-problem');
  // an instance of the database is a problems file of one problem
  const path = file.startsWith(DB_PREFIX) ? dbPath(request.db) : undefined;
  const instance =
    path === undefined
      ? undefined
      : await withDb(path, (db) => problemOfInstance(db, instanceById(db, file.slice(DB_PREFIX.length))));
  const text = instance ? undefined : problemsText(file);
  if (instance || text !== undefined) {
    const problems = instance ? [instance] : parseProblems(text!, file);
    const chosen = request.problem === undefined ? problems[0] : problems.find((p) => p.id === request.problem);
    if (!chosen) throw fail('no-problem', { file, id: String(request.problem), ids: problems.map((p) => p.id) });
    const source = instance
      ? `${path}, instance ${chosen.id.slice(DB_PREFIX.length)} (${chosen.class})`
      : `${file}, problem ${chosen.id}`;
    return {
      problem: {
        rules: chosen.rules,
        positions: chosen.positions,
        ply: ply ?? chosen.ply,
        materialWins: materialWins || chosen.materialWins === true,
      },
      source,
    };
  }
  if (request.problem !== undefined)
    throw fail('bad-arguments', { text: `${file} is a game file; --problem is for problems files` });
  // the time limit covers reading the file too: the estimation has what is left of it
  const started = performance.now();
  const { timeMs } = request;
  const deadline =
    timeMs === undefined
      ? undefined
      : { at: started + timeMs, text: request.timeText ?? `the time limit of ${timeMs / 1000} s` };
  const { view, game } = viewInFile(engine, file, request.as, request.game, deadline);
  const timeLeft = timeMs === undefined ? undefined : Math.max(1, timeMs - (performance.now() - started));
  const positions = beliefPositions(engine, view, {
    mode: 'auto',
    source: file,
    limit: request.beliefLimit ?? DEFAULT_BELIEF_LIMIT,
    limitOption: '--limit-belief',
    memoryBytes: request.memoryBytes,
    timeMs: timeLeft,
    timeText: request.timeText,
    work: request.work,
    workOption: '--limit-nodes',
    onProgress: request.onProgress,
  });
  return {
    problem: { rules: view.rules, positions, ply: need(ply), materialWins },
    source: `${file}, game ${game}, ${view.as}'s belief`,
    estimated: true,
  };
}

/** The view a request names for interleaved solving: of a game file, or the stored view of a database instance (with its ply). */
export async function loadProblemView(
  engine: Engine,
  request: ProblemRequest,
): Promise<{ view: View; source: string; ply?: number }> {
  const file = fileOf(request);
  if (file?.startsWith(DB_PREFIX)) {
    const path = dbPath(request.db);
    return withDb(path, (db) => {
      const row = instanceById(db, file.slice(DB_PREFIX.length));
      return { view: viewOfInstance(db, row), source: `${path}, instance ${row.id} (${row.cls})`, ply: row.ply };
    });
  }
  if (file === undefined || request.positions !== undefined || problemsText(file) !== undefined)
    throw fail('bad-arguments', { text: '--interleave needs a game file (a view, or a record and --as) or db:ID' });
  const { view, game } = viewInFile(engine, file, request.as, request.game);
  return { view, source: `${file}, game ${game}` };
}

/**
 * The view of `as` in game `game` (1-based, default 1) of `file`: a record is replayed by the
 * referee on `engine` first, a view is taken as written. Only that game is read (readGame); past
 * `deadline`, reading stops (limit-reached).
 */
export function viewInFile(
  engine: Engine,
  file: string,
  as: Side | undefined,
  game: string | number | undefined,
  deadline?: ReadDeadline,
): { view: View; game: number } {
  const { game: parsed, n } = readGame(file, game, deadline);
  return { view: viewOfGame(engine, file, parsed, n, as), game: n };
}
