// Strategies: what a proof of guaranteed mate tells the player to do. A strategy node is one
// attempt and, for every answer the player can hear, what follows: another attempt in the same
// turn (the attempt was rejected), a win (every position with that answer is won), or the
// opponent's unseen reply, split by what the player hears after it, each followed by the next
// strategy node. Decoded from the core's STRATEGY words (layout in assembly/solver/solve.ts),
// written as readable text and as JSON, and read back from JSON for `krieg verify`.
import { KriegError, fail } from '../errors';
import { decodePercept, encodePercept, directionNames, type Percept } from '../record/percept';
import { makeUci } from '../notation/move';
import { makeSquare, parseSquare, squaresOf } from '../notation/square';
import { parseUci } from '../notation/move';
import { STRATEGY_REJECTED } from '../constants';
import type { RuleSet } from '../record/rules';
import type { Side } from '../record/record';

/** Pawn-try announcement heard before a turn, under rules that announce them. */
export type TriesHeard = { count: number } | { exists: boolean } | { squares: number[] };

/** Everything heard at one branch point: the referee's percept and the pawn tries that follow. */
export interface Heard {
  percept: Percept;
  tries?: TriesHeard;
}

export type Branch =
  | { heard: Heard; next: StrategyNode }
  | { heard: Heard; won: true }
  | { heard: Heard; replies: { heard: Heard; next: StrategyNode }[] };

export interface StrategyNode {
  attempt: string;
  answers: Branch[];
}

/** A strategy with the question it answers. */
export interface Strategy {
  side: Side;
  ply: number;
  materialWins: boolean;
  root: StrategyNode;
}

// ---- from the core ----

