// Checkmate-search speed: every algorithm on every problem of the harvested set (and the
// hand-built suite), WASM against JS on identical work (the same nodes and positions on both
// backends: asserted), with the work per algorithm that shows what legal-first, greedy pruning,
// early termination and proof numbers save.
// Usage: npm run bench:solve [-- --quick] [-- --problems FILE …]
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createEngine, BACKENDS, type BackendName } from '../host/node';
import { solve, ALGORITHMS, type Algorithm, type SolveResult } from '../host/solver/solve';
import { parseProblems, type NamedProblem } from '../host/solver/problemFile';
import { describeMachine, gitState, group, machine, median, progress, repoRoot, seconds, writeJson, writeText } from './lib/harness';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 3;
const NODE_LIMIT = 20_000_000;
const root = repoRoot();
const given = process.argv.flatMap((a, i, all) => (a === '--problems' && all[i + 1] ? [all[i + 1]] : []));
const SETS = given.length ? given.map((f) => ({ name: f, file: f })) : [
  { name: 'harvested', file: join(root, 'test/data/problems/harvested.json') },
  { name: 'hand-built', file: join(root, 'test/data/problems/hand.json') },
];

interface Run { answer: SolveResult['answer']; nodes: number; positions: number; peakBytes: number; ms: number }
interface Row { set: string; id: string; size: number; ply: number; algorithm: Algorithm; backend: BackendName; run: Run }

const rows: Row[] = [];
for (const set of SETS) {
  const problems: NamedProblem[] = parseProblems(readFileSync(set.file, 'utf8'), set.file);
  for (const backend of BACKENDS) {
    const engine = createEngine(backend);
    progress(`solve: ${set.name} (${problems.length} problems) on ${backend} …`);
    for (const problem of problems) {
      for (const algorithm of ALGORITHMS) {
        const runs: Run[] = [];
        for (let r = 0; r < RUNS + 1; r++) { // the first run is a warm-up
          const result = solve(engine, problem, algorithm, { nodes: NODE_LIMIT });
          runs.push({ answer: result.answer, nodes: result.stats.nodes, positions: result.stats.positions, peakBytes: result.stats.peakBytes, ms: result.stats.ms });
        }
        const timedRuns = runs.slice(1);
        rows.push({
          set: set.name, id: problem.id, size: problem.positions.length, ply: problem.ply, algorithm, backend,
          run: { ...timedRuns[0], ms: median(timedRuns.map((r) => r.ms)) },
        });
      }
    }
  }
}

// identical work on both backends, and one answer per problem from every algorithm
const key = (r: Row) => `${r.set}/${r.id}/${r.algorithm}`;
const wasmRows = new Map(rows.filter((r) => r.backend === 'wasm').map((r) => [key(r), r]));
for (const r of rows.filter((x) => x.backend === 'js')) {
  const w = wasmRows.get(key(r))!;
  if (w.run.answer !== r.run.answer || w.run.nodes !== r.run.nodes || w.run.positions !== r.run.positions) {
    console.error(`different work on the two backends for ${key(r)}: ${JSON.stringify(w.run)} vs ${JSON.stringify(r.run)}`);
    process.exit(1);
  }
}
const answers = new Map<string, Set<string>>();
for (const r of rows) if (r.run.answer !== 'unknown') answers.set(`${r.set}/${r.id}`, (answers.get(`${r.set}/${r.id}`) ?? new Set()).add(r.run.answer));
const disagreements = [...answers].filter(([, s]) => s.size > 1);
if (disagreements.length) {
  console.error(`algorithms disagree on ${disagreements.map(([id]) => id).join(', ')}`);
  process.exit(1);
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const md: string[] = [
  '### Checkmate search (black-box algorithms)',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `Every algorithm on every problem, per backend; time = median of ${RUNS} runs after a warm-up; node limit ${group(NODE_LIMIT)} (a problem over it counts as unknown). Nodes = belief-state nodes made (OR, ATTEMPT, EXPAND), positions = physical positions generated. Both backends do exactly the same work (asserted: answers, nodes and positions), and every algorithm gives the same answer on every problem (asserted).`,
];
const ratios: string[] = [];
for (const set of SETS) {
  const inSet = rows.filter((r) => r.set === set.name);
  const ids = [...new Set(inSet.map((r) => r.id))];
  const proven = ids.filter((id) => answers.get(`${set.name}/${id}`)?.has('proven')).length;
  const sizes = [...new Set(inSet.filter((r) => r.algorithm === 'dfs' && r.backend === 'wasm').map((r) => r.size))];
  md.push('', `#### ${set.name}: ${ids.length} problems (${proven} proven, ${ids.length - proven} disproven or unknown), belief sizes ${Math.min(...sizes)}–${Math.max(...sizes)}`, '',
    '| Algorithm | Nodes | Positions | Unknown | WASM total | JS total | WASM/JS | Peak memory (max) | Fewer nodes than dfs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const algorithm of ALGORITHMS) {
    const w = inSet.filter((r) => r.algorithm === algorithm && r.backend === 'wasm');
    const j = inSet.filter((r) => r.algorithm === algorithm && r.backend === 'js');
    const sum = (xs: Row[], f: (r: Run) => number) => xs.reduce((s, r) => s + f(r.run), 0);
    const wasmMs = sum(w, (r) => r.ms);
    const jsMs = sum(j, (r) => r.ms);
    const fewer = w.filter((r) => r.run.nodes < inSet.find((d) => d.id === r.id && d.algorithm === 'dfs' && d.backend === 'wasm')!.run.nodes).length;
    md.push(`| ${algorithm} | ${group(sum(w, (r) => r.nodes))} | ${group(sum(w, (r) => r.positions))} | ${w.filter((r) => r.run.answer === 'unknown').length} | ${seconds(wasmMs)} | ${seconds(jsMs)} | ${(jsMs / wasmMs).toFixed(2)}× | ${(Math.max(...w.map((r) => r.run.peakBytes)) / 2 ** 20).toFixed(2)} MiB | ${algorithm === 'dfs' ? '—' : `${fewer} of ${w.length}`} |`);
    ratios.push(`${set.name} ${algorithm} ${(jsMs / wasmMs).toFixed(2)}×`);
  }
}
md.push('', 'Reading the table: l-dfs vs dfs is the effect of legal-first; gx-dfs vs dfs the effect of greedy pruning (both search the Illegal part first; with legal-first, gl-dfs vs l-dfs, the Illegal part is searched only after every legal part is proven, and here it never then fails, so greedy pruning never fires); le-dfs vs l-dfs and e-pns vs pns the effect of early termination; "fewer nodes than dfs" counts the problems on which the algorithm made fewer nodes than plain dfs. Peak memory includes the duplicate-position table, which is sized from the memory budget (256 MiB by default), not from the problem.');
writeJson(join(root, `bench/results/solve${quick ? '-quick' : ''}.json`), { machine: m, commit: git.commit, dirty: git.dirty, date: new Date().toISOString(), runs: RUNS, nodeLimit: NODE_LIMIT, rows });
writeText(join(root, `bench/results/solve${quick ? '-quick' : ''}.md`), md.join('\n'));
console.log(md.join('\n'));
