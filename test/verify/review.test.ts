// Bugs found reviewing the solver core (assembly/solver/) against SPEC §5-6, first recorded here
// as failing tests (it.fails) and fixed in 5b698ef and 56fa7a0; the tests now guard the fixes.
//
// Some checks drive the core's search directly (host/core/solver.ts, as host/solver/solve.ts
// does): the host now refuses the first bug's problems (their positions
// differ in the mover's own pieces, so they are no belief state), but the core must still search
// every part of an ATTEMPT node.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type Engine } from '../../host/node';
import { preset, type RuleSet } from '../../host/record/rules';
import { solve, ALGORITHMS, algorithmCode, type Algorithm } from '../../host/solver/solve';
import { startSearch, runSearch, strategyWords, type SearchStep } from '../../host/core/solver';
import { decodeStrategy } from '../../host/solver/strategy';
import { verifyStrategy, verdictText } from '../../host/verify/verify';
import { KriegError } from '../../host/errors';

const berkeley = preset('berkeley');
const FIRST = 16;
const SOLVE = { proven: 'proven', disproven: 'disproven', noRoom: 'no-room' } as const;

/** The core's answer without writing a strategy. */
function coreAnswer(
  engine: Engine,
  rules: RuleSet,
  positions: string[],
  ply: number,
  algo: Algorithm,
  maxNodes = 4096,
  maxEntries = 4096,
): SearchStep {
  engine.setRules(rules);
  positions.forEach((fen, i) => engine.setFen(FIRST + i, fen));
  startSearch(engine, FIRST, positions.length, ply, algorithmCode(algo), 0, {
    nodes: maxNodes,
    entries: maxEntries,
    positionEnd: engine.capacity,
  });
  let status: SearchStep;
  do status = runSearch(engine, 1e6);
  while (status === 'more');
  return status;
}

// Bug 1 (fixed in 5b698ef): an ATTEMPT node can have two rejected (OR) children, one keyed
// Illegal and one keyed Nonsense: an attempt whose piece is missing in some positions (Nonsense
// there) and blocked in others (Illegal there). The depth-first driver's nextToSearch
// (assembly/solver/dfs.ts) visited only the first OR child, so the second was never searched: the
// ATTEMPT was "proven" with an unsearched part. The answer could be wrong, and strategyWrite
// (solve.ts, writeOr) then descended into the unexpanded OR node (no children: get(-1, …)),
// overflowing the stack on WASM and looping forever on JS. PNS searched every child and was right.
//
// Positions (White Kg6 against Kh8):
//   1. a lone knight b1: no mate in 1 at all;
//   2. queen a2: Qa8#;
//   3. queen a2 with a black pawn on a4 (Qa8 Illegal) and a rook b1: Rb8#.
// a2a8 is Nonsense in 1, mate in 2, Illegal in 3. Position 1 has no mate, so the answer is
// disproven; dfs, l-dfs and le-dfs answered proven (they searched the Illegal part {3}, proved it
// with Rb8#, and never looked at the Nonsense part {1}).
const MIXED_REJECTIONS_NO_MATE = [
  '7k/8/6K1/8/8/8/8/1N6 w - - 0 1',
  '7k/8/6K1/8/8/8/Q7/8 w - - 0 1',
  '7k/8/6K1/8/p7/8/Q7/1R6 w - - 0 1',
];
// The same idea with a mate: 1. queen a2 and rook b1, a4 pawn (a2a8 Illegal, Rb8#); 2. rook b1
// only (a2a8 Nonsense, Rb8#); 3. queen a2 only (Qa8#). Proven (a2a8, then b1b8 on Illegal or
// Nonsense; or b1b8, then a2a8 on Nonsense), but every depth-first algorithm tried a2a8 first and
// left the Nonsense part {2} unsearched; the strategy could not be written.
const MIXED_REJECTIONS_MATE = [
  '7k/8/6K1/8/p7/8/Q7/1R6 w - - 0 1',
  '7k/8/6K1/8/8/8/8/1R6 w - - 0 1',
  '7k/8/6K1/8/8/8/Q7/8 w - - 0 1',
];

