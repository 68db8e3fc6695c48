// Bugs found reviewing the solver core (assembly/solver/) against SPEC §5-6, kept as failing
// tests (`it.fails`) until they are fixed; each test states the expected behaviour and passes
// once the bug is gone (vitest then reports the `it.fails` as failed: drop the `.fails`).
//
// Some checks call the core's exports directly (solveStart / solveRun, as host/solver/solve.ts
// does) so that no strategy is written: writing the strategy of the first bug's wrong proof never
// returns on the JS backend.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type Engine } from '../../host/node';
import { preset, type RuleSet } from '../../host/referee/rules';
import { solve, ALGORITHMS, type Algorithm } from '../../host/solver/solve';
import { verifyStrategy, verdictText } from '../../host/verify/verify';

const berkeley = preset('berkeley');
const FIRST = 16;
const SOLVE = { proven: 0, disproven: 1, more: 2, noRoom: 3 } as const;

/** The core's answer (a SOLVE_* status) without writing a strategy. */
function coreAnswer(engine: Engine, rules: RuleSet, positions: string[], ply: number, algo: Algorithm, maxNodes = 4096, maxEntries = 4096): number {
  engine.setRules(rules);
  positions.forEach((fen, i) => engine.setFen(FIRST + i, fen));
  const x = engine.core.exports;
  x.solveStart(FIRST, positions.length, ply, ALGORITHMS.indexOf(algo), 0, maxNodes, maxEntries, engine.capacity);
  let status: number;
  do status = x.solveRun(1e6); while (status === SOLVE.more);
  return status;
}

// Bug 1: an ATTEMPT node can have two rejected (OR) children, one keyed Illegal and one keyed
// Nonsense: an attempt whose piece is missing in some positions (Nonsense there) and blocked in
// others (Illegal there). The depth-first driver's nextToSearch (assembly/solver/dfs.ts) only
// ever visits the first OR child (rejectedChild), so the second is never searched: the ATTEMPT is
// "proven" with an unsearched part. The answer can be wrong, and strategyWrite (solve.ts, writeOr)
// then descends into the unexpanded OR node (no children: get(-1, …)), overflowing the stack on
// WASM and looping forever on JS. PNS searches every child and is right.
//
// Positions (White Kg6 against Kh8):
//   1. a lone knight b1: no mate in 1 at all;
//   2. queen a2: Qa8#;
//   3. queen a2 with a black pawn on a4 (Qa8 Illegal) and a rook b1: Rb8#.
// a2a8 is Nonsense in 1, mate in 2, Illegal in 3. Position 1 has no mate, so the answer is
// disproven; dfs, l-dfs and le-dfs answer proven (they search the Illegal part {3}, prove it with
// Rb8#, and never look at the Nonsense part {1}).
const MIXED_REJECTIONS_NO_MATE = ['7k/8/6K1/8/8/8/8/1N6 w - - 0 1', '7k/8/6K1/8/8/8/Q7/8 w - - 0 1', '7k/8/6K1/8/p7/8/Q7/1R6 w - - 0 1'];
// The same idea with a mate: 1. queen a2 and rook b1, a4 pawn (a2a8 Illegal, Rb8#); 2. rook b1
// only (a2a8 Nonsense, Rb8#); 3. queen a2 only (Qa8#). Proven (a2a8, then b1b8 on Illegal or
// Nonsense; or b1b8, then a2a8 on Nonsense), but every depth-first algorithm tries a2a8 first and
// leaves the Nonsense part {2} unsearched; the strategy cannot be written.
const MIXED_REJECTIONS_MATE = ['7k/8/6K1/8/p7/8/Q7/1R6 w - - 0 1', '7k/8/6K1/8/8/8/8/1R6 w - - 0 1', '7k/8/6K1/8/8/8/Q7/8 w - - 0 1'];

describe.each(BACKENDS)('review on %s', (backend) => {
  const engine = createEngine(backend);

  it('control: PNS and E-PNS search both rejected parts and answer right', () => {
    for (const algo of ['pns', 'e-pns'] as const) {
      expect(coreAnswer(engine, berkeley, MIXED_REJECTIONS_NO_MATE, 1, algo)).toBe(SOLVE.disproven);
      expect(coreAnswer(engine, berkeley, MIXED_REJECTIONS_MATE, 1, algo)).toBe(SOLVE.proven);
    }
  });

  it.fails('bug 1: every algorithm disproves a problem whose attempt is Illegal in one position and Nonsense in another', () => {
    const wrong = ALGORITHMS.filter((algo) => coreAnswer(engine, berkeley, MIXED_REJECTIONS_NO_MATE, 1, algo) !== SOLVE.disproven);
    // today: dfs, l-dfs, le-dfs answer proven
    expect(wrong).toEqual([]);
  });
});

// WASM only: bug 1 through the host (the proof exists, but its strategy cannot be written: the
// stack overflows and solve() throws; on JS strategyWrite never returns), and bug 2, which needs
// an engine no search has run on yet (a new WASM engine is a new instance; the JS core is one
// module per test file, its buffers already grown by the tests above).
describe('review on wasm', () => {
  const engine = createEngine('wasm');

  it.fails('bug 1: every depth-first algorithm writes a strategy that verifies when an attempt has Illegal and Nonsense parts', () => {
    const problem = { rules: berkeley, positions: MIXED_REJECTIONS_MATE, ply: 1 };
    for (const algo of ['dfs', 'l-dfs', 'gl-dfs', 'gx-dfs', 'le-dfs'] as const) {
      const r = solve(engine, problem, algo); // today: RangeError (maximum call stack size exceeded)
      expect(r.answer, algo).toBe('proven');
      const v = verifyStrategy(problem, r.strategy!);
      expect(v.ok, `${algo}: ${verdictText(v)}`).toBe(true);
    }
  });

  // Bug 2: the entry arena (position lists) and the attempt-list arena are bounded by the length
  // of their grow-only buffers, not by solveStart's maxEntries (tree.ts: addEntry and pushAttempt
  // compare with ENTRY_HANDLE.length and ATTEMPT_LIST.length; resetTree only ever enlarges them).
  // So once an engine has run a search with a bigger memory budget, a later search's entry cap is
  // ignored: the same problem with the same limits answers "unknown" on a fresh engine and is
  // solved on a used one, and memory use can exceed the configured cap.
  const two = ['7k/8/6K1/8/1p6/8/8/RR6 w - - 0 1', '7k/8/6K1/8/p7/8/8/RR6 w - - 0 1'];

  it('control for bug 2: on an engine no search has run on, 3 entries are too few (out of room)', () => {
    // the root's 2 positions and an Illegal part of at least 1 position need 3 entries, and the
    // first attempt's EXPAND part one more
    expect(coreAnswer(createEngine('wasm'), berkeley, two, 1, 'dfs', 4096, 3)).toBe(SOLVE.noRoom);
  });

  it.fails('bug 2: maxEntries bounds the entry arena whatever ran before on the engine', () => {
    const used = createEngine('wasm');
    solve(used, { rules: berkeley, positions: two, ply: 1 }, 'dfs', { memoryBytes: 1 << 22 });
    // today: proven, with more than 3 entries in use
    expect(coreAnswer(used, berkeley, two, 1, 'dfs', 4096, 3)).toBe(SOLVE.noRoom);
  });
});
