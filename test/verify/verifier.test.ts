// The strategy verifier (issue 5, acceptance point 2): it accepts what the solver proves and what
// a person writes by hand, and rejects corrupted strategies with the precise failure: a wrong
// attempt, a missing answer or reply branch, a mate one ply too late, an attempt repeated within
// a turn, a branch called won that is not, the wrong side or pawn-try count. Also the strategy
// JSON reader's error messages and the readable text.
//
// Every problem is small and worked out by hand (Black's king is on the edge, White has a rook or
// two; each note says why the answer is what it is). The solver's strategies come from all seven
// algorithms on both backends; corruptions of them are generic (they work whatever attempt the
// solver chose), corruptions of the hand-written strategies name the exact path and reason.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { KriegError } from '../../host/errors';
import { preset, withOverrides, type RuleSet } from '../../host/record/rules';
import { solve, ALGORITHMS, type Algorithm } from '../../host/solver/solve';
import {
  strategyFromJson,
  strategyToJson,
  strategyText,
  heardText,
  type Strategy,
  type StrategyNode,
  type Branch,
} from '../../host/solver/strategy';
import { verifyStrategy, verdictText, type VerifyProblem, type Verdict } from '../../host/verify/verify';

const berkeley = preset('berkeley');
/** Berkeley, but the number of legal pawn captures is announced to both before every turn. */
const counted = withOverrides(berkeley, { pawnTries: 'count' });
const MEMORY = 1 << 23;

interface Case {
  id: string;
  positions: string[];
  ply: number;
  proven: number;
  disproven: number;
  note: string;
}

const TWO_ROOKS: Case = {
  id: 'two-rooks',
  // White Kg6, Ra1, Rb1 against Kh8 and one pawn blocking either the a- or the b-file. Ra8 and
  // Rb8 each mate (g7/h7 are the king's, g8 the rook's) where their file is open; no single move
  // mates in both, so every 1-ply proof tries one rook and, on Illegal, the other.
  positions: ['7k/8/6K1/8/1p6/8/8/RR6 w - - 0 1', '7k/8/6K1/8/p7/8/8/RR6 w - - 0 1'],
  ply: 1,
  proven: 1,
  disproven: 0,
  note: 'mate in 1 only through an Illegal branch',
};
const ROOK_MATE: Case = {
  id: 'rook-mate',
  // White Kg6, Ra1 against Kh8: Ra8# at once.
  positions: ['7k/8/6K1/8/8/8/8/R7 w - - 0 1'],
  ply: 1,
  proven: 1,
  disproven: 0,
  note: 'mate in 1',
};
const ROOK_LIFT: Case = {
  id: 'rook-lift',
  // White Kf7, Re7 against Kh7 (the rook's rank is blocked by its own king, so no check). No
  // mate in 1: no rook move checks, and a king move that uncovers the rook's check along the 7th
  // rank leaves h8 free. 1. Re6 leaves Black only Kh8 (g8, g7, g6 are the king's, h6 the rook's),
  // then Rh6# (h7 is the rook's, g8 and g7 the king's).
  positions: ['8/4RK1k/8/8/8/8/8/8 w - - 0 1'],
  ply: 3,
  proven: 3,
  disproven: 1,
  note: 'mate in 3, a single line',
};
const CAPTURE_REPLY: Case = {
  id: 'capture-reply',
  // White Kf6, Ra1, Pd2 against Kh8, Pc3. Not mate in 1: Ra8+ Kh7 (Kf6 does not reach h7). After
  // 1. Kg6 Black has Kg8, c2 or cxd2 (heard: capture d2), and Ra8# follows each (g8 or f8/h8 are
  // the rook's, f7/g7/h7 the king's).
  positions: ['7k/8/5K2/8/8/2p5/3P4/R7 w - - 0 1'],
  ply: 3,
  proven: 3,
  disproven: 1,
  note: 'mate in 3 with two reply branches (silence, capture d2)',
};
const ROOK_FIVE: Case = {
  id: 'rook-five',
  // White Kh6, Rh5 against Kh8: not mate in 3 (Black's king keeps g8/h8/f8 to run between while
  // the rook cannot reach the 8th rank in one move); in 5: 1. Kg6+ (discovered, File) Kg8 forced,
  // 2. Kf6 Kf8 forced (h8 is on the rook's file), 3. Rh8#.
  positions: ['7k/8/7K/7R/8/8/8/8 w - - 0 1'],
  ply: 5,
  proven: 5,
  disproven: 3,
  note: 'mate in 5, not in 3',
};
const BLACK_LIFT: Case = {
  id: 'black-lift',
  // ROOK_LIFT mirrored, Black to move: Black Kf2, Re2 against Kh2; 1... Re3 2. Kh1 Rh3#.
  positions: ['8/8/8/8/8/8/4rk1K/8 b - - 0 1'],
  ply: 3,
  proven: 3,
  disproven: 1,
  note: 'mate in 3 for Black',
};
const CASES = [TWO_ROOKS, ROOK_MATE, ROOK_LIFT, CAPTURE_REPLY, ROOK_FIVE, BLACK_LIFT];
const sideOf = (c: Case) => (c.positions[0].split(' ')[1] === 'w' ? 'white' : 'black');
const otherSide = (side: string) => (side === 'white' ? 'black' : 'white');

