// Checkmate-search speed, in two parts.
// 1. The suites (part 1's harvested and hand-built problems): every algorithm on every problem,
//    WASM against JS on identical work (the same nodes and positions on both backends: asserted),
//    with the work per algorithm that shows what legal-first, greedy pruning, early termination,
//    proof numbers and incremental search save.
// 2. The problem database (data/problems.sqlite, or --db FILE; a sample of --per-class instances
//    of each ply and class, evenly spread over the ids, which follow generation order), mates and
//    near-misses at 3 and 5 ply: per algorithm the fraction solved within 0.01 / 0.1 / 1 / 10 s (as
//    the paper's Figure 4), the speed-up of gl-dbu and ipns over dfs, pns and the best black-box
//    algorithm per decile of difficulty, and the effect of each beyond-the-paper switch on the work.
//    Without a database, the 3- and 5-ply sets of test/data/problems/set-*.json.
// 3. Interleaved estimation and gl-dbu against estimation-then-gl-dbu on the near-misses' views
//    (the database stores each instance's view).
// Usage: npm run bench:solve [-- --quick] [-- --problems FILE …] [-- --sets-only | --suites-only]
//          [-- --limit-ms MS] [-- --db FILE] [-- --per-class N]
import { join } from 'node:path';
import { readFileSync, existsSync } from 'node:fs';
import { createEngine, BACKENDS, type BackendName } from '../host/node';
import { solve, ALGORITHMS, type Algorithm, type SolveResult, type Switches } from '../host/solver/solve';
import { parseProblems, type NamedProblem } from '../host/solver/problemFile';
import { defaultDbPath } from '../host/db/paths.node';
import type { View } from '../host/record/record';
import { solveView } from '../host/solver/solve';
import {
  describeMachine,
  gitState,
  group,
  machine,
  median,
  progress,
  repoRoot,
  seconds,
  writeJson,
  writeText,
} from './lib/harness';
import { sampleInstances } from './lib/instances';
import { flag, integerOption, option, options, quick } from './lib/args';

const RUNS = quick ? 1 : 3;
const NODE_LIMIT = 20_000_000;
/** Per-solve time limit on the sets (--limit-ms; default 10 s, 1 s with --quick): the curves stop there. */
const SET_LIMIT_MS = integerOption('--limit-ms', quick ? 1000 : 10_000);
const THRESHOLDS_MS = [10, 100, 1000, 10_000].filter((t) => t <= SET_LIMIT_MS);
/** Instances of each ply and class taken from the database (--per-class). */
const PER_CLASS = integerOption('--per-class', quick ? 20 : 60);
const BLACK_BOX: Algorithm[] = ['dfs', 'l-dfs', 'gl-dfs', 'gx-dfs', 'le-dfs', 'pns', 'e-pns'];
const SWITCHES: [string, Switches][] = [
  ['none', {}],
  ['orderAttempts', { orderAttempts: true }],
  ['orderPositions', { orderPositions: true }],
  ['positionTable', { positionTable: true }],
  ['beliefTable', { beliefTable: true }],
  ['deepen', { deepen: true }],
  ['all', { orderAttempts: true, orderPositions: true, positionTable: true, beliefTable: true, deepen: true }],
];

const root = repoRoot();
const given = options('--problems');
const setsOnly = flag('--sets-only');
const suitesOnly = flag('--suites-only');
const SETS = setsOnly
  ? []
  : given.length
    ? given.map((f) => ({ name: f, file: f }))
    : [
        { name: 'harvested', file: join(root, 'test/data/problems/harvested.json') },
        { name: 'hand-built', file: join(root, 'test/data/problems/hand.json') },
      ];

interface Run {
  answer: SolveResult['answer'];
  nodes: number;
  positions: number;
  peakBytes: number;
  ms: number;
}
interface Row {
  set: string;
  id: string;
  size: number;
  ply: number;
  algorithm: Algorithm;
  backend: BackendName;
  run: Run;
}

