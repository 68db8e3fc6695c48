// Exporting instances of the problem database (`krieg db export`): White's views (KPGN, tagged with
// the instance), the rows (JSON), or a problems file every command reads.
import { formatGames } from '../io/gamesFile';
import { makeProblems } from '../solver/problemFile';
import type { InstanceRow, ProblemDb } from './database.node';
import { instanceJson, problemOfInstance, viewOfInstance } from './instances.node';

export const EXPORT_FORMATS = ['kpgn', 'json', 'problems', 'sqlite'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The text of `rows` in `format` (sqlite is a byte copy of the file: the caller's). */
export function exportText(db: ProblemDb, rows: InstanceRow[], format: Exclude<ExportFormat, 'sqlite'>): string {
  if (format === 'problems') return makeProblems(rows.map((row) => problemOfInstance(db, row)));
  if (format === 'json')
    return (
      JSON.stringify(
        { format: 'krieg-problem-export', version: 1, instances: rows.map((row) => instanceJson(db, row)) },
        null,
        2,
      ) + '\n'
    );
  const views = rows.map((row) => {
    const view = viewOfInstance(db, row);
    return {
      ...view,
      tags: {
        ...view.tags,
        Instance: String(row.id),
        Ply: String(row.ply),
        Class: row.cls,
        BeliefSize: String(row.beliefSize),
      },
    };
  });
  return formatGames(views, 'kpgn');
}