const problemOf = (c: Case, ply: number, rules: RuleSet = berkeley): VerifyProblem => ({
  rules,
  positions: c.positions,
  ply,
});
const clone = <T>(x: T): T => structuredClone(x);

/** Every strategy node, in preorder. */
function nodesOf(root: StrategyNode): StrategyNode[] {
  const out: StrategyNode[] = [];
  const walk = (n: StrategyNode) => {
    out.push(n);
    for (const b of n.answers) {
      if ('next' in b) walk(b.next);
      else if ('replies' in b) for (const r of b.replies) walk(r.next);
    }
  };
  walk(root);
  return out;
}

function expectFailure(v: Verdict, expected: { position?: number; reason: string | RegExp; path?: string[] }): void {
  if (v.ok) throw new Error(`expected the verifier to reject the strategy, but it verified ${v.lines} lines`);
  if (typeof expected.reason === 'string') expect(v.reason).toBe(expected.reason);
  else expect(v.reason).toMatch(expected.reason);
  if (expected.position !== undefined) expect(v.position).toBe(expected.position);
  if (expected.path !== undefined) expect(v.path).toEqual(expected.path);
}

// ---- the solver's strategies pass; corrupted copies fail ----

describe.each(BACKENDS)('solver strategies on %s', (backend) => {
  const engine = createEngine(backend);
  const strategies = new Map<string, Map<Algorithm, Strategy>>();
  const solved = (c: Case, rules: RuleSet = berkeley): Map<Algorithm, Strategy> => {
    const key = `${c.id} ${rules.pawnTries}`;
    let byAlgo = strategies.get(key);
    if (byAlgo) return byAlgo;
    byAlgo = new Map();
    for (const algo of ALGORITHMS) {
      const r = solve(engine, { rules, positions: c.positions, ply: c.proven }, algo, { memoryBytes: MEMORY });
      expect(r.answer, `${c.id} ${algo}`).toBe('proven');
      byAlgo.set(algo, r.strategy!);
    }
    strategies.set(key, byAlgo);
    return byAlgo;
  };

  it.each(CASES)('$id ($note): proven in $proven ply by every algorithm, and every strategy verifies', (c) => {
    for (const [algo, s] of solved(c)) {
      expect(s.side).toBe(sideOf(c));
      expect(s.ply).toBe(c.proven);
      const v = verifyStrategy(problemOf(c, c.proven), s);
      expect(v.ok, `${algo}: ${verdictText(v)}`).toBe(true);
      // the JSON document reads back to the same strategy, and still verifies
      const back = strategyFromJson(JSON.parse(JSON.stringify(strategyToJson(s))));
      expect(back).toEqual(s);
    }
  });

  it.each(CASES.filter((c) => c.disproven > 0))('$id: disproven in $disproven ply by every algorithm', (c) => {
    for (const algo of ALGORITHMS) {
      expect(
        solve(engine, { rules: berkeley, positions: c.positions, ply: c.disproven }, algo, { memoryBytes: MEMORY })
          .answer,
        algo,
      ).toBe('disproven');
    }
  });

  it('two-rooks: every proof has an Illegal branch (no single attempt mates in both positions)', () => {
    for (const [algo, s] of solved(TWO_ROOKS)) {
      const illegal = s.root.answers.find((b) => b.heard.percept.answer === 'illegal');
      expect(illegal && 'next' in illegal, algo).toBe(true);
    }
  });

  it('(a) a wrong attempt: the root attempt replaced by a legal rook move that does not mate', () => {
    for (const [algo, s] of solved(TWO_ROOKS)) {
      // b1c1 is legal in both positions and mates in neither
      const bad = clone(s);
      bad.root.attempt = 'b1c1';
      expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), bad), {
        position: 1,
        path: ['try b1c1'],
        reason: 'no mate within 1 ply: b1c1 does not mate and no ply is left for another move',
      });
      // the retry after Illegal moves its rook one square instead (legal in the position where the
      // first attempt was Illegal, and no mate)
      const other = clone(s);
      const next = (other.root.answers.find((b) => 'next' in b) as { next: StrategyNode }).next;
      const blocked = next.attempt;
      next.attempt = blocked[0] + '1' + blocked[0] + '2';
      const v = verifyStrategy(problemOf(TWO_ROOKS, 1), other);
      expectFailure(v, {
        reason: `no mate within 1 ply: ${next.attempt} does not mate and no ply is left for another move`,
      });
      expect(v.ok ? [] : v.path, algo).toEqual([`try ${s.root.attempt}`, 'Illegal', `try ${next.attempt}`]);
    }
  });

  it('(b) a missing answer branch: the Illegal branch deleted', () => {
    for (const s of solved(TWO_ROOKS).values()) {
      const bad = clone(s);
      bad.root.answers = bad.root.answers.filter((b) => b.heard.percept.answer !== 'illegal');
      // the position where the first attempt's file is blocked is the one that fails
      const blockedIn = s.root.attempt === 'a1a8' ? 2 : 1;
      expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), bad), {
        position: blockedIn,
        path: [`try ${s.root.attempt}`],
        reason: `the strategy has no branch for "Illegal" after ${s.root.attempt}`,
      });
    }
  });

  it('(b) a missing reply branch: each reply of capture-reply deleted in turn', () => {
    for (const s of solved(CAPTURE_REPLY).values()) {
      const legal = s.root.answers.find((b): b is Extract<Branch, { replies: unknown }> => 'replies' in b)!;
      expect(legal.replies.length).toBe(2);
      expect(legal.replies.map((r) => heardText(r.heard)).sort()).toEqual(['capture d2', 'silence']);
      for (let i = 0; i < legal.replies.length; i++) {
        const bad = clone(s);
        const branch = bad.root.answers.find((b): b is Extract<Branch, { replies: unknown }> => 'replies' in b)!;
        const [gone] = branch.replies.splice(i, 1);
        const v = verifyStrategy(problemOf(CAPTURE_REPLY, 3), bad);
        expectFailure(v, {
          position: 1,
          reason: `the strategy has no branch for "${heardText(gone.heard)}" after black's move`,
        });
        // path: our attempt, what we heard, Black's move (a quiet one or the capture)
        expect(v.ok ? [] : v.path.slice(0, 2)).toEqual([`try ${s.root.attempt}`, heardText(legal.heard)]);
        expect(v.ok ? '' : v.path[2]).toMatch(
          gone.heard.percept.capture === undefined ? /^black (h8g8|c3c2)$/ : /^black c3d2$/,
        );
      }
    }
  });

  it('(c) mate one ply too late: a 5-ply proof checked as a 3-ply problem', () => {
    for (const s of solved(ROOK_FIVE).values()) {
      // as written (ply 5) the strategy is refused outright
      expectFailure(verifyStrategy(problemOf(ROOK_FIVE, 3), s), {
        position: 1,
        path: [],
        reason: 'the strategy is for 5 ply, the problem allows 3',
      });
      // claiming 3 ply, it is played out and its second move is found not to mate
      const v = verifyStrategy(problemOf(ROOK_FIVE, 3), { ...s, ply: 3 });
      expectFailure(v, {
        position: 1,
        reason: /^no mate within 3 ply: [a-h][1-8][a-h][1-8] does not mate and no ply is left for another move$/,
      });
      if (!v.ok) {
        expect(v.path[0]).toBe(`try ${s.root.attempt}`);
        expect(v.path.filter((step) => step.startsWith('black ')).length).toBe(1);
        expect(v.path.at(-1)).toMatch(/^try /);
      }
      // and 4 ply are no better than 3 (a mate needs an odd number of plies)
      expect(verifyStrategy(problemOf(ROOK_FIVE, 4), { ...s, ply: 4 }).ok).toBe(false);
    }
  });

  it('(d) an attempt repeated within a turn: the Illegal branch tries the same rook again', () => {
    for (const s of solved(TWO_ROOKS).values()) {
      const bad = clone(s);
      const next = (bad.root.answers.find((b) => 'next' in b) as { next: StrategyNode }).next;
      next.attempt = s.root.attempt;
      const blockedIn = s.root.attempt === 'a1a8' ? 2 : 1;
      expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), bad), {
        position: blockedIn,
        path: [`try ${s.root.attempt}`, 'Illegal', `try ${s.root.attempt}`],
        reason: `${s.root.attempt} is attempted twice in one turn`,
      });
    }
  });

  it('(e) a branch marked won that is not: the reply branch of a 3-ply proof', () => {
    for (const c of [ROOK_LIFT, CAPTURE_REPLY]) {
      for (const s of solved(c).values()) {
        const bad = clone(s);
        const i = bad.root.answers.findIndex((b) => 'replies' in b);
        const heard = bad.root.answers[i].heard;
        bad.root.answers[i] = { heard, won: true };
        expectFailure(verifyStrategy(problemOf(c, 3), bad), {
          position: 1,
          path: [`try ${s.root.attempt}`, heardText(heard)],
          reason: `the strategy counts "${heardText(heard)}" as won, but the opponent is not mated`,
        });
      }
    }
  });

  it('(a) a wrong attempt in the last turn: the mating move swapped for one that does not mate', () => {
    for (const [algo, s] of solved(ROOK_LIFT)) {
      const bad = clone(s);
      const last = nodesOf(bad.root).filter((n) => n.answers.length > 0 && n.answers.every((b) => 'won' in b));
      expect(last.length, algo).toBeGreaterThan(0);
      // every proof found so far ends 1. Re6 Kh8 2. Rh6#; Rg6 is legal there and no check
      for (const n of last) n.attempt = n.attempt === 'e6h6' ? 'e6g6' : n.attempt.slice(0, 2) + n.attempt.slice(0, 2);
      const v = verifyStrategy(problemOf(ROOK_LIFT, 3), bad);
      if (s.root.attempt === 'e7e6') {
        expectFailure(v, {
          position: 1,
          path: ['try e7e6', 'silence', 'black h7h8', 'silence', 'try e6g6'],
          reason: 'no mate within 3 ply: e6g6 does not mate and no ply is left for another move',
        });
      } else expect(v.ok, algo).toBe(false);
    }
  });

  it("(f) the wrong side: a strategy presented as the other side's", () => {
    for (const c of CASES) {
      for (const s of solved(c).values()) {
        const side = sideOf(c);
        expectFailure(verifyStrategy(problemOf(c, c.proven), { ...s, side: otherSide(side) }), {
          position: 1,
          path: [],
          reason: `${side} is to move, but the strategy is ${otherSide(side)}'s`,
        });
      }
    }
  });

  it("black-lift: the path names White as the opponent, and a missing reply is White's", () => {
    for (const s of solved(BLACK_LIFT).values()) {
      const bad = clone(s);
      (bad.root.answers.find((b) => 'replies' in b) as { replies: unknown[] }).replies = [];
      expectFailure(verifyStrategy(problemOf(BLACK_LIFT, 3), bad), {
        position: 1,
        path: ['try e2e3', 'silence', 'white h2h1'],
        reason: 'the strategy has no branch for "silence" after white\'s move',
      });
      expect(strategyText(s)).toMatch(/^Black mates within 3 ply:\n {2}try e2e3\n {4}if silence: White moves\n/);
    }
  });

  it('(f) pawn tries: proofs under counted pawn tries carry the count; a wrong count or none is rejected', () => {
    for (const s of solved(ROOK_LIFT, counted).values()) {
      expect(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), s).ok).toBe(true);
      const legal = s.root.answers.find((b): b is Extract<Branch, { replies: unknown }> => 'replies' in b)!;
      // no pawns on the board: Black hears 0 pawn tries after our move
      expect(legal.heard.tries).toEqual({ count: 0 });
      const wrong = clone(s);
      const branch = wrong.root.answers.find((b): b is Extract<Branch, { replies: unknown }> => 'replies' in b)!;
      branch.heard.tries = { count: 1 };
      expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), wrong), {
        position: 1,
        path: [`try ${s.root.attempt}`],
        reason: `the strategy has no branch for "0 pawn tries" after ${s.root.attempt}`,
      });
      // the same proof under rules that announce nothing: the count is never heard
      expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, berkeley), s), {
        position: 1,
        path: [`try ${s.root.attempt}`],
        reason: `the strategy has no branch for "silence" after ${s.root.attempt}`,
      });
      // a reply branch with the wrong count
      const wrongReply = clone(s);
      const reply = wrongReply.root.answers.find((b): b is Extract<Branch, { replies: unknown }> => 'replies' in b)!
        .replies[0];
      reply.heard.tries = { count: 2 };
      expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), wrongReply), {
        position: 1,
        reason: 'the strategy has no branch for "0 pawn tries" after black\'s move',
      });
    }
  });
});

