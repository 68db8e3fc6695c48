// Learns `--algo auto`'s policy (host/solver/auto.ts) from the figures' measurements and evaluates
// it on instances it was not trained on (issue 17):
//   npm run bench:auto [-- --quick] [-- --runs FILE] [-- --no-write]
// 1. Data: bench/results/figures/runs.json (npm run bench:figures): every algorithm's time, nodes
//    and answer on every sampled instance of both databases. The instances are split by game
//    (even games train, odd games are held out), so the two instances a game may give, and a
//    near-miss and its 5-ply re-analysis, never fall on both sides.
// 2. Training, on the even games only: the candidate schedules are every single algorithm and
//    every probe (first algorithm for a node budget, then a second one from scratch); a schedule's
//    cost on an instance is simulated from the measurements (a probe answers when its algorithm
//    answered within the budget; else it costs its share of that run's time, plus the second
//    algorithm's time; unanswered runs count at the limit). A cost-minimising decision tree over
//    the features (plies, belief size, the two sides' material) picks one schedule per leaf.
// 3. Evaluation, on the odd games: auto with the learned policy and the best single algorithm on
//    that half (by the measured total) are timed again, alternately, in this process; their answers
//    must agree with the instances' classes. Acceptance: auto's total within 10% of the best single
//    algorithm's, at least as many solved within 1 s, and faster on at least one class.
// 4. Writes bench/results/auto.{md,json} and, unless --quick or --no-write, host/solver/autoPolicy.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { solve, ALGORITHMS, type Algorithm } from '../host/solver/solve';
import {
  solveAuto,
  scheduleText,
  type AutoPolicy,
  type AutoRule,
  type Schedule,
  type AutoFeatures,
} from '../host/solver/auto';
import { describeMachine, gitState, machine, progress, repoRoot, seconds, writeJson, writeText } from './lib/harness';
import { sampleInstances, type BenchInstance } from './lib/instances';
import type { Measurements, InstanceInfo } from './lib/measure';
import { PhaseProgress } from './lib/runStore';
import { flag, option, quick } from './lib/args';

const root = repoRoot();
const runsPath = option('--runs') ?? join(root, `bench/results/figures/runs${quick ? '-quick' : ''}.json`);
const data = JSON.parse(readFileSync(runsPath, 'utf8')) as Measurements;
const LIMIT_MS = data.options.limitMs;
const MIN_LEAF = quick ? 4 : 20;
const MAX_DEPTH = 3;
const PROBE_FIRST: Algorithm[] = ['ipns', 'gl-dbu', 'l-dub', 'e-pns', 'le-dfs'];
const PROBE_NODES = [300, 1000, 3000, 10_000, 30_000, 100_000];
const FEATURES: (keyof AutoFeatures)[] = ['ply', 'size', 'opponentPieces', 'ownPieces'];

const SCHEDULES: Schedule[] = [
  ...ALGORITHMS.map((first) => ({ first })),
  ...PROBE_FIRST.flatMap((first) =>
    PROBE_FIRST.filter((then) => then !== first).flatMap((then) =>
      PROBE_NODES.map((probeNodes) => ({ first, probeNodes, then })),
    ),
  ),
];

const featuresOf = (x: InstanceInfo): AutoFeatures => ({
  ply: x.ply,
  size: x.size,
  ownPieces: x.whitePieces,
  opponentPieces: x.blackPieces,
});
const timeOrLimit = (x: InstanceInfo, a: Algorithm) => data.runs[x.key][a]!.ms ?? LIMIT_MS;

/** Simulated cost (ms) of a schedule on an instance, from the measurements (see the file comment). */
function cost(x: InstanceInfo, s: Schedule): number {
  if (s.probeNodes === undefined || s.then === undefined) return timeOrLimit(x, s.first);
  const probe = data.runs[x.key][s.first]!;
  if (probe.ms !== null && probe.nodes <= s.probeNodes) return probe.ms;
  const spent = (probe.ms ?? LIMIT_MS) * Math.min(1, s.probeNodes / Math.max(1, probe.nodes));
  return spent + timeOrLimit(x, s.then);
}

const total = (xs: InstanceInfo[], s: Schedule) => xs.reduce((sum, x) => sum + cost(x, s), 0);

function bestSchedule(xs: InstanceInfo[]): { schedule: Schedule; cost: number } {
  let best = { schedule: SCHEDULES[0], cost: Infinity };
  for (const schedule of SCHEDULES) {
    const c = total(xs, schedule);
    if (c < best.cost - 1e-9) best = { schedule, cost: c };
  }
  return best;
}

type Ranges = Partial<Record<keyof AutoFeatures, [number, number]>>;

