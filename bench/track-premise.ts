// The premise of issue 36, tested directly: on a view where the pool dies, does a pawn trajectory
// that the view's pawn constraints allow but that is not the truth's let the pieces be completed?
// For each view (a random game, as track-ab.ts and the reach run play them), a relaxed model of
// the opponent's pawns (lib/pawnTrajectories.ts: his pieces abstracted away) is searched for
// several trajectories (randomized depth-first search with nogoods, one per seed); the truth's own
// trajectory is checked against the model first (it must satisfy it: the model is sound). Then
// the tracker (with its standbys, at a work budget per event, as track-ab's arms) follows the view
// once per trajectory with the opponent's pawn decisions prescribed (Tracker.prescribePawns: his
// pool updates and descents keep only histories whose pawns do what the trajectory says), and
// once with the truth's, and once free if asked (--free). A prescribed trajectory the pieces
// cannot complete shows as plies with no position held, or as a rejected event (the exact belief
// restricted to the trajectory emptied: proved impossible).
//
// Usage: npm run bench:track-premise -- [--views english:32:black,…] [--solutions 3]
//          [--work 2000000] [--max-plies 300] [--nodes 2000000] [--free] [--solve-only: no tracking]
//          [--diverge 0,60,100: solver trajectories held to the truth's decisions before each ply]
//          [--structures [--exact-max N]: the exact belief's pawn structures against the model's] [--skip-truth] [--stop-after-empty N: an arm ends after N plies in a row with no position]
// Writes bench/results/track-premise.{json,md} (--out NAME: bench/results/NAME.{json,md}).
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { preset, PRESET_NAMES, type PresetName } from '../host/record/rules';
import { viewOf, SIDES, type Side } from '../host/record/record';
import { randomGame, seededRandom } from '../host/referee/game';
import { Tracker } from '../host/belief/tracker';
import { replaySetups } from '../host/referee/replay';
import { describeMachine, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';
import { flag, integerOption, option } from './lib/args';
import { PawnProblem, truthPlan } from './lib/pawnTrajectories';
import { parseFen, pieceColor, pieceType } from '../host/notation/fen';
import { PAWN } from '../host/constants';

const WORK = integerOption('--work', 2_000_000);
const MAX_PLIES = integerOption('--max-plies', 300);
const SOLUTIONS = integerOption('--solutions', 3, 0);
const NODES = integerOption('--nodes', 2_000_000);
const FREE = flag('--free');
const SOLVE_ONLY = flag('--solve-only');
const PIECE_FIRST = Number(option('--piece-first') ?? 0.5);
/** Plies before which a solver trajectory is held to the truth's decisions (0: free from the start). */
const DIVERGE = (option('--diverge') ?? '0').split(',').map(Number);
const SKIP_TRUTH = flag('--skip-truth');
const OUT = option('--out') ?? 'track-premise';
/** Compare, at the last ply of the tracker's exact phase, the pawn structures of the exact belief with those the model allows. */
const STRUCTURES = flag('--structures');
const EXACT_MAX = integerOption('--exact-max', 1_000_000);
/** An arm stops once this many plies in a row held no position (0: never): it has died. */
const STOP_AFTER_EMPTY = integerOption('--stop-after-empty', 0, 0);
const views = (option('--views') ?? 'english:32:black').split(',').map((v) => {
  const [p, g, as] = v.split(':');
  if (!(PRESET_NAMES as readonly string[]).includes(p) || !(Number(g) >= 1) || !SIDES.includes(as as Side)) {
    process.stderr.write(`track-premise: --views: ${v} is not PRESET:GAME:SIDE\n`);
    process.exit(2);
  }
  return { preset: p as PresetName, game: Number(g), as: as as Side };
});

interface Looseness {
  /** The last event and ply of the exact phase, the positions and pawn structures of the belief then, the structures the model allows. */
  event: number;
  ply: number;
  positions: number;
  beliefStructures: number;
  modelStructures: number | null;
}

/** The exact belief's pawn structures against the model's, at the last event the tracker's layer is exact. */
function compareStructures(key: (typeof views)[number], problem: PawnProblem): Looseness | null {
  const engine = createEngine('wasm', 1 << 12);
  engine.setRules(preset(key.preset));
  const record = randomGame(engine, key.game, { maxPlies: MAX_PLIES });
  const view = viewOf(record, key.as);
  const options = { seed: key.game, exactMax: EXACT_MAX };
  const tracker = Tracker.create(engine, { rules: view.rules, as: view.as, start: view.start }, options);
  const his = key.as === 'white' ? 1 : 0;
  let found: Looseness | null = null;
  for (let i = 0; i < view.events.length; i++) {
    const o = tracker.observe(view.events[i], { work: 1e9 });
    if (tracker.mode !== 'exact') break;
    if (view.events[i].type !== 'opponent-move') continue;
    const structures = new Set(
      tracker.positions().map((fen) =>
        parseFen(fen)
          .board.flatMap((c, s) => (c !== 0 && pieceColor(c) === his && pieceType(c) === PAWN ? [s] : []))
          .join(),
      ),
    );
    found = { event: i, ply: o.ply, positions: o.size, beliefStructures: structures.size, modelStructures: null };
  }
  tracker.free();
  if (!found) return null;
  const steps = problem.steps.findIndex((s) => s.event > found!.event);
  found.modelStructures = problem.structuresAfter(steps < 0 ? problem.steps.length : steps, 5_000_000)?.size ?? null;
  return found;
}

const describeLooseness = (l: Looseness) =>
  `after the last opponent turn of the exact phase (ply ${l.ply}) the belief holds ${l.positions} positions with ${l.beliefStructures} pawn structures of his; the pawn model allows ${l.modelStructures ?? 'over 5,000,000 states of'} structures`;

interface Arm {
  arm: string;
  /** The ply before which it follows the truth's decisions, and the ply of its first other decision (-1: none). */
  divergeAt: number;
  firstOtherPly: number;
  /** His turns whose pawn decision differs from the truth's, and those after which his pawn structure differs. */
  decisionsDiffer: number;
  structuresDiffer: number;
  plies: number;
  emptyPlies: number;
  /** The first event after which no position was held, and the ply of the event the tracker rejected (the trajectory proved impossible), or -1. */
  firstDeadEvent: number;
  firstDeadPly: number;
  rejectedAtPly: number;
  ms: number;
}

function track(
  key: (typeof views)[number],
  plan: number[] | null,
  arm: string,
  truth: number[],
  structures: { truth: (string | null)[]; mine: (string | null)[] },
  diverge: { divergeAt: number; firstOtherPly: number },
): Arm {
  const engine = createEngine('wasm', 1 << 12);
  engine.setRules(preset(key.preset));
  const record = randomGame(engine, key.game, { maxPlies: MAX_PLIES });
  const view = viewOf(record, key.as);
  const tracker = Tracker.create(engine, { rules: view.rules, as: view.as, start: view.start }, { seed: key.game });
  if (plan) tracker.prescribePawns(plan);
  const started = performance.now();
  const out: Arm = {
    arm,
    ...diverge,
    decisionsDiffer: plan ? plan.filter((w, e) => w !== -1 && w !== truth[e]).length : 0,
    structuresDiffer: structures.mine.filter((s, i) => s !== structures.truth[i]).length,
    plies: 0,
    emptyPlies: 0,
    firstDeadEvent: -1,
    firstDeadPly: -1,
    rejectedAtPly: -1,
    ms: 0,
  };
  let last = { ply: 0, size: 1 };
  for (let i = 0; i < view.events.length; i++) {
    const o = tracker.observe(view.events[i], { work: WORK });
    if (o.status === 'inconsistent') {
      out.rejectedAtPly = o.ply;
      break;
    }
    if (o.ply !== last.ply && last.size === 0) out.emptyPlies++;
    if (STOP_AFTER_EMPTY > 0 && out.firstDeadPly >= 0 && o.ply - out.firstDeadPly >= STOP_AFTER_EMPTY && o.size === 0) {
      last = o;
      break;
    }
    if (o.size === 0 && out.firstDeadEvent < 0) {
      out.firstDeadEvent = i;
      out.firstDeadPly = o.ply;
    }
    last = o;
  }
  if (last.size === 0 && out.rejectedAtPly < 0) out.emptyPlies++;
  out.plies = last.ply;
  out.ms = performance.now() - started;
  tracker.free();
  return out;
}

const results = views.map((key) => {
  const name = `${key.preset}:${key.game}:${key.as}`;
  const engine = createEngine('wasm', 1 << 12);
  engine.setRules(preset(key.preset));
  const record = randomGame(engine, key.game, { maxPlies: MAX_PLIES });
  const view = viewOf(record, key.as);
  const setups = replaySetups(engine, record);
  const moves = record.events.flatMap((e) => (e.type === 'attempt' && e.percept.answer === 'legal' ? [e.attempt] : []));
  const problem = new PawnProblem(view, setups);
  const truth = truthPlan(view, setups, moves, key.as);
  const truthStructures = problem.follow(truth);
  const sound = !truthStructures.includes(null);
  const hisTurns = truthStructures.length;
  const captures = view.events.filter((e) => e.type === 'opponent-move' && e.percept?.capture !== undefined).length;
  progress(
    `${name}: ${hisTurns} opponent turns, ${captures} of his captures; the truth's trajectory ${sound ? 'satisfies' : 'BREAKS'} the model`,
  );
  const plyBefore: number[] = [];
  let ply = 0;
  for (const e of view.events) {
    plyBefore.push(ply);
    if ((e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)) ply++;
  }
  const firstOther = (plan: number[]) => {
    const e = plan.findIndex((w, i) => w !== -1 && w !== truth[i]);
    return e < 0 ? -1 : plyBefore[e];
  };
  const solutions: { seed: number; divergeAt: number; nodes: number; plan: number[] | null }[] = [];
  for (const divergeAt of DIVERGE) {
    const forced = truth.map((w, e) => (plyBefore[e] < divergeAt ? w : -1));
    let kept = 0;
    for (let seed = 1; kept < SOLUTIONS && seed <= 4 * SOLUTIONS; seed++) {
      const found = problem.solve(seededRandom(seed), NODES, { pieceFirst: PIECE_FIRST, forced });
      if (found && firstOther(found.plan) < 0) continue; // the truth's own: not what is asked
      kept++;
      solutions.push({ seed, divergeAt, nodes: found?.nodes ?? NODES, plan: found?.plan ?? null });
      progress(
        `${name}: from ply ${divergeAt}, solver seed ${seed}: ${found ? `a trajectory in ${found.nodes} states, ${found.restarts} restarts, first other decision at ply ${firstOther(found.plan)}` : `none within ${NODES} states`}`,
      );
    }
  }
  const arms: Arm[] = [];
  const run = (plan: number[] | null, arm: string, divergeAt = -1) => {
    const mine = plan ? problem.follow(plan) : truthStructures;
    const diverge = { divergeAt, firstOtherPly: plan ? firstOther(plan) : -1 };
    const r = track(key, plan, arm, truth, { truth: truthStructures, mine }, diverge);
    progress(
      `${name} ${arm}: ${r.emptyPlies} empty plies of ${r.plies}${r.rejectedAtPly >= 0 ? `, rejected at ply ${r.rejectedAtPly}` : ''}; ${r.decisionsDiffer} decisions and ${r.structuresDiffer} of ${hisTurns} structures differ from the truth's (${Math.round(r.ms / 1000)} s)`,
    );
    arms.push(r);
  };
  const looseness = STRUCTURES ? compareStructures(key, problem) : null;
  if (looseness) progress(`${name}: ${describeLooseness(looseness)}`);
  if (SOLVE_ONLY) return { view: name, hisTurns, captures, truthSatisfiesModel: sound, looseness, solutions: [], arms };
  if (FREE) run(null, 'free');
  if (!SKIP_TRUTH) run(truth, 'truth');
  for (const s of solutions) if (s.plan) run(s.plan, `solver seed ${s.seed}`, s.divergeAt);
  return {
    view: name,
    hisTurns,
    captures,
    truthSatisfiesModel: sound,
    solutions: solutions.map(({ seed, divergeAt, nodes, plan }) => ({ seed, divergeAt, nodes, found: plan !== null })),
    arms,
  };
});

const root = repoRoot();
const lines = [
  '# The premise of issue 36: do solver trajectories let the pieces be completed? (bench/track-premise.ts)',
  '',
  `Random games, the views listed; the tracker (with its standbys) at ${WORK.toLocaleString('en-US')} work an event (WASM), ply cap ${MAX_PLIES}, the opponent's pawn decisions prescribed by a trajectory: the truth's, or one the relaxed pawn model's search found (up to ${NODES.toLocaleString('en-US')} states a search) that is not the truth's. Machine: ${describeMachine(machine())}.`,
  '',
  "| view | arm | truth's decisions before ply | first other decision at ply | decisions ≠ truth | structures ≠ truth | plies | empty plies | first empty ply | rejected at ply | s |",
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...results.flatMap((r) =>
    r.arms.map(
      (a) =>
        `| ${r.view} | ${a.arm} | ${a.divergeAt < 0 ? 'all' : a.divergeAt} | ${a.firstOtherPly < 0 ? '—' : a.firstOtherPly} | ${a.decisionsDiffer} | ${a.structuresDiffer} of ${r.hisTurns} | ${a.plies} | ${a.emptyPlies} | ${a.firstDeadPly < 0 ? '—' : a.firstDeadPly} | ${a.rejectedAtPly < 0 ? '—' : a.rejectedAtPly} | ${Math.round(a.ms / 1000)} |`,
    ),
  ),
  '',
  ...results.map(
    (r) =>
      `${r.view}: ${r.looseness ? `${describeLooseness(r.looseness)}; ` : ''}${r.hisTurns} opponent turns, ${r.captures} captures of his; the truth's trajectory ${r.truthSatisfiesModel ? 'satisfies' : 'breaks'} the pawn model; searches: ${r.solutions.map((s) => `seed ${s.seed} from ply ${s.divergeAt} ${s.found ? `found in ${s.nodes} states` : 'none'}`).join(', ')}.`,
  ),
];
writeText(join(root, `bench/results/${OUT}.md`), lines.join('\n'));
writeJson(join(root, `bench/results/${OUT}.json`), {
  work: WORK,
  maxPlies: MAX_PLIES,
  nodes: NODES,
  machine: machine(),
  results,
});
