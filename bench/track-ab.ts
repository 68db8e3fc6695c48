// Tracker options compared on the game's truth (issue 13): does a change keep the pool near the
// true position? The reach run (track.ts) counts only plies with no position held, a rare and
// chaotic outcome (a view dies or not by the seed); this bench also measures how often the pool
// still holds the truth's *class*: the opponent's material (which of his men are left) and that
// material with his pawn structure (where his pawns stand). A pool that has lost the truth's
// class is consistent with the view so far but dies when an announcement needs it (a pawn try, a
// capture by a man the pool says is gone).
//
// Each view of a random game (the core's random player, as the reach run plays them) is tracked by
// one tracker per arm (a set of tracker options; with its standbys, as in the reach run), at a
// *work* budget per event: the outcome does not depend on the machine's load, so arms can run side
// by side. At every
// `--every`-th event in pool mode the pool's FENs are read (positions() in layer order: no random
// draw, so measuring does not change the run) and compared with the true position.
//
// Usage: npm run bench:track-ab -- --arm base={} --arm floor='{"checkpointSize":2048}'
//          (--views english:2:black,cincinnati:1:white | --presets english --games 8)
//          [--work 2000000] [--every 5] [--max-plies 300]
// The first arm is the baseline the others are compared with. Every view an arm tracks is stored
// at once (.cache/track/ab-<arm options>.jsonl, keyed by view, work, sampling and ply cap, under a
// hash of the code), so a run resumes where it stopped and a later run with other arms reuses the
// baseline. Writes bench/results/track-ab.{json,md}.
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createEngine } from '../host/node';
import { preset, PRESET_NAMES, type PresetName } from '../host/record/rules';
import { viewOf, SIDES, type GameRecord, type Side } from '../host/record/record';
import { randomGame } from '../host/referee/game';
import { Tracker, TRACKER_OPTION_NAMES, type TrackerOptions } from '../host/belief/tracker';
import { replaySetups } from '../host/referee/replay';
import { parseFen, pieceColor, pieceType } from '../host/notation/fen';
import { PAWN } from '../host/constants';
import { describeMachine, machine, measuredCode, progress, repoRoot, writeJson, writeText } from './lib/harness';
import { integerOption, option, options } from './lib/args';
import { RunStore } from './lib/runStore';

interface Arm {
  name: string;
  options: TrackerOptions;
}
interface ViewKey {
  preset: PresetName;
  game: number;
  as: Side;
}
/** What one arm measured on one view. */
interface ArmView {
  plies: number;
  /** Plies after which no position was held, and the first event that left none (-1: never). */
  emptyPlies: number;
  firstDeadEvent: number;
  /** Pool events sampled, and of them those whose pool held the truth's material / material and pawn structure. */
  sampled: number;
  truthMaterial: number;
  truthStructure: number;
  ms: number;
}

function usage(text: string): never {
  process.stderr.write(
    `track-ab: ${text}\nusage: npm run bench:track-ab -- --arm NAME=JSON [--arm NAME=JSON …] (--views PRESET:GAME:SIDE,… | --presets P,… --games N) [--work W] [--every K] [--max-plies N]\n`,
  );
  process.exit(2);
}

function parseArms(): Arm[] {
  const given = options('--arm');
  if (given.length === 0) usage('give at least one --arm (the first is the baseline)');
  return given.map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) usage(`--arm ${text}: NAME=JSON`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(eq + 1));
    } catch {
      usage(`--arm ${text}: the options are not JSON`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      usage(`--arm ${text}: options are an object`);
    for (const [k, v] of Object.entries(parsed))
      if (!(TRACKER_OPTION_NAMES as string[]).includes(k) || typeof v !== 'number')
        usage(`--arm ${text}: ${k} is not a numeric tracker option (${TRACKER_OPTION_NAMES.join(', ')})`);
    return { name: text.slice(0, eq), options: parsed as TrackerOptions };
  });
}