/** A cost-minimising decision tree (CART with the total simulated time as the impurity), as rules. */
function grow(xs: InstanceInfo[], ranges: Ranges, depth: number): AutoRule[] {
  const leaf = bestSchedule(xs);
  let split:
    | { feature: keyof AutoFeatures; threshold: number; cost: number; left: InstanceInfo[]; right: InstanceInfo[] }
    | undefined;
  if (depth < MAX_DEPTH && xs.length >= 2 * MIN_LEAF) {
    for (const feature of FEATURES) {
      const values = [...new Set(xs.map((x) => featuresOf(x)[feature]))].sort((a, b) => a - b);
      for (let i = 0; i + 1 < values.length; i++) {
        const threshold = values[i];
        const left = xs.filter((x) => featuresOf(x)[feature] <= threshold);
        const right = xs.filter((x) => featuresOf(x)[feature] > threshold);
        if (left.length < MIN_LEAF || right.length < MIN_LEAF) continue;
        const c = bestSchedule(left).cost + bestSchedule(right).cost;
        if (!split || c < split.cost) split = { feature, threshold, cost: c, left, right };
      }
    }
  }
  // a split must save at least 2% of the node's time: small gains are noise
  if (!split || split.cost > leaf.cost * 0.98) return [{ ...ranges, schedule: leaf.schedule }];
  const [lo, hi] = ranges[split.feature] ?? [0, Infinity];
  return [
    ...grow(split.left, { ...ranges, [split.feature]: [lo, split.threshold] }, depth + 1),
    ...grow(split.right, { ...ranges, [split.feature]: [split.threshold + 1, hi] }, depth + 1),
  ];
}

const held = (x: InstanceInfo) => x.game % 2 === 1;
const train = data.instances.filter((x) => !held(x));
const test = data.instances.filter(held);
const rules = grow(train, {}, 0);
const git = gitState(root, ['assembly', 'host']);
const policy: AutoPolicy = {
  trainedOn: `${runsPath.replace(`${root}/`, '')} (commit ${data.commit}, ${data.date.slice(0, 10)}): ${train.length} instances of even-numbered games; limit ${seconds(LIMIT_MS)}`,
  rules,
};
const singles = ALGORITHMS.map((a) => ({ a, train: total(train, { first: a }), test: total(test, { first: a }) }));
const bestTrainSingle = [...singles].sort((p, q) => p.train - q.train)[0];
const bestTestSingle = [...singles].sort((p, q) => p.test - q.test)[0];
// the alternative the core allows with two engines: two algorithms interleaved on one budget,
// each getting half of the time, answers at twice the faster one's time (simulated)
const portfolio = PROBE_FIRST.flatMap((a, i) =>
  PROBE_FIRST.slice(i + 1).map((b) => ({
    a,
    b,
    test: test.reduce((s, x) => s + 2 * Math.min(timeOrLimit(x, a), timeOrLimit(x, b)), 0),
  })),
).sort((p, q) => p.test - q.test)[0];
const simulatedAuto = test.reduce((s, x) => s + cost(x, policyChoice(x)), 0);

function policyChoice(x: InstanceInfo): Schedule {
  const f = featuresOf(x);
  const rule = rules.find((r) => FEATURES.every((k) => r[k] === undefined || (f[k] >= r[k]![0] && f[k] <= r[k]![1])));
  return rule!.schedule;
}

// ---- evaluation: auto and the best single algorithm timed again on the held-out half ----

const instances = new Map<string, BenchInstance>();
for (const path of data.options.databases)
  for (const x of await sampleInstances(join(root, path), data.options.perClass, data.options.plies ?? [3, 5]))
    instances.set(x.key, x);