describe.each(BACKENDS)('review on %s', (backend) => {
  const engine = createEngine(backend);

  it('control: PNS and E-PNS search both rejected parts and answer right', () => {
    for (const algo of ['pns', 'e-pns'] as const) {
      expect(coreAnswer(engine, berkeley, MIXED_REJECTIONS_NO_MATE, 1, algo)).toBe(SOLVE.disproven);
      expect(coreAnswer(engine, berkeley, MIXED_REJECTIONS_MATE, 1, algo)).toBe(SOLVE.proven);
    }
  });

  it('bug 1: every algorithm disproves a problem whose attempt is Illegal in one position and Nonsense in another', () => {
    const wrong = ALGORITHMS.filter(
      (algo) => coreAnswer(engine, berkeley, MIXED_REJECTIONS_NO_MATE, 1, algo) !== SOLVE.disproven,
    );
    // before the fix: dfs, l-dfs, le-dfs answered proven
    expect(wrong).toEqual([]);
    expect(
      ALGORITHMS.filter((algo) => coreAnswer(engine, berkeley, MIXED_REJECTIONS_MATE, 1, algo) !== SOLVE.proven),
    ).toEqual([]);
  });

  it("bug 1: the host refuses positions that differ in the mover's own pieces (no belief state)", () => {
    for (const positions of [MIXED_REJECTIONS_NO_MATE, MIXED_REJECTIONS_MATE]) {
      let error: unknown;
      try {
        solve(engine, { rules: berkeley, positions, ply: 1 }, 'pns');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KriegError);
      expect((error as KriegError).code).toBe('mixed-own-pieces');
    }
  });
});

// WASM only: bug 1's strategies (should the bug come back, the WASM stack overflows where JS would
// loop forever).
describe('review on wasm', () => {
  const engine = createEngine('wasm');

  it('bug 1: every depth-first algorithm writes a strategy that verifies when an attempt has Illegal and Nonsense parts', () => {
    const problem = { rules: berkeley, positions: MIXED_REJECTIONS_MATE, ply: 1 };
    for (const algo of ALGORITHMS) {
      expect(coreAnswer(engine, berkeley, MIXED_REJECTIONS_MATE, 1, algo), algo).toBe(SOLVE.proven);
      const words = strategyWords(engine);
      const strategy = { side: 'white' as const, ply: 1, materialWins: false, root: decodeStrategy(words, berkeley) };
      const v = verifyStrategy(problem, strategy);
      expect(v.ok, `${algo}: ${verdictText(v)}`).toBe(true);
    }
  });
});

// Bug 2 (fixed in 56fa7a0): the entry arena (position lists) and the attempt-list arena were
// bounded by the length of their grow-only buffers, not by solveStart's maxEntries (tree.ts:
// addEntry and pushAttempt compared with ENTRY_HANDLE.length and ATTEMPT_LIST.length; resetTree
// only ever enlarges them). So once an engine had run a search with a bigger memory budget, a
// later search's entry cap was ignored: the same problem with the same limits answered "unknown"
// on a fresh engine and was solved on a used one, and memory use could exceed the cap.
const two = ['7k/8/6K1/8/1p6/8/8/RR6 w - - 0 1', '7k/8/6K1/8/p7/8/8/RR6 w - - 0 1'];

describe.each(BACKENDS)('review (bug 2) on %s', (backend) => {
  it('bug 2 control: on an engine no search has run on, 3 entries are too few (out of room)', () => {
    // the root's 2 positions and an Illegal part of at least 1 position need 3 entries, and the
    // first attempt's EXPAND part one more
    expect(coreAnswer(createEngine(backend), berkeley, two, 1, 'dfs', 4096, 3)).toBe(SOLVE.noRoom);
  });

  it('bug 2: maxEntries bounds the entry arena whatever ran before on the engine', () => {
    const used = createEngine(backend);
    solve(used, { rules: berkeley, positions: two, ply: 1 }, 'dfs', { memoryBytes: 1 << 22 });
    // before the fix: proven, with more than 3 entries in use
    expect(coreAnswer(used, berkeley, two, 1, 'dfs', 4096, 3)).toBe(SOLVE.noRoom);
    // the incremental searches' pending lists too (their own copy of the check had the same bug)
    for (const algo of ['l-dub', 'l-dbu', 'gl-dbu', 'ipns'] as const) {
      solve(used, { rules: berkeley, positions: two, ply: 1 }, algo, { memoryBytes: 1 << 22 });
      expect(coreAnswer(used, berkeley, two, 1, algo, 4096, 3), algo).toBe(SOLVE.noRoom);
    }
  });
});