// ---- hand-written strategies (independent of the solver) ----

const legal = (extra: Record<string, unknown> = {}): { answer: string } & Record<string, unknown> => ({
  answer: 'legal',
  ...extra,
});
const mate = (directions: number) => ({ percept: legal({ check: true, directions, end: 'checkmate' }), won: true });
const RANK = 2;
const FILE = 4;

/** TWO_ROOKS: Ra8 first (the solver happens to try Rb8 first), Rb8 if that is Illegal. */
const HAND_TWO_ROOKS = {
  format: 'krieg-strategy',
  version: 1,
  side: 'white',
  ply: 1,
  materialWins: false,
  strategy: {
    attempt: 'a1a8',
    answers: [mate(RANK), { percept: { answer: 'illegal' }, next: { attempt: 'b1b8', answers: [mate(RANK)] } }],
  },
};

/** ROOK_LIFT: 1. Re6 Kh8 2. Rh6#. */
const HAND_ROOK_LIFT = {
  format: 'krieg-strategy',
  version: 1,
  side: 'white',
  ply: 3,
  materialWins: false,
  strategy: {
    attempt: 'e7e6',
    answers: [{ percept: legal(), replies: [{ percept: legal(), next: { attempt: 'e6h6', answers: [mate(FILE)] } }] }],
  },
};