function parseViews(): ViewKey[] {
  const views = option('--views');
  if (views !== undefined)
    return views.split(',').map((v) => {
      const [p, g, as] = v.split(':');
      if (!(PRESET_NAMES as readonly string[]).includes(p) || !(Number(g) >= 1) || !SIDES.includes(as as Side))
        usage(`--views: ${v} is not PRESET:GAME:SIDE (${PRESET_NAMES.join(', ')}; game ≥ 1; white or black)`);
      return { preset: p as PresetName, game: Number(g), as: as as Side };
    });
  const presets = option('--presets')?.split(',');
  const games = integerOption('--games', 0, 1);
  if (!presets || games === 0) usage('give --views, or --presets with --games');
  for (const p of presets)
    if (!(PRESET_NAMES as readonly string[]).includes(p))
      usage(`--presets: ${p} is not one of ${PRESET_NAMES.join(', ')}`);
  return presets.flatMap((p) =>
    Array.from({ length: games }, (_, i) => SIDES.map((as) => ({ preset: p as PresetName, game: i + 1, as }))).flat(),
  );
}

/** The opponent's men on a board (piece codes by square): his material (codes, sorted) and his pawns' squares. */
function classOf(board: number[], as: Side): { material: string; pawns: string } {
  const his = as === 'white' ? 1 : 0;
  const men: number[] = [];
  const pawns: number[] = [];
  board.forEach((code, square) => {
    if (code === 0 || pieceColor(code) !== his) return;
    men.push(code);
    if (pieceType(code) === PAWN) pawns.push(square);
  });
  return { material: men.sort((a, b) => a - b).join(), pawns: pawns.join() };
}

function measure(arm: Arm, record: GameRecord, key: ViewKey): ArmView {
  const engine = createEngine('wasm', 1 << 12);
  const view = viewOf(record, key.as);
  const truth = replaySetups(engine, record).map((setup) => classOf(setup.board, key.as));
  const tracker = Tracker.create(
    engine,
    { rules: view.rules, as: view.as, start: view.start },
    { seed: key.game, ...arm.options },
  );
  const started = performance.now();
  const out: ArmView = {
    plies: 0,
    emptyPlies: 0,
    firstDeadEvent: -1,
    sampled: 0,
    truthMaterial: 0,
    truthStructure: 0,
    ms: 0,
  };
  let poolEvents = 0;
  let last = { ply: 0, size: 1 };
  for (let i = 0; i < view.events.length; i++) {
    const o = tracker.observe(view.events[i], { work: WORK });
    if (o.ply !== last.ply && last.size === 0) out.emptyPlies++;
    if (o.size === 0 && out.firstDeadEvent < 0) out.firstDeadEvent = i;
    last = o;
    if (o.mode !== 'pool' || o.size === 0 || poolEvents++ % EVERY !== 0) continue;
    const t = truth[o.ply - 1];
    const held = tracker.positions().map((fen) => classOf(parseFen(fen).board, key.as));
    out.sampled++;
    if (held.some((c) => c.material === t.material)) out.truthMaterial++;
    if (held.some((c) => c.material === t.material && c.pawns === t.pawns)) out.truthStructure++;
  }
  if (last.size === 0) out.emptyPlies++;
  out.plies = last.ply;
  out.ms = performance.now() - started;
  tracker.free();
  return out;
}

const WORK = integerOption('--work', 2_000_000);
const EVERY = integerOption('--every', 5);
const MAX_PLIES = integerOption('--max-plies', 300);
const arms = parseArms();
const views = parseViews();
const root = repoRoot();
const code = await measuredCode(root, 'bench/track-ab.ts');
const stores = arms.map((arm) => {
  const id = createHash('sha256').update(JSON.stringify(arm.options)).digest('hex').slice(0, 12);
  return new RunStore(join(root, '.cache', 'track', `ab-${id}.jsonl`), { code, options: arm.options });
});
const viewName = (v: ViewKey) => `${v.preset}:${v.game}:${v.as}`;
const storeKey = (v: ViewKey) => `${viewName(v)}|work ${WORK}|every ${EVERY}|plies ${MAX_PLIES}`;

