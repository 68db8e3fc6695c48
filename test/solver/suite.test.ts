// The checkmate problem suite (issue 5, acceptance 1 and 2): every problem of
// test/data/problems/hand.json (built and solved by hand, the reasoning in each note) and
// harvested.json (from seeded self-play, scripts/harvest-problems.ts), on both backends: all seven
// algorithms give the same answer, the one the file expects, never "unknown" within a generous
// node limit; every proven strategy passes the independent verifier, also after a JSON round
// trip; and both backends do exactly the same work.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseProblems, type NamedProblem } from '../../host/solver/problemFile';
import { solve, ALGORITHMS } from '../../host/solver/solve';
import { strategyFromJson, strategyToJson, strategyText } from '../../host/solver/strategy';
import { verifyStrategy, verdictText } from '../../host/verify/verify';

const LIMITS = { nodes: 2_000_000 };
const FILES = ['hand.json', 'harvested.json'] as const;

const load = (file: string) =>
  parseProblems(readFileSync(new URL(`../data/problems/${file}`, import.meta.url), 'utf8'), file);
const sets = Object.fromEntries(FILES.map((f) => [f, load(f)])) as Record<(typeof FILES)[number], NamedProblem[]>;
const all = FILES.flatMap((file) => sets[file].map((problem) => ({ file, problem })));
const sideOf = (p: NamedProblem) => p.positions[0].split(' ')[1];

describe('the problem files', () => {
  it('hold at least 40 problems: 25 or more built by hand (some with Black to move), 20 or more harvested', () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(sets['hand.json'].length).toBeGreaterThanOrEqual(25);
    expect(sets['harvested.json'].length).toBeGreaterThanOrEqual(20);
    expect(sets['hand.json'].filter((p) => sideOf(p) === 'b').length).toBeGreaterThanOrEqual(3);
    for (const file of FILES) {
      for (const answer of ['proven', 'disproven']) {
        expect(sets[file].filter((p) => p.expect === answer).length, `${file}: ${answer}`).toBeGreaterThanOrEqual(5);
      }
    }
  });

  it('every problem has an expected answer, a note and a belief state of one side to move (hand-built: 1-20 positions, harvested: 2-100)', () => {
    const ids = new Set<string>();
    for (const { file, problem } of all) {
      const at = `${file} ${problem.id}`;
      expect(ids.has(problem.id), `${at}: id used twice`).toBe(false);
      ids.add(problem.id);
      expect(problem.expect, at).toMatch(/^(proven|disproven)$/);
      expect(problem.note?.length, at).toBeGreaterThan(20);
      expect(new Set(problem.positions.map((fen) => fen.split(' ')[1])).size, at).toBe(1);
      const [min, max] = file === 'hand.json' ? [1, 20] : [2, 100];
      expect(problem.positions.length, at).toBeGreaterThanOrEqual(min);
      expect(problem.positions.length, at).toBeLessThanOrEqual(max);
    }
    const plies = new Set(sets['hand.json'].map((p) => p.ply));
    for (const ply of [1, 3, 5]) expect(plies.has(ply), `a hand-built mate in ${ply} ply`).toBe(true);
  });
});

const engines = Object.fromEntries(BACKENDS.map((backend) => [backend, createEngine(backend)]));

describe('every algorithm, on both backends', () => {
  it.each(all.map(({ file, problem }) => [file, problem.id, problem] as const))(
    '%s %s: the expected answer, the same work on both backends; strategies verify',
    (file, id, problem) => {
      for (const algo of ALGORITHMS) {
        const work: Record<string, string> = {};
        for (const backend of BACKENDS) {
          const result = solve(engines[backend], problem, algo, LIMITS);
          const at = `${file} ${id}, ${algo} on ${backend}`;
          if (result.answer === 'unknown')
            expect.fail(`${at}: unknown (the ${result.limit} limit was hit after ${result.stats.nodes} nodes)`);
          expect(result.answer, at).toBe(problem.expect);
          work[backend] = `${result.answer} ${result.stats.nodes} nodes ${result.stats.positions} positions`;
          if (result.answer !== 'proven') {
            expect(result.strategy, at).toBeUndefined();
            continue;
          }
          const strategy = result.strategy!;
          const verdict = verifyStrategy(problem, strategy);
          if (!verdict.ok)
            expect.fail(`${at}: the verifier rejects the strategy\n${verdictText(verdict)}${strategyText(strategy)}`);
          const json = JSON.parse(JSON.stringify(strategyToJson(strategy)));
          const back = strategyFromJson(json);
          expect(back, `${at}: JSON round trip`).toEqual(strategy);
          const again = verifyStrategy(problem, back);
          if (!again.ok)
            expect.fail(`${at}: the verifier rejects the strategy read back from JSON\n${verdictText(again)}`);
        }
        expect(work.js, `${id} ${algo}: JS and WASM do the same work`).toBe(work.wasm);
      }
    },
  );
});