function triesOf(rules: RuleSet, lo: number, hi: number): TriesHeard | undefined {
  if (rules.pawnTries === 'count') return { count: lo };
  if (rules.pawnTries === 'exists') return { exists: lo !== 0 };
  if (rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares') return { squares: squaresOf(lo, hi) };
  return undefined;
}

/** Decodes the core's strategy words (assembly/solver/solve.ts). */
export function decodeStrategy(words: Int32Array, rules: RuleSet): StrategyNode {
  let at = 0;
  const word = () => {
    if (at >= words.length) throw fail('bad-strategy', { text: "the core's strategy ends early" });
    return words[at++];
  };
  const heard = (): Heard => {
    const percept = decodePercept(word());
    const lo = word();
    const hi = word();
    const tries = percept.answer === 'legal' && !percept.end ? triesOf(rules, lo, hi) : undefined;
    return tries ? { percept, tries } : { percept };
  };
  const node = (): StrategyNode => {
    const attempt = makeUci(word());
    const answers: Branch[] = [];
    for (let parts = word(); parts > 0; parts--) {
      const h = heard();
      if (word() === STRATEGY_REJECTED) {
        answers.push({ heard: h, next: node() });
        continue;
      }
      const count = word();
      if (count === 0) {
        answers.push({ heard: h, won: true });
        continue;
      }
      const replies: { heard: Heard; next: StrategyNode }[] = [];
      for (let r = 0; r < count; r++) replies.push({ heard: heard(), next: node() });
      answers.push({ heard: h, replies });
    }
    return { attempt, answers };
  };
  return node();
}

// ---- text ----

function triesText(t: TriesHeard): string {
  if ('count' in t) return `${t.count} pawn tr${t.count === 1 ? 'y' : 'ies'}`;
  if ('exists' in t) return t.exists ? 'pawn tries' : 'no pawn tries';
  return t.squares.length ? `pawn tries ${t.squares.map(makeSquare).join(' ')}` : 'no pawn tries';
}

/** What was heard, in words: "Illegal", "capture e5, check (Long diagonal), 1 pawn try". */
export function heardText(h: Heard): string {
  const p = h.percept;
  if (p.answer !== 'legal') return p.answer === 'illegal' ? 'Illegal' : 'Nonsense';
  const parts: string[] = [];
  if (p.capture !== undefined)
    parts.push(
      `capture ${makeSquare(p.capture)}${p.captured ? ` (${p.captured})` : ''}${p.enPassant ? ' en passant' : ''}`,
    );
  if (p.directions) parts.push(`check (${directionNames(p.directions).join(', ')})`);
  else if (p.check) parts.push('check');
  if (p.promotion) parts.push('promotion');
  if (p.end) parts.push(p.end);
  if (h.tries) parts.push(triesText(h.tries));
  return parts.length ? parts.join(', ') : 'silence';
}

/** The strategy as indented text: an attempt, then per answer what follows. */
export function strategyText(s: Strategy): string {
  const them = s.side === 'white' ? 'Black' : 'White';
  const lines = [
    `${s.side === 'white' ? 'White' : 'Black'} mates within ${s.ply} ply${s.materialWins ? ' (known material wins count as mate)' : ''}:`,
  ];
  const walk = (node: StrategyNode, indent: string) => {
    lines.push(`${indent}try ${node.attempt}`);
    for (const b of node.answers) {
      const on = `${indent}  if ${heardText(b.heard)}:`;
      if ('won' in b) lines.push(`${on} won`);
      else if ('next' in b) {
        lines.push(on);
        walk(b.next, indent + '    ');
      } else {
        lines.push(`${on} ${them} moves`);
        for (const r of b.replies) {
          lines.push(`${indent}    then if ${heardText(r.heard)}:`);
          walk(r.next, indent + '      ');
        }
      }
    }
  };
  walk(s.root, '  ');
  return lines.join('\n') + '\n';
}

// ---- JSON ----

export const STRATEGY_FORMAT = 'krieg-strategy';
export const STRATEGY_VERSION = 1;

/** The JSON document of a strategy (percepts in the records' JSON form, squares by name). */
export function strategyToJson(s: Strategy): unknown {
  const heard = (h: Heard) => {
    const tries = h.tries && ('squares' in h.tries ? { squares: h.tries.squares.map(makeSquare) } : h.tries);
    return { percept: perceptJson(h.percept), ...(tries ? { pawnTries: tries } : {}) };
  };
  const node = (n: StrategyNode): unknown => ({
    attempt: n.attempt,
    answers: n.answers.map((b) => ({
      ...heard(b.heard),
      ...('won' in b
        ? { won: true }
        : 'next' in b
          ? { next: node(b.next) }
          : { replies: b.replies.map((r) => ({ ...heard(r.heard), next: node(r.next) })) }),
    })),
  });
  return {
    format: STRATEGY_FORMAT,
    version: STRATEGY_VERSION,
    side: s.side,
    ply: s.ply,
    materialWins: s.materialWins,
    strategy: node(s.root),
  };
}

function perceptJson(p: Percept): unknown {
  return { ...p, ...(p.capture !== undefined ? { capture: makeSquare(p.capture) } : {}) };
}

/** Reads a strategy document; errors name the JSON path of the problem. */
export function strategyFromJson(doc: unknown): Strategy {
  const bad = (path: string, what: string): never => {
    throw fail('bad-strategy', { text: `${path}: ${what}` });
  };
  const obj = (v: unknown, path: string): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : bad(path, 'expected an object');
  const top = obj(doc, '$');
  if (top.format !== STRATEGY_FORMAT) bad('$.format', `expected "${STRATEGY_FORMAT}"`);
  if (top.version !== STRATEGY_VERSION)
    bad('$.version', `unsupported version ${JSON.stringify(top.version)} (this krieg reads ${STRATEGY_VERSION})`);
  if (top.side !== 'white' && top.side !== 'black') bad('$.side', 'expected "white" or "black"');
  if (!Number.isInteger(top.ply) || (top.ply as number) < 1) bad('$.ply', 'expected a positive integer');
  const heard = (v: Record<string, unknown>, path: string): Heard => {
    const p = obj(v.percept, `${path}.percept`);
    let percept: Percept;
    try {
      const capture = p.capture === undefined ? undefined : typeof p.capture === 'string' ? parseSquare(p.capture) : -1;
      if (capture !== undefined && capture < 0) bad(`${path}.percept.capture`, 'expected a square name');
      percept = decodePercept(
        encodePercept({ ...(p as unknown as Percept), ...(capture !== undefined ? { capture } : {}) }),
      );
    } catch (error) {
      if (error instanceof KriegError && error.code !== 'bad-strategy') bad(`${path}.percept`, error.message);
      throw error;
    }
    if (v.pawnTries === undefined) return { percept };
    const t = obj(v.pawnTries, `${path}.pawnTries`);
    if (Number.isInteger(t.count)) return { percept, tries: { count: t.count as number } };
    if (typeof t.exists === 'boolean') return { percept, tries: { exists: t.exists } };
    if (Array.isArray(t.squares)) {
      const squares = t.squares.map((s, i) => {
        const sq = typeof s === 'string' ? parseSquare(s) : -1;
        return sq >= 0 ? sq : bad(`${path}.pawnTries.squares[${i}]`, 'expected a square name');
      });
      return { percept, tries: { squares } };
    }
    return bad(`${path}.pawnTries`, 'expected {count}, {exists} or {squares}');
  };
  const node = (v: unknown, path: string): StrategyNode => {
    const n = obj(v, path);
    if (typeof n.attempt !== 'string' || parseUci(n.attempt) === undefined)
      bad(`${path}.attempt`, 'expected an attempt in UCI form (e2e4, e7e8q)');
    if (!Array.isArray(n.answers)) bad(`${path}.answers`, 'expected an array');
    const answers = (n.answers as unknown[]).map((a, i): Branch => {
      const p = `${path}.answers[${i}]`;
      const b = obj(a, p);
      const h = heard(b, p);
      if (b.won === true) return { heard: h, won: true };
      if (b.next !== undefined) return { heard: h, next: node(b.next, `${p}.next`) };
      if (!Array.isArray(b.replies)) return bad(p, 'expected "won": true, "next" or "replies"');
      return {
        heard: h,
        replies: (b.replies as unknown[]).map((r, j) => {
          const rp = `${p}.replies[${j}]`;
          const rb = obj(r, rp);
          return { heard: heard(rb, rp), next: node(rb.next, `${rp}.next`) };
        }),
      };
    });
    return { attempt: n.attempt as string, answers };
  };
  return {
    side: top.side as Side,
    ply: top.ply as number,
    materialWins: top.materialWins === true,
    root: node(top.strategy, '$.strategy'),
  };
}