const rows: Row[] = [];
for (const set of SETS) {
  const problems: NamedProblem[] = parseProblems(readFileSync(set.file, 'utf8'), set.file);
  for (const backend of BACKENDS) {
    const engine = createEngine(backend);
    progress(`solve: ${set.name} (${problems.length} problems) on ${backend} …`);
    for (const problem of problems) {
      for (const algorithm of ALGORITHMS) {
        const runs: Run[] = [];
        for (let r = 0; r < RUNS + 1; r++) {
          // the first run is a warm-up
          const result = solve(engine, problem, algorithm, { nodes: NODE_LIMIT });
          runs.push({
            answer: result.answer,
            nodes: result.stats.nodes,
            positions: result.stats.positions,
            peakBytes: result.stats.peakBytes,
            ms: result.stats.ms,
          });
        }
        const timedRuns = runs.slice(1);
        rows.push({
          set: set.name,
          id: problem.id,
          size: problem.positions.length,
          ply: problem.ply,
          algorithm,
          backend,
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
    console.error(
      `different work on the two backends for ${key(r)}: ${JSON.stringify(w.run)} vs ${JSON.stringify(r.run)}`,
    );
    process.exit(1);
  }
}
const answers = new Map<string, Set<string>>();
for (const r of rows)
  if (r.run.answer !== 'unknown')
    answers.set(`${r.set}/${r.id}`, (answers.get(`${r.set}/${r.id}`) ?? new Set()).add(r.run.answer));
const disagreements = [...answers].filter(([, s]) => s.size > 1);
if (disagreements.length) {
  console.error(`algorithms disagree on ${disagreements.map(([id]) => id).join(', ')}`);
  process.exit(1);
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const md: string[] = [
  '### Checkmate search',
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
  md.push(
    '',
    `#### ${set.name}: ${ids.length} problems (${proven} proven, ${ids.length - proven} disproven or unknown), belief sizes ${Math.min(...sizes)}–${Math.max(...sizes)}`,
    '',
    '| Algorithm | Nodes | Positions | Unknown | WASM total | JS total | WASM/JS | Peak memory (max) | Fewer nodes than dfs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const algorithm of ALGORITHMS) {
    const w = inSet.filter((r) => r.algorithm === algorithm && r.backend === 'wasm');
    const j = inSet.filter((r) => r.algorithm === algorithm && r.backend === 'js');
    const sum = (xs: Row[], f: (r: Run) => number) => xs.reduce((s, r) => s + f(r.run), 0);
    const wasmMs = sum(w, (r) => r.ms);
    const jsMs = sum(j, (r) => r.ms);
    const fewer = w.filter(
      (r) => r.run.nodes < inSet.find((d) => d.id === r.id && d.algorithm === 'dfs' && d.backend === 'wasm')!.run.nodes,
    ).length;
    md.push(
      `| ${algorithm} | ${group(sum(w, (r) => r.nodes))} | ${group(sum(w, (r) => r.positions))} | ${w.filter((r) => r.run.answer === 'unknown').length} | ${seconds(wasmMs)} | ${seconds(jsMs)} | ${(jsMs / wasmMs).toFixed(2)}× | ${(Math.max(...w.map((r) => r.run.peakBytes)) / 2 ** 20).toFixed(2)} MiB | ${algorithm === 'dfs' ? '—' : `${fewer} of ${w.length}`} |`,
    );
    ratios.push(`${set.name} ${algorithm} ${(jsMs / wasmMs).toFixed(2)}×`);
  }
}
md.push(
  '',
  'Reading the table: l-dfs vs dfs is the effect of legal-first; gx-dfs vs dfs the effect of greedy pruning (both search the Illegal part first; with legal-first, gl-dfs vs l-dfs, the Illegal part is searched only after every legal part is proven, and here it never then fails, so greedy pruning never fires); le-dfs vs l-dfs and e-pns vs pns the effect of early termination; "fewer nodes than dfs" counts the problems on which the algorithm made fewer nodes than plain dfs. Peak memory includes the duplicate-position table, which is sized from the memory budget (256 MiB by default), not from the problem.',
);
const suffix = quick ? '-quick' : '';
if (!setsOnly) {
  writeJson(join(root, `bench/results/solve${suffix}.json`), {
    machine: m,
    commit: git.commit,
    dirty: git.dirty,
    date: new Date().toISOString(),
    runs: RUNS,
    nodeLimit: NODE_LIMIT,
    rows,
  });
  writeText(join(root, `bench/results/solve${suffix}.md`), md.join('\n'));
  console.log(md.join('\n'));
}
if (!suitesOnly) {
  // part 2 has its own results file (its own README block): it takes much longer to run
  const setsMd: string[] = [
    '### Checkmate search on the problem database (mates and near-misses)',
    '',
    `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  ];
  const sets = await benchSets(setsMd);
  if (sets !== undefined) {
    writeJson(join(root, `bench/results/solve-sets${suffix}.json`), {
      machine: m,
      commit: git.commit,
      dirty: git.dirty,
      date: new Date().toISOString(),
      sets,
    });
    writeText(join(root, `bench/results/solve-sets${suffix}.md`), setsMd.join('\n'));
    console.log(setsMd.join('\n'));
  }
}

// ---- part 2: the 3- and 5-ply sets ----

interface SetRun {
  id: string;
  ply: number;
  class: string;
  size: number;
  algorithm: Algorithm;
  answer: string;
  nodes: number;
  positions: number;
  ms: number;
}

/** A problem of part 2, with its view when it comes from the database. */
interface SetProblem {
  problem: NamedProblem;
  view?: View;
}

/** Part 2's problems: a sample of the database's instances, or else the sets' files; and what to call them. */
async function setProblems(): Promise<{ source: string; problems: SetProblem[] } | undefined> {
  const path = option('--db') ?? defaultDbPath();
  if (existsSync(path)) {
    const sample = await sampleInstances(path, PER_CLASS, [3, 5]);
    const problems: SetProblem[] = sample.map((x) => ({
      problem: { ...x.problem, id: `db:${x.id}`, class: x.cls },
      view: x.view,
    }));
    return {
      source: `a sample of the problem database \`${path.replace(root + '/', '')}\`: ${PER_CLASS} instances of each ply and class (or all, if fewer), evenly spread over the ids (generation order)`,
      problems,
    };
  }
  const files = [3, 5].map((ply) => join(root, `test/data/problems/set-${ply}ply.json`)).filter((f) => existsSync(f));
  if (!files.length) return undefined;
  return {
    source: 'every problem of `test/data/problems/set-3ply.json` and `set-5ply.json`',
    problems: files.flatMap((file) => parseProblems(readFileSync(file, 'utf8'), file).map((problem) => ({ problem }))),
  };
}

async function benchSets(md: string[]): Promise<unknown> {
  const limitMs = SET_LIMIT_MS;
  const given = await setProblems();
  if (!given) return undefined;
  const { source, problems: setList } = given;
  const engine = createEngine('wasm');
  const runs: SetRun[] = [];
  progress(`solve: ${setList.length} problems, every algorithm, limit ${seconds(limitMs)} …`);
  for (const { problem } of setList) {
    for (const algorithm of ALGORITHMS) {
      solve(engine, problem, algorithm, { timeMs: Math.min(limitMs, 50) }); // warm-up
      const r = solve(engine, problem, algorithm, { timeMs: limitMs });
      runs.push({
        id: problem.id,
        ply: problem.ply,
        class: problem.class ?? (problem.expect === 'proven' ? 'mate' : 'near-miss'),
        size: problem.positions.length,
        algorithm,
        answer: r.answer,
        nodes: r.stats.nodes,
        positions: r.stats.positions,
        ms: r.answer === 'unknown' ? Infinity : r.stats.ms,
      });
    }
  }
  // every answer that is not unknown agrees
  for (const id of new Set(runs.map((r) => `${r.ply}/${r.id}`))) {
    const answers = new Set(
      runs.filter((r) => `${r.ply}/${r.id}` === id && r.answer !== 'unknown').map((r) => r.answer),
    );
    if (answers.size > 1) {
      console.error(`algorithms disagree on ${id}`);
      process.exit(1);
    }
  }
  md.push(
    '',
    `#### Solving ability (WASM)`,
    '',
    `Each algorithm once (after a short warm-up) on ${source}; time limit ${seconds(limitMs)}; the fraction of problems solved within each time (as the paper's Figure 4). Every answer given agrees across algorithms (asserted).`,
  );
  for (const ply of [3, 5]) {
    for (const cls of ['mate', 'near-miss']) {
      const group_ = runs.filter((r) => r.ply === ply && r.class === cls);
      const n = new Set(group_.map((r) => r.id)).size;
      if (!n) continue;
      md.push(
        '',
        `${ply}-ply ${cls === 'mate' ? 'mates' : 'near-misses'} (${n} problems):`,
        '',
        `| Algorithm | ${THRESHOLDS_MS.map((t) => `≤ ${seconds(t)}`).join(' | ')} | Nodes (solved) | Positions (solved) |`,
        `|---|${THRESHOLDS_MS.map(() => '---:').join('|')}|---:|---:|`,
      );
      for (const algorithm of ALGORITHMS) {
        const mine = group_.filter((r) => r.algorithm === algorithm);
        const solved = mine.filter((r) => r.answer !== 'unknown');
        md.push(
          `| ${algorithm} | ${THRESHOLDS_MS.map((t) => `${((100 * mine.filter((r) => r.ms <= t).length) / n).toFixed(0)}%`).join(' | ')} | ${group(solved.reduce((s, r) => s + r.nodes, 0))} | ${group(solved.reduce((s, r) => s + r.positions, 0))} |`,
        );
      }
    }
  }
  // speed-ups per decile of difficulty (the best black-box time)
  md.push(
    '',
    '#### Speed-up of the incremental algorithms, per decile of difficulty',
    '',
    `Difficulty of a problem = the time of the best black-box algorithm on it (unsolved within the limit: ${seconds(limitMs)}, so ratios against it are lower bounds); deciles from easiest to hardest; each cell the median over the decile of time(black-box) / time(incremental), where both finished or the black-box one hit the limit (a lower bound then).`,
  );
  const speedups: Record<string, unknown> = {};
  for (const ply of [3, 5]) {
    for (const cls of ['mate', 'near-miss']) {
      const ids = [...new Set(runs.filter((r) => r.ply === ply && r.class === cls).map((r) => r.id))];
      if (ids.length < 10) continue;
      const time = (id: string, a: Algorithm) =>
        runs.find((r) => r.ply === ply && r.id === id && r.algorithm === a)!.ms;
      const best = (id: string) => Math.min(...BLACK_BOX.map((a) => time(id, a)));
      const capped = (ms: number) => (Number.isFinite(ms) ? ms : limitMs);
      const sorted = [...ids].sort((a, b) => capped(best(a)) - capped(best(b)));
      const pairs: [Algorithm, string][] = [
        ['gl-dbu', 'dfs'],
        ['gl-dbu', 'pns'],
        ['gl-dbu', 'best'],
        ['ipns', 'dfs'],
        ['ipns', 'pns'],
        ['ipns', 'best'],
      ];
      md.push(
        '',
        `${ply}-ply ${cls === 'mate' ? 'mates' : 'near-misses'} (${ids.length} problems):`,
        '',
        `| Decile | Best black-box (median) | ${pairs.map(([a, b]) => `${a} over ${b}`).join(' | ')} |`,
        `|---|---:|${pairs.map(() => '---:').join('|')}|`,
      );
      const table: unknown[] = [];
      for (let d = 0; d < 10; d++) {
        const part = sorted.slice(Math.floor((d * sorted.length) / 10), Math.floor(((d + 1) * sorted.length) / 10));
        const cells = pairs.map(([inc, bb]) => {
          const ratios = part
            .map((id) => {
              const t = time(id, inc);
              const base = bb === 'best' ? best(id) : time(id, bb as Algorithm);
              return Number.isFinite(t) ? capped(base) / Math.max(t, 0.001) : NaN;
            })
            .filter((x) => !Number.isNaN(x));
          return ratios.length ? median(ratios) : NaN;
        });
        table.push({ decile: d + 1, bestMs: median(part.map((id) => capped(best(id)))), cells });
        md.push(
          `| ${d + 1} | ${seconds(median(part.map((id) => capped(best(id)))))} | ${cells.map((c) => (Number.isNaN(c) ? '—' : `${c.toFixed(c >= 10 ? 0 : 1)}×`)).join(' | ')} |`,
        );
      }
      speedups[`${ply}-${cls}`] = table;
    }
  }
  const switches = benchSwitches(
    engine,
    setList.map((p) => p.problem),
    md,
  );
  const interleaving = benchInterleaving(engine, setList, md);
  return {
    source,
    limitMs,
    runs: runs.map((r) => ({ ...r, ms: Number.isFinite(r.ms) ? r.ms : null })),
    speedups,
    switches,
    interleaving,
  };
}

// ---- the switches: identical answers, work with and without ----

function benchSwitches(engine: ReturnType<typeof createEngine>, problems: NamedProblem[], md: string[]): unknown {
  const algorithms: Algorithm[] = ['le-dfs', 'gl-dbu', 'ipns'];
  const limitMs = SET_LIMIT_MS;
  const totals: Record<string, Record<string, { nodes: number; positions: number; ms: number; unknown: number }>> = {};
  for (const problem of problems) {
    for (const algorithm of algorithms) {
      let reference: string | undefined;
      for (const [name, sw] of SWITCHES) {
        const r = solve(engine, problem, algorithm, { timeMs: limitMs }, undefined, sw);
        const t = ((totals[algorithm] ??= {})[name] ??= { nodes: 0, positions: 0, ms: 0, unknown: 0 });
        if (r.answer === 'unknown') {
          t.unknown++;
          continue;
        }
        t.nodes += r.stats.nodes;
        t.positions += r.stats.positions;
        t.ms += r.stats.ms;
        if (reference === undefined) reference = r.answer;
        else if (r.answer !== reference) {
          console.error(`switch ${name} changes the answer of ${algorithm} on ${problem.id}`);
          process.exit(1);
        }
      }
    }
  }
  md.push(
    '',
    '#### Beyond the paper: each switch keeps every answer (asserted) and changes the work',
    '',
    `Totals over the problems above (WASM, limit ${seconds(limitMs)} per solve; problems a variant left unknown are counted apart).`,
    '',
    `| Algorithm | ${SWITCHES.map(([n]) => n).join(' | ')} |`,
    `|---|${SWITCHES.map(() => '---:').join('|')}|`,
  );
  for (const algorithm of algorithms) {
    md.push(`| ${algorithm} positions | ${SWITCHES.map(([n]) => group(totals[algorithm][n].positions)).join(' | ')} |`);
    md.push(
      `| ${algorithm} time | ${SWITCHES.map(([n]) => `${seconds(totals[algorithm][n].ms)}${totals[algorithm][n].unknown ? ` (+${totals[algorithm][n].unknown} unknown)` : ''}`).join(' | ')} |`,
    );
  }
  return totals;
}

// ---- part 3: interleaved estimation and search against estimation, then search ----

function benchInterleaving(engine: ReturnType<typeof createEngine>, problems: SetProblem[], md: string[]): unknown {
  const nearMisses = problems.filter((p) => p.view && p.problem.class === 'near-miss');
  if (!nearMisses.length) return undefined;
  progress(`solve: ${nearMisses.length} near-miss views, gl-dbu interleaved and sequential …`);
  const rows = nearMisses.map(({ problem, view }) => {
    const run = (interleave: boolean) => {
      solveView(engine, view!, problem.ply, 'gl-dbu', { interleave }, { timeMs: Math.min(SET_LIMIT_MS, 50) }); // warm-up
      const r = solveView(engine, view!, problem.ply, 'gl-dbu', { interleave }, { timeMs: SET_LIMIT_MS });
      return { answer: r.answer, ms: r.stats.ms, beliefPositions: r.beliefPositions };
    };
    const sequential = run(false);
    const interleaved = run(true);
    if (
      sequential.answer !== 'unknown' &&
      interleaved.answer !== 'unknown' &&
      sequential.answer !== interleaved.answer
    ) {
      console.error(`interleaving changes the answer on ${problem.id}`);
      process.exit(1);
    }
    return { id: problem.id, ply: problem.ply, size: problem.positions.length, sequential, interleaved };
  });
  md.push(
    '',
    '#### Interleaved estimation and search (gl-dbu) against estimation, then search, on the near-misses',
    '',
    `The near-misses above, each from its stored view (White's view up to the instance): sequential = the depth-first estimator makes the whole belief state, then gl-dbu searches it; interleaved = the estimator streams positions straight into gl-dbu, which can disprove before the belief state is complete. Times include the estimation; answers agree (asserted).`,
    '',
    '| Ply | Near-misses | Median belief | Positions estimated: sequential | interleaved (median) | Interleaved faster on | Median time: sequential | interleaved | Median speed-up |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const table: unknown[] = [];
  for (const ply of [3, 5]) {
    const mine = rows.filter(
      (r) => r.ply === ply && r.sequential.answer !== 'unknown' && r.interleaved.answer !== 'unknown',
    );
    if (!mine.length) continue;
    const faster = mine.filter((r) => r.interleaved.ms < r.sequential.ms).length;
    const cells = {
      ply,
      count: mine.length,
      belief: median(mine.map((r) => r.size)),
      sequentialPositions: median(mine.map((r) => r.sequential.beliefPositions)),
      interleavedPositions: median(mine.map((r) => r.interleaved.beliefPositions)),
      faster,
      sequentialMs: median(mine.map((r) => r.sequential.ms)),
      interleavedMs: median(mine.map((r) => r.interleaved.ms)),
      speedup: median(mine.map((r) => r.sequential.ms / Math.max(r.interleaved.ms, 0.001))),
    };
    table.push(cells);
    md.push(
      `| ${ply} | ${cells.count} | ${cells.belief} | ${cells.sequentialPositions} | ${cells.interleavedPositions} | ${faster} of ${mine.length} | ${cells.sequentialMs.toFixed(1)} ms | ${cells.interleavedMs.toFixed(1)} ms | ${cells.speedup.toFixed(2)}× |`,
    );
  }
  return { rows, table };
}