const engine = createEngine('wasm');
const limits = { timeMs: LIMIT_MS, memoryBytes: data.options.memoryMiB * 2 ** 20 };
const baseline = bestTestSingle.a;
interface Timed {
  key: string;
  auto: number | null;
  autoAlgorithm: string;
  single: number | null;
  schedule: string;
}
const timed: Timed[] = [];
const phase = new PhaseProgress('auto [held-out]', test.length, progress);
for (const a of ALGORITHMS) solve(engine, instances.get(test[0].key)!.problem, a, { ...limits, timeMs: 50 }); // warm-up (also grows the arenas once)
test.forEach((info, i) => {
  const x = instances.get(info.key);
  if (!x) throw new Error(`${info.key} is not in the databases the measurements name`);
  const expected = x.cls === 'mate' ? 'proven' : 'disproven';
  // each twice, in alternating order, the faster run kept: the noise of a shared machine is one-sided
  const runs = [0, 1].map((k) => {
    const pair =
      k === i % 2
        ? {
            single: solve(engine, x.problem, baseline, limits),
            auto: solveAuto(engine, x.problem, limits, undefined, {}, policy),
          }
        : (() => {
            const auto = solveAuto(engine, x.problem, limits, undefined, {}, policy);
            return { single: solve(engine, x.problem, baseline, limits), auto };
          })();
    for (const [who, r] of [
      ['auto', pair.auto],
      [baseline, pair.single],
    ] as const) {
      if (r.answer !== 'unknown' && r.answer !== expected)
        throw new Error(`${who} answers ${r.answer} on ${x.key}, a ${x.cls}`);
    }
    return pair;
  });
  const fastest = (rs: { answer: string; stats: { ms: number } }[]) => {
    const ms = rs.filter((r) => r.answer !== 'unknown').map((r) => r.stats.ms);
    return ms.length ? Math.min(...ms) : null;
  };
  const auto = runs[0].auto;
  const schedule = scheduleText(auto.auto.schedule);
  if (schedule === baseline) {
    // the same search node for node (asserted): all four runs time one computation
    if (runs.some((r) => r.auto.stats.nodes !== r.single.stats.nodes))
      throw new Error(`auto's ${baseline} made other nodes than ${baseline} on ${x.key}`);
    const ms = fastest(runs.flatMap((r) => [r.auto, r.single]));
    timed.push({ key: x.key, auto: ms, autoAlgorithm: auto.algorithm, single: ms, schedule });
  } else {
    timed.push({
      key: x.key,
      auto: fastest(runs.map((r) => r.auto)),
      autoAlgorithm: auto.algorithm,
      single: fastest(runs.map((r) => r.single)),
      schedule,
    });
  }
  phase.step(i + 1, true, `held-out instances (${x.key})`);
});

// ---- report ----

const capped = (t: number | null) => t ?? LIMIT_MS;
const classes = [...new Set(test.map((x) => `${x.db}|${x.ply}|${x.cls}`))].sort();
const byKey = new Map(test.map((x) => [x.key, x]));
interface Row {
  name: string;
  n: number;
  other: number;
  auto: number;
  single: number;
  auto1s: number;
  single1s: number;
  autoSolved: number;
  singleSolved: number;
}
const row = (name: string, ts: Timed[]): Row => ({
  name,
  n: ts.length,
  other: ts.filter((t) => t.schedule !== baseline).length,
  auto: ts.reduce((s, t) => s + capped(t.auto), 0),
  single: ts.reduce((s, t) => s + capped(t.single), 0),
  auto1s: ts.filter((t) => t.auto !== null && t.auto <= 1000).length,
  single1s: ts.filter((t) => t.single !== null && t.single <= 1000).length,
  autoSolved: ts.filter((t) => t.auto !== null).length,
  singleSolved: ts.filter((t) => t.single !== null).length,
});
const rows = classes.map((c) => {
  const [db, ply, cls] = c.split('|');
  return row(
    `${db}: ${ply}-ply ${cls === 'mate' ? 'mates' : 'near-misses'}`,
    timed.filter((t) => {
      const x = byKey.get(t.key)!;
      return x.db === db && String(x.ply) === ply && x.cls === cls;
    }),
  );
});
const all = row('all held-out instances', timed);
const within10 = all.auto <= 1.1 * all.single;
const asMany = all.auto1s >= all.single1s;
// a class counts as beaten only where auto ran something else than the baseline on some instance (elsewhere a difference is noise)
const beats = rows.filter((r) => r.other > 0 && r.auto < r.single && r.auto1s >= r.single1s);
const rangeText = (r: AutoRule) =>
  FEATURES.filter((k) => r[k])
    .map((k) => {
      const [lo, hi] = r[k]!;
      return hi === Infinity
        ? `${k} ≥ ${lo}`
        : lo === hi
          ? `${k} = ${lo}`
          : lo === 0
            ? `${k} ≤ ${hi}`
            : `${k} ${lo}–${hi}`;
    })
    .join(', ') || 'otherwise';
const trainCount = (r: AutoRule) =>
  train.filter((x) => {
    const f = featuresOf(x);
    return FEATURES.every((k) => r[k] === undefined || (f[k] >= r[k]![0] && f[k] <= r[k]![1]));
  }).length;