const results = views.map((v) => {
  let record: GameRecord | undefined;
  const byArm = arms.map((arm, a) =>
    stores[a].getOrMeasure(storeKey(v), () => {
      if (!record) {
        const engine = createEngine('wasm', 1 << 12);
        engine.setRules(preset(v.preset));
        record = randomGame(engine, v.game, { maxPlies: MAX_PLIES });
      }
      const r = measure(arm, record, v);
      progress(
        `${arm.name} ${viewName(v)}: ${r.emptyPlies} empty plies of ${r.plies}, truth's material ${share(r.truthMaterial, r.sampled)}, structure ${share(r.truthStructure, r.sampled)} (${Math.round(r.ms / 1000)} s)`,
      );
      return r;
    }),
  );
  return { view: viewName(v), arms: byArm };
});

function share(n: number, of: number): string {
  return of ? `${((100 * n) / of).toFixed(1)} %` : '—';
}

// ---- report ----
const mean = (xs: number[]) => (xs.length ? xs.reduce((t, x) => t + x, 0) / xs.length : NaN);
const perView = (a: number, f: (r: ArmView) => number) =>
  results.filter((r) => r.arms[a].sampled > 0).map((r) => f(r.arms[a]));
const summary = arms.map((arm, a) => ({
  arm: arm.name,
  options: arm.options,
  views: results.length,
  died: results.filter((r) => r.arms[a].emptyPlies > 0).length,
  emptyPlies: results.reduce((t, r) => t + r.arms[a].emptyPlies, 0),
  plies: results.reduce((t, r) => t + r.arms[a].plies, 0),
  meanTruthMaterial: mean(perView(a, (r) => r.truthMaterial / r.sampled)),
  meanTruthStructure: mean(perView(a, (r) => r.truthStructure / r.sampled)),
  /** Views where this arm's pool held the truth's structure more / less often than the baseline's. */
  better: results.filter(
    (r) => r.arms[a].truthStructure / r.arms[a].sampled > r.arms[0].truthStructure / r.arms[0].sampled,
  ).length,
  worse: results.filter(
    (r) => r.arms[a].truthStructure / r.arms[a].sampled < r.arms[0].truthStructure / r.arms[0].sampled,
  ).length,
}));
const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)} %`);
const lines = [
  '# Tracker options on the truth (bench/track-ab.ts)',
  '',
  `Random games, the views listed, the tracker with its standbys, ${WORK.toLocaleString('en-US')} work an event (WASM), ply cap ${MAX_PLIES}; the pool read at every ${EVERY}th pool event. Machine: ${describeMachine(machine())}. Code ${code}.`,
  '',
  "| arm | options | views | views that died | empty plies | truth's material held | truth's material and pawns held | better / worse than the first arm |",
  '|---|---|---|---|---|---|---|---|',
  ...summary.map(
    (s, a) =>
      `| ${s.arm} | \`${JSON.stringify(s.options)}\` | ${s.views} | ${s.died} | ${s.emptyPlies} of ${s.plies} | ${pct(s.meanTruthMaterial)} | ${pct(s.meanTruthStructure)} | ${a === 0 ? '—' : `${s.better} / ${s.worse}`} |`,
  ),
  '',
  "Per view: empty plies; the share of sampled pool events whose pool held the truth's material / material and pawns.",
  '',
  `| view | ${arms.map((a) => a.name).join(' | ')} |`,
  `|---|${arms.map(() => '---').join('|')}|`,
  ...results.map(
    (r) =>
      `| ${r.view} | ${r.arms.map((x) => `${x.emptyPlies} · ${share(x.truthMaterial, x.sampled)} / ${share(x.truthStructure, x.sampled)}`).join(' | ')} |`,
  ),
];
writeText(join(root, 'bench/results/track-ab.md'), lines.join('\n'));
writeJson(join(root, 'bench/results/track-ab.json'), {
  work: WORK,
  every: EVERY,
  maxPlies: MAX_PLIES,
  machine: machine(),
  code,
  summary,
  results,
});
progress(lines.slice(4, 6 + arms.length).join('\n'));
