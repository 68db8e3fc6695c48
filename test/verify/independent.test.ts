// A second, independent opinion on the solver's answers (review of assembly/solver/ against SPEC
// §5): a deliberately plain belief-state AND-OR search written here over chessops (through the
// verifier's referee, host/verify/independentReferee.ts), sharing no code with the core. It follows SPEC §5
// literally: an OR node tries every attempt legal in some position and not yet tried this turn;
// the rejected positions (split into Illegal and Nonsense) retry in the same turn; each legal
// announcement's positions must all be won, or the opponent's every legal reply (grouped by what
// we hear) must lead to a proven OR node two plies later; stalemate (as a draw), draws and a
// non-won position with fewer than 3 plies left fail; an opponent move that ends the game fails.
// Theorem 2 (a failing subset fails the whole) is its only shortcut, plus memoising belief states.
//
// Seeded problems (1-3 positions, ply 1 or 3, every preset, material wins on and off; half of
// them proven): every algorithm on both backends must give the plain search's answer, and every
// proof must verify. (Run with more seeds and bigger budgets while reviewing: 1,300 problems, no
// disagreement.)
import { describe, expect, it } from 'vitest';
import { makeFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { createEngine, BACKENDS } from '../../host/node';
import { preset, PRESET_NAMES, withOverrides, type RuleSet } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { makeFenOfPieces } from '../../host/notation/fen';
import { solve, ALGORITHMS } from '../../host/solver/solve';
import { verifyStrategy, verdictText, isMaterialWin } from '../../host/verify/verify';
import {
  analyse,
  playLegal,
  positionFromFen,
  pawnTryRuledOut,
  announcedTrySquares,
  squaresIn,
  type Analysis,
} from '../../host/verify/independentReferee';

function triesHeard(a: Analysis, rules: RuleSet): string {
  if (rules.pawnTries === 'count') return `count ${a.pawnCaptures}`;
  if (rules.pawnTries === 'exists') return `exists ${a.pawnCaptures > 0}`;
  if (rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares')
    return `squares ${announcedTrySquares(a, rules).join(',')}`;
  return '';
}

class OutOfBudget extends Error {}

/** Can the side to move in `fens` force mate within `ply` plies? Throws OutOfBudget past `budget` OR nodes. */
export function plainSolve(
  fens: string[],
  ply: number,
  rules: RuleSet,
  materialWins: boolean,
  budget: number,
): boolean {
  const memo = new Map<string, boolean>();
  const keyOf = (a: Analysis) => makeFen(a.pos.toSetup());
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const or = (states: Analysis[], left: number, tried: Set<string>): boolean => {
    if (--budget < 0) throw new OutOfBudget();
    const key = `${states.map(keyOf).sort().join('|')} #${left} #${[...tried].sort().join(',')}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const attempts = new Set<string>();
    for (const s of states) for (const uci of s.legal.keys()) if (!tried.has(uci)) attempts.add(uci);
    let result = false;
    for (const uci of attempts) {
      const rejected = new Map<string, Analysis[]>();
      const parts = new Map<string, Analysis[]>();
      let failed = false;
      for (const s of states) {
        const move = s.legal.get(uci);
        if (!move) {
          const nonsense = !s.attemptable.has(uci) || pawnTryRuledOut(s, uci, rules);
          push(rejected, nonsense ? 'nonsense' : 'illegal', s);
          continue;
        }
        const played = playLegal(s, move, rules, []);
        const end = played.percept.end;
        if (
          end === 'checkmate' ||
          (end === 'stalemate' && rules.stalemate === 'loss') ||
          (!end && materialWins && isMaterialWin(played.after.pos))
        )
          continue;
        if (end || left < 3) {
          failed = true;
          break;
        }
        push(parts, JSON.stringify(played.percept) + triesHeard(played.after, rules), played.after);
      }
      if (failed) continue;
      let ok = true;
      for (const part of parts.values()) {
        const replies = new Map<string, Map<string, Analysis>>();
        for (const s of part) {
          for (const move of s.legal.values()) {
            const reply = playLegal(s, move, rules, []);
            if (reply.percept.end) {
              ok = false;
              break;
            }
            const heard = JSON.stringify(reply.percept) + triesHeard(reply.after, rules);
            if (!replies.has(heard)) replies.set(heard, new Map());
            replies.get(heard)!.set(keyOf(reply.after), reply.after);
          }
          if (!ok) break;
        }
        for (const group of replies.values()) if (ok && !or([...group.values()], left - 2, new Set())) ok = false;
        if (!ok) break;
      }
      if (!ok) continue;
      let subsetFailed = false;
      for (const part of rejected.values())
        if (!or(part, left, new Set([...tried, uci]))) {
          subsetFailed = true;
          break;
        }
      if (subsetFailed) break; // Theorem 2: the rejected positions are a subset of these
      result = true;
      break;
    }
    memo.set(key, result);
    return result;
  };
  const roots = new Map<string, Analysis>();
  for (const fen of fens) {
    const a = analyse(positionFromFen(fen), rules);
    roots.set(keyOf(a), a);
  }
  return or([...roots.values()], ply, new Set());
}

interface Generated {
  fens: string[];
  ply: number;
  rulesName: string;
  materialWins: boolean;
  proven: boolean;
}

/**
 * Seeded small problems near a mate: Black's king on the back rank, White's king close, White's
 * pieces (up to two of `whiteRoles`) the same in every position, Black's (up to two of `blackRoles`) varying.
 */
function generate(count: number, seed: number, whiteRoles = 'QRRBNP', blackRoles = 'qrbnp'): Generated[] {
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const fenOf = (pieces: Map<number, string>) => makeFenOfPieces(pieces);
  const out: Generated[] = [];
  const wanted = { proven: Math.ceil(count / 2), disproven: Math.floor(count / 2) };
  for (let attempt = 0; attempt < count * 200 && (wanted.proven > 0 || wanted.disproven > 0); attempt++) {
    const white = new Map<number, string>();
    const free = (board: Map<number, string>, ok: (sq: number) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const sq = rnd(64);
        if (!board.has(sq) && ok(sq)) return sq;
      }
      return -1;
    };
    white.set(
      free(white, (sq) => sq >= 40 && sq < 56),
      'K',
    );
    for (let i = rnd(2); i >= 0; i--) {
      const role = whiteRoles[rnd(whiteRoles.length)];
      const sq = free(white, (s) => role !== 'P' || (s >= 8 && s < 56));
      if (sq >= 0) white.set(sq, role);
    }
    const fens: string[] = [];
    const positions = 1 + rnd(3);
    for (let k = 0; k < positions * 4 && fens.length < positions; k++) {
      const board = new Map(white);
      const king = free(board, (sq) => sq >= 56);
      if (king < 0) continue;
      board.set(king, 'k');
      for (let i = rnd(3); i > 0; i--) {
        const role = blackRoles[rnd(blackRoles.length)];
        const sq = free(board, (s) => role !== 'p' || (s >= 8 && s < 56));
        if (sq >= 0) board.set(sq, role);
      }
      const fen = fenOf(board);
      try {
        positionFromFen(fen);
      } catch {
        continue;
      }
      if (!fens.includes(fen)) fens.push(fen);
    }
    if (fens.length === 0) continue;
    const rulesName = PRESET_NAMES[rnd(PRESET_NAMES.length)];
    const ply = rnd(3) === 0 ? 1 : 3;
    const materialWins = rnd(3) === 0;
    let proven: boolean;
    try {
      proven = plainSolve(fens, ply, preset(rulesName), materialWins, 400);
    } catch (error) {
      if (error instanceof OutOfBudget) continue;
      throw error;
    }
    if (proven ? wanted.proven-- <= 0 : wanted.disproven-- <= 0) continue;
    out.push({ fens, ply, rulesName, materialWins, proven });
  }
  return out;
}

// Minor pieces on both sides, so that moves into a material draw are common: each preset's own
// rule (berkeley: Berkeley's list; the others: dead positions) must judge them alike in the core
// (outcome.ts through the referee's percept) and in the plain search (chessops).
const MINOR = generate(24, 17, 'BBNNR', 'bbnn');
const PROBLEMS = [...generate(40, 5), ...MINOR];

/** Does a White move, or a Black reply to one, end the game by material under the problem's rules (judged by chessops)? */
function reachesMaterialDraw(p: Generated): boolean {
  const rules = preset(p.rulesName);
  return p.fens.some((fen) => {
    const a = analyse(positionFromFen(fen), rules);
    return [...a.legal.values()].some((m) => {
      const played = playLegal(a, m, rules, []);
      if (played.percept.end === 'draw-material') return true;
      return (
        !played.percept.end &&
        [...played.after.legal.values()].some(
          (r) => playLegal(played.after, r, rules, []).percept.end === 'draw-material',
        )
      );
    });
  });
}

describe('the plain search', () => {
  it('found a balanced seeded set', () => {
    expect(PROBLEMS.length).toBe(64);
    expect(PROBLEMS.filter((p) => p.proven).length).toBe(32);
    // the minor-piece problems do meet material draws, under both kinds of rule
    const drawing = MINOR.filter(reachesMaterialDraw);
    expect(
      drawing.filter((p) => p.rulesName === 'berkeley' || p.rulesName === 'berkeley-any').length,
    ).toBeGreaterThanOrEqual(3);
    expect(
      drawing.filter((p) => preset(p.rulesName).insufficientMaterialDraw === 'dead').length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('agrees with hand-worked answers', () => {
    const berkeley = preset('berkeley');
    // two rooks, either file blocked: mate in 1 only by retrying after Illegal
    expect(
      plainSolve(['7k/8/6K1/8/1p6/8/8/RR6 w - - 0 1', '7k/8/6K1/8/p7/8/8/RR6 w - - 0 1'], 1, berkeley, false, 1e4),
    ).toBe(true);
    // Kf7 Re7 v Kh7: mate in 3 (Re6 Kh8 Rh6#), not in 1
    expect(plainSolve(['8/4RK1k/8/8/8/8/8/8 w - - 0 1'], 3, berkeley, false, 1e4)).toBe(true);
    expect(plainSolve(['8/4RK1k/8/8/8/8/8/8 w - - 0 1'], 1, berkeley, false, 1e4)).toBe(false);
    // Kf8 Re7 v Kh8: every waiting move stalemates; no mate in 3 (it takes 5)
    expect(plainSolve(['5K1k/4R3/8/8/8/8/8/8 w - - 0 1'], 3, berkeley, false, 1e5)).toBe(false);
    // stalemate wins under rand's rules: Kf8 Re7 v Kh8, any quiet move that keeps the box (Rd7)
    expect(plainSolve(['5K1k/4R3/8/8/8/8/8/8 w - - 0 1'], 1, preset('rand'), false, 1e4)).toBe(true);
  });
});

describe("the referee's own-board attempts", () => {
  // the replays ask canAttempt of one attempt; the set is what a caller lists: they must agree on
  // every text (from a square holding a piece to any square, each promotion suffix on the last
  // ranks, malformed texts) at every position of random games, with castling and e.p., with
  // promotions, under the rules' promotion pieces and with castling off
  it('canAttempt(uci) is membership in attemptable, at every position of random games', () => {
    const engine = createEngine('wasm');
    const rules = [preset('berkeley'), withOverrides(preset('cincinnati'), { castling: false, promotionPieces: 'qn' })];
    const starts = [undefined, '3rk2r/1PP4p/8/8/8/8/6pp/R3K1R1 w Qk - 0 1'];
    let positions = 0;
    let members = 0;
    for (const [i, r] of rules.entries()) {
      for (const start of starts) {
        engine.setRules(r);
        const record = randomGame(engine, 500 + i, { maxPlies: 40, start });
        let a = analyse(positionFromFen(record.start), r);
        for (const e of record.events) {
          if (e.type !== 'attempt' || e.percept.answer !== 'legal') continue;
          const set = a.attemptable;
          const disagree: string[] = [];
          for (const from of squaresIn(a.pos.board.occupied))
            for (let to = 0; to < 64; to++)
              for (const suffix of to < 8 || to >= 56 ? ['', 'q', 'r', 'b', 'n', 'k'] : ['']) {
                const uci = `${makeSquare(from)}${makeSquare(to)}${suffix}`;
                if (a.canAttempt(uci) !== set.has(uci)) disagree.push(uci);
              }
          for (const odd of ['', 'e2', 'e2e', 'i2e4', 'e2e9', 'e2e4qq', 'E2E4'])
            if (a.canAttempt(odd)) disagree.push(odd);
          expect(disagree, makeFen(a.pos.toSetup())).toEqual([]);
          members += set.size;
          positions++;
          a = playLegal(a, a.legal.get(e.attempt)!, r, []).after;
        }
      }
    }
    expect(positions).toBeGreaterThan(100);
    expect(members).toBeGreaterThan(3_000);
  });
});

// The portable JS core is several times slower on these (the depth-first algorithms make up to
// some 20,000 nodes): it gets every third problem.
describe.each(BACKENDS)("every algorithm on %s gives the plain search's answer", (backend) => {
  const engine = createEngine(backend);

  it("hand-worked: stalemating the boxed king wins in 1 under rand's rules only, and the proof verifies", () => {
    const positions = ['5K1k/4R3/8/8/8/8/8/8 w - - 0 1'];
    for (const algo of ALGORITHMS) {
      expect(solve(engine, { rules: preset('berkeley'), positions, ply: 1 }, algo).answer, algo).toBe('disproven');
      const rand = { rules: preset('rand'), positions, ply: 1 };
      const r = solve(engine, rand, algo);
      expect(r.answer, algo).toBe('proven');
      expect(r.strategy!.root.answers.map((b) => b.heard.percept.end)).toEqual(['stalemate']);
      expect(verifyStrategy(rand, r.strategy!).ok).toBe(true);
      expect(verifyStrategy({ ...rand, rules: preset('berkeley') }, r.strategy!)).toMatchObject({
        ok: false,
        reason: `${r.strategy!.root.attempt} ends the game in stalemate`,
      });
    }
  });

  it.each(PROBLEMS.map((p, i) => ({ ...p, i })).filter((p) => backend === 'wasm' || p.i % 3 === 0))(
    '#$i $rulesName ply $ply materialWins $materialWins: proven $proven',
    (p) => {
      const problem = { rules: preset(p.rulesName), positions: p.fens, ply: p.ply, materialWins: p.materialWins };
      for (const algo of ALGORITHMS) {
        const r = solve(engine, problem, algo, { memoryBytes: 1 << 23 });
        expect(r.answer, `${algo} on ${JSON.stringify(p.fens)}`).toBe(p.proven ? 'proven' : 'disproven');
        if (r.strategy) {
          const v = verifyStrategy(problem, r.strategy);
          expect(v.ok, `${algo}: ${verdictText(v)}`).toBe(true);
        }
      }
    },
  );
});