/** ROOK_LIFT under counted pawn tries: both players hear "0 pawn tries" before every turn. */
const HAND_ROOK_LIFT_COUNTED = {
  ...HAND_ROOK_LIFT,
  strategy: {
    attempt: 'e7e6',
    answers: [
      {
        percept: legal(),
        pawnTries: { count: 0 },
        replies: [{ percept: legal(), pawnTries: { count: 0 }, next: { attempt: 'e6h6', answers: [mate(FILE)] } }],
      },
    ],
  },
};

/** CAPTURE_REPLY: 1. Kg6, then Ra8# whether Black played a quiet move or cxd2. */
const HAND_CAPTURE_REPLY = {
  format: 'krieg-strategy',
  version: 1,
  side: 'white',
  ply: 3,
  strategy: {
    attempt: 'f6g6',
    answers: [
      {
        percept: legal(),
        replies: [
          { percept: legal(), next: { attempt: 'a1a8', answers: [mate(RANK)] } },
          { percept: legal({ capture: 'd2' }), next: { attempt: 'a1a8', answers: [mate(RANK)] } },
        ],
      },
    ],
  },
};

/** ROOK_FIVE: 1. Kg6+ (File, discovered) Kg8 2. Kf6 Kf8 3. Rh8#. */
const HAND_ROOK_FIVE = {
  format: 'krieg-strategy',
  version: 1,
  side: 'white',
  ply: 5,
  strategy: {
    attempt: 'h6g6',
    answers: [
      {
        percept: legal({ check: true, directions: FILE }),
        replies: [
          {
            percept: legal(),
            next: {
              attempt: 'g6f6',
              answers: [
                { percept: legal(), replies: [{ percept: legal(), next: { attempt: 'h5h8', answers: [mate(RANK)] } }] },
              ],
            },
          },
        ],
      },
    ],
  },
};

