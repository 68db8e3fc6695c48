// Where a problem comes from: a problems file (krieg-problems JSON), an instance of the problem
// database (db:ID), a game file (a view, or a record and the side whose view: the belief at its end
// is estimated first), or FENs. `krieg solve` and `krieg verify` read their problem through here.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { WHITE } from '../constants';
import { readTextFile } from '../io/files';
import { viewInFile } from '../referee/validate';
import type { RuleSet } from '../record/rules';
import type { Side, View } from '../record/record';
import { estimateBelief } from '../belief/estimate';
import { inconsistentMessage } from '../belief/describe';
import { DB_PREFIX, dbPath, withDb, instanceById, problemOfInstance, viewOfInstance } from '../db/instances';
import { parseProblems, PROBLEMS_FORMAT } from './problemFile';
import type { Problem } from './solve';

/** The belief positions accepted from a game file when no limit is given. */
export const DEFAULT_BELIEF_LIMIT = 10_000;

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
}

const fileOf = (request: ProblemRequest) => (request.file === '-' || request.file === '' ? undefined : request.file);

/** The text of a problems file, or undefined when `file` is some other file (a game file). */
function problemsText(file: string): string | undefined {
  const text = readTextFile(file);
  return new RegExp(`"format"\\s*:\\s*"${PROBLEMS_FORMAT}"`).test(text) ? text : undefined;
}

/** The problem a request names, and a description of where it came from. */
export async function loadProblem(
  engine: Engine,
  request: ProblemRequest,
): Promise<{ problem: Problem; source: string }> {
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
  const { view, game } = viewInFile(engine, file, request.as, request.game);
  const limit = request.beliefLimit ?? DEFAULT_BELIEF_LIMIT;
  const result = estimateBelief(engine, view, 'dfs', { positions: limit });
  if (result.outcome === 'inconsistent')
    throw fail('inconsistent', { text: inconsistentMessage(view, result.failedEvent, result.failedPly) });
  if (result.outcome !== 'complete')
    throw fail('belief-too-large', {
      text: `${file}: ${view.as}'s belief has more than ${limit} positions (--limit-belief)`,
    });
  const positions = result.handles.map((h) => engine.fen(h));
  const toMove = positions.length && engine.setup(result.handles[0]).side === WHITE ? 'white' : 'black';
  if (toMove !== view.as) throw fail('not-to-move', { source: file, toMove, side: view.as });
  return {
    problem: { rules: view.rules, positions, ply: need(ply), materialWins },
    source: `${file}, game ${game}, ${view.as}'s belief (${positions.length} positions)`,
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
