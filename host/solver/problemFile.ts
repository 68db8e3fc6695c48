// Problem files: checkmate problems given as explicit belief states (a JSON document), as the test
// suite, the benchmarks and `krieg solve` read them. A problem from a game view is made by
// estimating the view's belief state instead (host/cli/solve.ts).
//
//   { "format": "krieg-problems", "version": 1,
//     "problems": [ { "id": "kq-corner", "rules": "berkeley", "overrides": { "stalemate": "loss" },
//                     "ply": 3, "positions": ["7k/8/6K1/8/8/8/8/6Q1 w - - 0 1", …],
//                     "materialWins": false, "expect": "proven", "class": "mate", "note": "why" } ] }
//
// `rules` is a preset name; `overrides` (optional) changes single flags; `expect` (optional) is the
// answer the problem's author worked out, `note` says how; `class` (optional) is "mate" (a guaranteed
// mate) or "near-miss" (no guaranteed mate, but one strategy mates in at least half the positions).
import { KriegError, fail } from '../errors';
import { preset, withOverrides, describeRules, type RuleSet } from '../record/rules';
import type { Problem, Answer } from './solve';

export const PROBLEMS_FORMAT = 'krieg-problems';
export const PROBLEMS_VERSION = 1;

export type ProblemClass = 'mate' | 'near-miss';

export interface NamedProblem extends Problem {
  id: string;
  expect?: Exclude<Answer, 'unknown'>;
  class?: ProblemClass;
  note?: string;
}

/** Reads a problems document; errors name the problem and field. */
export function parseProblems(text: string, source = 'problems'): NamedProblem[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw fail('bad-problems', { source, what: `not JSON (${(error as Error).message})` });
  }
  const bad = (where: string, what: string): never => {
    throw fail('bad-problems', { source, where, what });
  };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return bad('document', 'expected an object');
  const top = doc as Record<string, unknown>;
  if (top.format !== PROBLEMS_FORMAT) bad('format', `expected "${PROBLEMS_FORMAT}"`);
  if (top.version !== PROBLEMS_VERSION)
    bad('version', `unsupported version ${JSON.stringify(top.version)} (this krieg reads ${PROBLEMS_VERSION})`);
  if (!Array.isArray(top.problems)) return bad('problems', 'expected an array');
  const ids = new Set<string>();
  return top.problems.map((p, i): NamedProblem => {
    const where = `problem ${i + 1}`;
    if (typeof p !== 'object' || p === null) return bad(where, 'expected an object');
    const q = p as Record<string, unknown>;
    const id = typeof q.id === 'string' && q.id.length > 0 ? q.id : bad(where, 'missing "id"');
    if (ids.has(id)) bad(where, `duplicate id '${id}'`);
    ids.add(id);
    const at = `problem '${id}'`;
    let rules: RuleSet;
    try {
      rules = preset(typeof q.rules === 'string' ? q.rules : 'berkeley');
      if (q.overrides !== undefined) {
        if (typeof q.overrides !== 'object' || q.overrides === null) bad(`${at}.overrides`, 'expected an object');
        rules = withOverrides(rules, q.overrides as Record<string, unknown>);
      }
    } catch (error) {
      if (error instanceof KriegError && error.code !== 'bad-problems') return bad(`${at}.rules`, error.message);
      throw error;
    }
    if (!Number.isInteger(q.ply) || (q.ply as number) < 1) bad(`${at}.ply`, 'expected a positive integer');
    if (!Array.isArray(q.positions) || q.positions.length === 0 || !q.positions.every((f) => typeof f === 'string'))
      bad(`${at}.positions`, 'expected a non-empty array of FEN strings');
    if (q.expect !== undefined && q.expect !== 'proven' && q.expect !== 'disproven')
      bad(`${at}.expect`, 'expected "proven" or "disproven"');
    if (q.class !== undefined && q.class !== 'mate' && q.class !== 'near-miss')
      bad(`${at}.class`, 'expected "mate" or "near-miss"');
    const problem: NamedProblem = { id, rules, ply: q.ply as number, positions: q.positions as string[] };
    if (q.materialWins === true) problem.materialWins = true;
    if (q.expect !== undefined) problem.expect = q.expect as NamedProblem['expect'];
    if (q.class !== undefined) problem.class = q.class as ProblemClass;
    if (typeof q.note === 'string') problem.note = q.note;
    return problem;
  });
}

/** Writes problems as a document parseProblems reads back. */
export function makeProblems(problems: NamedProblem[]): string {
  const docs = problems.map((p) => {
    const { variant, overrides } = describeRules(p.rules);
    return {
      id: p.id,
      rules: variant,
      ...(Object.keys(overrides).length ? { overrides } : {}),
      ply: p.ply,
      ...(p.materialWins ? { materialWins: true } : {}),
      ...(p.expect ? { expect: p.expect } : {}),
      ...(p.class ? { class: p.class } : {}),
      ...(p.note ? { note: p.note } : {}),
      positions: p.positions,
    };
  });
  return JSON.stringify({ format: PROBLEMS_FORMAT, version: PROBLEMS_VERSION, problems: docs }, null, 2) + '\n';
}