/** ROOK_MATE with a useless waiting move first: 1. Rb1 Kg8 2. Rb8# — right in 3 ply, not in 1. */
const HAND_ROOK_WAITING = {
  format: 'krieg-strategy',
  version: 1,
  side: 'white',
  ply: 3,
  strategy: {
    attempt: 'a1b1',
    answers: [{ percept: legal(), replies: [{ percept: legal(), next: { attempt: 'b1b8', answers: [mate(RANK)] } }] }],
  },
};

const read = (doc: unknown): Strategy => strategyFromJson(clone(doc));

describe('hand-written strategies', () => {
  it('are accepted on the problems they were written for', () => {
    const cases: [unknown, Case, number, RuleSet][] = [
      [HAND_TWO_ROOKS, TWO_ROOKS, 1, berkeley],
      [HAND_ROOK_LIFT, ROOK_LIFT, 3, berkeley],
      [HAND_ROOK_LIFT_COUNTED, ROOK_LIFT, 3, counted],
      [HAND_CAPTURE_REPLY, CAPTURE_REPLY, 3, berkeley],
      [HAND_ROOK_FIVE, ROOK_FIVE, 5, berkeley],
      [HAND_ROOK_WAITING, ROOK_MATE, 3, berkeley],
    ];
    for (const [doc, c, ply, rules] of cases) {
      const v = verifyStrategy(problemOf(c, ply, rules), read(doc));
      expect(v.ok, `${c.id}: ${verdictText(v)}`).toBe(true);
    }
    // lines checked: one per position and mating line (three replies of Black in capture-reply)
    expect(verifyStrategy(problemOf(TWO_ROOKS, 1), read(HAND_TWO_ROOKS))).toEqual({ ok: true, positions: 2, lines: 2 });
    expect(verifyStrategy(problemOf(CAPTURE_REPLY, 3), read(HAND_CAPTURE_REPLY))).toEqual({
      ok: true,
      positions: 1,
      lines: 3,
    });
    // a proof for fewer plies than allowed is fine
    expect(verifyStrategy(problemOf(ROOK_LIFT, 7), read(HAND_ROOK_LIFT)).ok).toBe(true);
  });

  it('(a) wrong attempts: the first move, and the mating move', () => {
    const first = read(HAND_TWO_ROOKS);
    first.root.attempt = 'a1a7';
    expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), first), {
      position: 1,
      path: ['try a1a7'],
      reason: 'no mate within 1 ply: a1a7 does not mate and no ply is left for another move',
    });
    // Rg6 instead of Rh6: legal, no check
    const last = read(HAND_ROOK_LIFT);
    (last.root.answers[0] as { replies: { next: StrategyNode }[] }).replies[0].next.attempt = 'e6g6';
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3), last), {
      position: 1,
      path: ['try e7e6', 'silence', 'black h7h8', 'silence', 'try e6g6'],
      reason: 'no mate within 3 ply: e6g6 does not mate and no ply is left for another move',
    });
    // a first move after which Black escapes: 1. Re8 Kh6 and Rh6 is no longer possible
    const escape = read(HAND_ROOK_LIFT);
    escape.root.attempt = 'e7e8';
    const v = verifyStrategy(problemOf(ROOK_LIFT, 3), escape);
    expectFailure(v, { position: 1, reason: /^no mate within 3 ply|^the strategy has no branch/ });
    // an attempt that is legal in no position at all is answered Nonsense: no branch for that
    const nonsense = read(HAND_TWO_ROOKS);
    nonsense.root.attempt = 'c1c8';
    expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), nonsense), {
      position: 1,
      path: ['try c1c8'],
      reason: 'the strategy has no branch for "Nonsense" after c1c8',
    });
  });

  it('(b) missing branches: the Illegal answer, a reply, an answer after a legal move', () => {
    const noIllegal = read(HAND_TWO_ROOKS);
    noIllegal.root.answers.pop();
    expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), noIllegal), {
      position: 2,
      path: ['try a1a8'],
      reason: 'the strategy has no branch for "Illegal" after a1a8',
    });
    const noCapture = read(HAND_CAPTURE_REPLY);
    (noCapture.root.answers[0] as { replies: unknown[] }).replies.pop();
    expectFailure(verifyStrategy(problemOf(CAPTURE_REPLY, 3), noCapture), {
      position: 1,
      path: ['try f6g6', 'silence', 'black c3d2'],
      reason: 'the strategy has no branch for "capture d2" after black\'s move',
    });
    const noQuiet = read(HAND_CAPTURE_REPLY);
    (noQuiet.root.answers[0] as { replies: unknown[] }).replies.shift();
    const v = verifyStrategy(problemOf(CAPTURE_REPLY, 3), noQuiet);
    expectFailure(v, { position: 1, reason: 'the strategy has no branch for "silence" after black\'s move' });
    expect(v.ok ? '' : v.path[2]).toMatch(/^black (h8g8|c3c2)$/);
    const noAnswer = read(HAND_ROOK_LIFT);
    noAnswer.root.answers = [];
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3), noAnswer), {
      position: 1,
      path: ['try e7e6'],
      reason: 'the strategy has no branch for "silence" after e7e6',
    });
    // a mating answer needs no branch: the game is over
    const noMateBranch = read(HAND_ROOK_LIFT);
    (noMateBranch.root.answers[0] as { replies: { next: StrategyNode }[] }).replies[0].next.answers = [];
    expect(verifyStrategy(problemOf(ROOK_LIFT, 3), noMateBranch).ok).toBe(true);
  });

  it('(c) mate one ply too late: the 5-ply line checked in 3 ply, a waiting move before a mate in 1', () => {
    expectFailure(verifyStrategy(problemOf(ROOK_FIVE, 3), read(HAND_ROOK_FIVE)), {
      position: 1,
      path: [],
      reason: 'the strategy is for 5 ply, the problem allows 3',
    });
    expectFailure(verifyStrategy(problemOf(ROOK_FIVE, 3), read({ ...HAND_ROOK_FIVE, ply: 3 })), {
      position: 1,
      path: ['try h6g6', 'check (File)', 'black h8g8', 'silence', 'try g6f6'],
      reason: 'no mate within 3 ply: g6f6 does not mate and no ply is left for another move',
    });
    // 1. Rb1 Kg8 2. Rb8# is a mate in 3; the problem asks for a mate in 1 (Ra8#)
    expectFailure(verifyStrategy(problemOf(ROOK_MATE, 1), read({ ...HAND_ROOK_WAITING, ply: 1 })), {
      position: 1,
      path: ['try a1b1'],
      reason: 'no mate within 1 ply: a1b1 does not mate and no ply is left for another move',
    });
    expectFailure(verifyStrategy(problemOf(ROOK_MATE, 1), read(HAND_ROOK_WAITING)), {
      position: 1,
      path: [],
      reason: 'the strategy is for 3 ply, the problem allows 1',
    });
  });

  it('(d) an attempt repeated within a turn', () => {
    const again = read(HAND_TWO_ROOKS);
    (again.root.answers[1] as { next: StrategyNode }).next.attempt = 'a1a8';
    expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), again), {
      position: 2,
      path: ['try a1a8', 'Illegal', 'try a1a8'],
      reason: 'a1a8 is attempted twice in one turn',
    });
    // also two turns apart is fine: the repetition rule is per turn (Rb1, then b1b8 is a new turn)
    expect(verifyStrategy(problemOf(ROOK_MATE, 3), read(HAND_ROOK_WAITING)).ok).toBe(true);
  });

  it('(e) branches marked won that are not, and a retry after a legal move', () => {
    const won = read(HAND_ROOK_LIFT);
    won.root.answers[0] = { heard: won.root.answers[0].heard, won: true };
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3), won), {
      position: 1,
      path: ['try e7e6', 'silence'],
      reason: 'the strategy counts "silence" as won, but the opponent is not mated',
    });
    const wonFive = read(HAND_ROOK_FIVE);
    wonFive.root.answers[0] = { heard: wonFive.root.answers[0].heard, won: true };
    expectFailure(verifyStrategy(problemOf(ROOK_FIVE, 5), wonFive), {
      position: 1,
      path: ['try h6g6', 'check (File)'],
      reason: 'the strategy counts "check (File)" as won, but the opponent is not mated',
    });
    const retry = read(HAND_ROOK_LIFT);
    retry.root.answers[0] = { heard: retry.root.answers[0].heard, next: { attempt: 'e6h6', answers: [] } };
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3), retry), {
      position: 1,
      path: ['try e7e6', 'silence'],
      reason: 'after a legal move the strategy attempts again in the same turn',
    });
    const illegalWon = read(HAND_TWO_ROOKS);
    illegalWon.root.answers[1] = { heard: illegalWon.root.answers[1].heard, won: true };
    expectFailure(verifyStrategy(problemOf(TWO_ROOKS, 1), illegalWon), {
      position: 2,
      path: ['try a1a8'],
      reason: 'after "Illegal" the strategy does not attempt again',
    });
  });

  it('(f) the wrong side, wrong pawn tries, a wrong check direction', () => {
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3), read({ ...HAND_ROOK_LIFT, side: 'black' })), {
      position: 1,
      path: [],
      reason: "white is to move, but the strategy is black's",
    });
    // counted pawn tries: the document without them fails, and so does a wrong count
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), read(HAND_ROOK_LIFT)), {
      position: 1,
      path: ['try e7e6'],
      reason: 'the strategy has no branch for "0 pawn tries" after e7e6',
    });
    const wrongCount = clone(HAND_ROOK_LIFT_COUNTED);
    wrongCount.strategy.answers[0].replies[0].pawnTries = { count: 1 };
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), read(wrongCount)), {
      position: 1,
      path: ['try e7e6', '0 pawn tries', 'black h7h8'],
      reason: 'the strategy has no branch for "0 pawn tries" after black\'s move',
    });
    const existsInstead = clone(HAND_ROOK_LIFT_COUNTED);
    (existsInstead.strategy.answers[0] as { pawnTries: unknown }).pawnTries = { exists: false };
    expectFailure(verifyStrategy(problemOf(ROOK_LIFT, 3, counted), read(existsInstead)), {
      position: 1,
      path: ['try e7e6'],
      reason: 'the strategy has no branch for "0 pawn tries" after e7e6',
    });
    // Kg6 discovers a check along the h-file; a branch that expects a Rank check does not match
    const direction = clone(HAND_ROOK_FIVE);
    direction.strategy.answers[0].percept = legal({ check: true, directions: RANK });
    expectFailure(verifyStrategy(problemOf(ROOK_FIVE, 5), read(direction)), {
      position: 1,
      path: ['try h6g6'],
      reason: 'the strategy has no branch for "check (File)" after h6g6',
    });
  });
});