const md = [
  '### Algorithm selection: `--algo auto`',
  '',
  `Machine: ${describeMachine(machine())}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `\`npm run bench:auto${quick ? ' -- --quick' : ''}\`: learned from \`${runsPath.replace(`${root}/`, '')}\` (\`npm run bench:figures\`, ${data.instances.length} instances of ${data.options.databases.join(' and ')}, limit ${seconds(LIMIT_MS)}). Training: the ${train.length} instances of even-numbered games; held out: the ${test.length} of odd-numbered games (a game's instances, and a near-miss and its re-analysis, stay on one side). Candidates: the 11 algorithms, and probes (one of ${PROBE_FIRST.join(', ')} for ${PROBE_NODES.map((n) => n.toLocaleString('en-US')).join(' / ')} nodes, then another from scratch), their costs simulated from the measurements; a decision tree over plies, belief size and material (at least ${MIN_LEAF} training instances a leaf) minimises the total time. The learned policy:`,
  '',
  '| Problems | Training instances | Schedule |',
  '|---|---:|---|',
  ...rules.map((r) => `| ${rangeText(r)} | ${trainCount(r)} | ${scheduleText(r.schedule)} |`),
  '',
  `Evaluation on the held-out half: auto and the best single algorithm on that half (${baseline}, chosen in hindsight; on the training half it was ${bestTrainSingle.a}) timed again in one process, each twice in alternating order, the faster run kept — where auto runs ${baseline} itself, the same search node for node (asserted), the fastest of the four runs counts for both (unsolved: counted at the limit; answers agree with the classes, asserted):`,
  '',
  `| Class | Instances | auto ran other than ${baseline} on | auto total | ${baseline} total | auto / ${baseline} | solved ≤ 1 s: auto | ${baseline} |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...[...rows, all].map(
    (r) =>
      `| ${r.name === all.name ? `**${r.name}**` : r.name} | ${r.n} | ${r.other} | ${seconds(r.auto)} | ${seconds(r.single)} | ${(r.auto / r.single).toFixed(2)} | ${r.auto1s} | ${r.single1s} |`,
  ),
  '',
  `Acceptance (issue 17): total within 10% of ${baseline}'s: **${within10 ? 'met' : 'not met'}** (${(all.auto / all.single).toFixed(2)}×); at least as many solved within 1 s: **${asMany ? 'met' : 'not met'}** (${all.auto1s} against ${all.single1s}); faster on at least one class where it ran something else: **${beats.length ? 'met' : 'not met'}**${beats.length ? ` (${beats.map((r) => `${r.name}: ${(r.single / r.auto).toFixed(2)}×`).join('; ')})` : ''}.`,
  '',
  `Every single algorithm on the held-out half, from the measurements (total, unsolved at the limit): ${[...singles]
    .sort((p, q) => p.test - q.test)
    .map((s) => `${s.a} ${seconds(s.test)}`)
    .join(
      ', ',
    )}; auto simulated ${seconds(simulatedAuto)}. The best two-engine portfolio (two algorithms interleaved on one budget, half each: twice the faster one's time), ${portfolio.a} + ${portfolio.b}, would take ${seconds(portfolio.test)}.`,
];
const suffix = quick ? '-quick' : '';
writeText(join(root, `bench/results/auto${suffix}.md`), md.join('\n'));
writeJson(join(root, `bench/results/auto${suffix}.json`), {
  machine: machine(),
  commit: git.commit,
  runs: runsPath.replace(`${root}/`, ''),
  policy,
  baseline,
  rows: [...rows, all],
  timed,
  acceptance: { within10, asMany, beats: beats.map((r) => r.name) },
});
if (!quick && !flag('--no-write')) {
  // one rule a line, in TypeScript (Infinity is no JSON)
  const literal = (v: unknown) =>
    JSON.stringify(v, (_, x) => (x === Infinity ? '__INFINITY__' : x))
      .replace(/"__INFINITY__"/g, 'Infinity')
      .replace(/"(\w+)":/g, '$1: ')
      .replace(/"/g, "'")
      .replace(/,(?=\S)/g, ', ')
      .replace(/\{(?=\S)/g, '{ ')
      .replace(/(?<=\S)\}/g, ' }');
  const ruleLines = policy.rules.map((r) => `    ${literal(r)},`).join('\n');
  writeFileSync(
    join(root, 'host/solver/autoPolicy.ts'),
    `// GENERATED by bench/auto.ts (npm run bench:auto) from ${runsPath.replace(`${root}/`, '')} — do not edit.\n// The policy \`krieg solve --algo auto\` follows (host/solver/auto.ts); bench/results/auto.md is its evaluation.\nimport type { AutoPolicy } from './policy';\n\nexport const AUTO_POLICY: AutoPolicy = {\n  trainedOn: ${literal(policy.trainedOn)},\n  rules: [\n${ruleLines}\n  ],\n};\n`,
  );
  progress('auto: host/solver/autoPolicy.ts written (rebuild the CLI: node scripts/build.mjs cli web)');
}
console.log(md.join('\n'));