// ---- the JSON reader and the readable text ----

describe('strategy documents', () => {
  const fails = (doc: unknown, message: string) => {
    let error: unknown;
    try {
      strategyFromJson(doc);
    } catch (e) {
      error = e;
    }
    expect(error, `expected "${message}"`).toBeInstanceOf(KriegError);
    expect((error as KriegError).code).toBe('bad-strategy');
    expect((error as KriegError).message).toBe(message);
  };
  const edit = (change: (doc: typeof HAND_CAPTURE_REPLY & Record<string, unknown>) => void) => {
    const doc = clone(HAND_CAPTURE_REPLY) as typeof HAND_CAPTURE_REPLY & Record<string, unknown>;
    change(doc);
    return doc;
  };

  it('malformed documents are refused with the JSON path of the problem', () => {
    fails([], '$: expected an object');
    fails(null, '$: expected an object');
    fails(
      edit((d) => {
        d.format = 'krieg-problems';
      }),
      '$.format: expected "krieg-strategy"',
    );
    fails(
      edit((d) => {
        delete (d as Record<string, unknown>).format;
      }),
      '$.format: expected "krieg-strategy"',
    );
    fails(
      edit((d) => {
        d.version = 2;
      }),
      '$.version: unsupported version 2 (this krieg reads 1)',
    );
    fails(
      edit((d) => {
        (d as Record<string, unknown>).version = '1';
      }),
      '$.version: unsupported version "1" (this krieg reads 1)',
    );
    fails(
      edit((d) => {
        d.side = 'red';
      }),
      '$.side: expected "white" or "black"',
    );
    fails(
      edit((d) => {
        d.ply = 0;
      }),
      '$.ply: expected a positive integer',
    );
    fails(
      edit((d) => {
        d.ply = 2.5;
      }),
      '$.ply: expected a positive integer',
    );
    fails(
      edit((d) => {
        delete (d as Record<string, unknown>).strategy;
      }),
      '$.strategy: expected an object',
    );
  });

  it('bad attempts', () => {
    const msg = 'expected an attempt in UCI form (e2e4, e7e8q)';
    for (const bad of ['Kg6', 'f6g9', 'f6-g6', 'i6g6', 'e7e8k', 'E7E8', '', 7]) {
      fails(
        edit((d) => {
          (d.strategy as Record<string, unknown>).attempt = bad;
        }),
        `$.strategy.attempt: ${msg}`,
      );
    }
    fails(
      edit((d) => {
        d.strategy.answers[0].replies[1].next.attempt = 'a1a9';
      }),
      `$.strategy.answers[0].replies[1].next.attempt: ${msg}`,
    );
    fails(
      edit((d) => {
        delete (d.strategy as Record<string, unknown>).attempt;
      }),
      `$.strategy.attempt: ${msg}`,
    );
  });

  it('bad squares, percepts and branches', () => {
    fails(
      edit((d) => {
        d.strategy.answers[0].replies[1].percept.capture = 'd9';
      }),
      '$.strategy.answers[0].replies[1].percept.capture: expected a square name',
    );
    fails(
      edit((d) => {
        d.strategy.answers[0].replies[1].percept.capture = 'D2';
      }),
      '$.strategy.answers[0].replies[1].percept.capture: expected a square name',
    );
    fails(
      edit((d) => {
        (d.strategy.answers[0].replies[1].percept as Record<string, unknown>).capture = 11;
      }),
      '$.strategy.answers[0].replies[1].percept.capture: expected a square name',
    );
    fails(
      edit((d) => {
        (d.strategy.answers[0] as Record<string, unknown>).pawnTries = { squares: ['e4', 'z1'] };
      }),
      '$.strategy.answers[0].pawnTries.squares[1]: expected a square name',
    );
    fails(
      edit((d) => {
        (d.strategy.answers[0] as Record<string, unknown>).pawnTries = { some: 1 };
      }),
      '$.strategy.answers[0].pawnTries: expected {count}, {exists} or {squares}',
    );
    fails(
      edit((d) => {
        d.strategy.answers[0].percept.answer = 'maybe';
      }),
      "$.strategy.answers[0].percept: unknown answer 'maybe'",
    );
    fails(
      edit((d) => {
        delete (d.strategy.answers[0] as Record<string, unknown>).percept;
      }),
      '$.strategy.answers[0].percept: expected an object',
    );
    fails(
      edit((d) => {
        delete (d.strategy.answers[0] as Record<string, unknown>).replies;
      }),
      '$.strategy.answers[0]: expected "won": true, "next" or "replies"',
    );
    fails(
      edit((d) => {
        (d.strategy as Record<string, unknown>).answers = {};
      }),
      '$.strategy.answers: expected an array',
    );
    fails(
      edit((d) => {
        delete (d.strategy.answers[0].replies[0] as Record<string, unknown>).next;
      }),
      '$.strategy.answers[0].replies[0].next: expected an object',
    );
  });

  it('well-formed documents read as written (squares by name, pawn tries in every form)', () => {
    const s = read(HAND_CAPTURE_REPLY);
    expect(s).toMatchObject({ side: 'white', ply: 3, materialWins: false });
    const replies = (s.root.answers[0] as { replies: { heard: { percept: unknown } }[] }).replies;
    expect(replies[1].heard.percept).toEqual({ answer: 'legal', capture: 11 });
    const tries = (t: unknown) => {
      const d = clone(HAND_ROOK_LIFT) as Record<string, unknown>;
      (d.strategy as { answers: Record<string, unknown>[] }).answers[0].pawnTries = t;
      return read(d).root.answers[0].heard.tries;
    };
    expect(tries({ count: 2 })).toEqual({ count: 2 });
    expect(tries({ exists: true })).toEqual({ exists: true });
    expect(tries({ squares: ['a3', 'h6'] })).toEqual({ squares: [16, 47] });
    expect(read({ ...HAND_ROOK_LIFT, materialWins: true }).materialWins).toBe(true);
    // writing and reading back is the identity, for every hand-written document
    for (const doc of [
      HAND_TWO_ROOKS,
      HAND_ROOK_LIFT,
      HAND_ROOK_LIFT_COUNTED,
      HAND_CAPTURE_REPLY,
      HAND_ROOK_FIVE,
      HAND_ROOK_WAITING,
    ]) {
      const once = read(doc);
      expect(strategyFromJson(JSON.parse(JSON.stringify(strategyToJson(once))))).toEqual(once);
    }
  });

  it('the readable text lists every attempt under what was heard', () => {
    const text = strategyText(read(HAND_TWO_ROOKS));
    expect(text).toContain('White mates within 1 ply');
    expect(text).toMatch(/try a1a8\n\s+if check \(Rank\), checkmate: won\n\s+if Illegal:\n\s+try b1b8\n/);
    const five = strategyText(read(HAND_ROOK_FIVE));
    for (const attempt of ['h6g6', 'g6f6', 'h5h8']) expect(five).toContain(`try ${attempt}`);
    expect(five.indexOf('try h6g6')).toBeLessThan(five.indexOf('try g6f6'));
    expect(five.indexOf('try g6f6')).toBeLessThan(five.indexOf('try h5h8'));
    expect(five).toContain('if check (File): Black moves');
    const capture = strategyText(read(HAND_CAPTURE_REPLY));
    expect(capture).toContain('then if capture d2:');
    expect(capture.match(/try a1a8/g)).toHaveLength(2);
    const counted = strategyText(read(HAND_ROOK_LIFT_COUNTED));
    expect(counted).toContain('if 0 pawn tries: Black moves');
    expect(strategyText(read({ ...HAND_ROOK_LIFT, materialWins: true }))).toContain(
      'known material wins count as mate',
    );
  });
});
