// A relaxed model of the opponent's pawns for the premise experiment of issue 36 (track-premise.ts):
// his pieces abstracted away, his pawns' squares followed through the view, and a randomized
// depth-first search with nogoods for a pawn trajectory (on each of his turns: a pawn move, or a
// move of a man that is not a pawn) that breaks none of the constraints the view puts on pawns
// alone. Every constraint holds whatever his pieces do (sound: the truth's trajectory satisfies
// them all, which the experiment checks), so a trajectory found may still be impossible for the
// pieces: that is what the experiment measures. What the model knows of my men is my own board,
// taken from the game's true positions (the player knows it).
//
// Constraints, each where a pawn of his alone decides it:
// - his pawn moves: pushes onto squares none of my men and none of his pawns stand on, a double
//   push from his second rank over an empty square, captures onto the square announced, en passant
//   after my double push; a capture announced is made by a pawn that attacks the square or by a
//   piece; a promotion announced (where the rules announce it) is a pawn reaching his last rank;
// - after his move, no pawn of his attacks my king unless a check was announced along a diagonal
//   (or without directions);
// - my legal moves: the squares they pass over and land on (not a capture) hold no pawn of his, my
//   king is not left or castled through a pawn's attack, my capture on a square takes his pawn
//   there if one stands there (and must, or must not, under capture-kind rules), my en-passant
//   capture needs his double push just before;
// - "Any?" and pawn-try answers: his "no" (not in check) means no pawn of his attacks my man,
//   unless one of my sliders is on a line with it (it may be pinned); his "yes" (or the squares or
//   pawns announced) means some pawn of his attacks my man there (or may take en passant); my
//   "no" (not in check) means no pawn of his on a square my pawn attacks, unless my pawn is on a
//   line with my king.
import type { RuleSet } from '../../host/record/rules';
import type { Side, View } from '../../host/record/record';
import type { Percept } from '../../host/record/percept';
import type { Setup } from '../../host/notation/fen';
import { pieceColor, pieceType } from '../../host/notation/fen';
import { BISHOP, CHECK_LONG_DIAGONAL, CHECK_SHORT_DIAGONAL, KING, PAWN, QUEEN, ROOK } from '../../host/constants';

/** The plan word of a pawn move (assembly/belief/plan.ts); 0 is a move of a man that is not a pawn, -1 any move. */
export const planPawn = (from: number, to: number) => 1 + from + 64 * to;
const file = (s: number) => s & 7;
const rank = (s: number) => s >> 3;
const squareOf = (name: string) => name.charCodeAt(0) - 97 + 8 * (name.charCodeAt(1) - 49);

type Ask =
  { what: 'none' } | { what: 'some' } | { what: 'targets'; squares: number[] } | { what: 'pawns'; squares: number[] };

type Step =
  | {
      kind: 'mine';
      event: number;
      from: number;
      to: number;
      type: number;
      percept: Percept;
      king: number;
      /** The square of his pawn my en-passant capture takes, or -1. */
      epTaken: number;
      castle: { kingPath: number[]; between: number[] } | null;
    }
  | { kind: 'myAsk'; event: number; ask: Ask; pawns: number[]; king: number; inCheck: boolean }
  | {
      kind: 'hisAsk';
      event: number;
      ask: Ask;
      men: Set<number>;
      sliders: [number, number][];
      inCheck: boolean;
      myEp: number;
    }
  | { kind: 'his'; event: number; percept: Percept; men: Set<number>; king: number; myEp: number };

interface State {
  /** His pawns' squares, sorted. */
  pawns: number[];
  /** The square his pawn just double-pushed to (my en-passant chance), or -1. */
  ep: number;
}

/** The relaxed pawn problem of `view` (the player's own board read from the true positions `setups`, one per ply). */
export class PawnProblem {
  readonly steps: Step[] = [];
  readonly him: 0 | 1;
  private readonly rules: RuleSet;
  readonly start: number[];

  constructor(view: View, setups: Setup[]) {
    this.rules = view.rules;
    const me = view.as === 'white' ? 0 : 1;
    this.him = (me ^ 1) as 0 | 1;
    const mine = (b: number[], s: number) => b[s] !== 0 && pieceColor(b[s]) === me;
    const myKing = (b: number[]) => b.findIndex((c) => c !== 0 && pieceColor(c) === me && pieceType(c) === KING);
    this.start = [];
    setups[0].board.forEach((c, s) => {
      if (c !== 0 && pieceColor(c) === this.him && pieceType(c) === PAWN) this.start.push(s);
    });
    let ply = 0;
    let myEp = -1; // my pawn's double push just made (his en-passant chance)
    let iAmInCheck = false;
    let heIsInCheck = false;
    view.events.forEach((event, i) => {
      const board = setups[ply].board;
      if (event.type === 'attempt') {
        if (event.percept.answer !== 'legal') return;
        const from = squareOf(event.attempt.slice(0, 2));
        const to = squareOf(event.attempt.slice(2, 4));
        const type = pieceType(board[from]);
        let castle = null;
        if (type === KING && Math.abs(to - from) === 2) {
          const rookFrom = to > from ? from + 3 : from - 4;
          castle = {
            kingPath: [from, (from + to) / 2, to],
            between: squaresBetween(from, rookFrom),
          };
        }
        const epTaken = type === PAWN && file(from) !== file(to) && board[to] === 0 ? 8 * rank(from) + file(to) : -1;
        ply++;
        const king = myKing(setups[ply].board);
        this.steps.push({ kind: 'mine', event: i, from, to, type, percept: event.percept, king, epTaken, castle });
        myEp = type === PAWN && Math.abs(to - from) === 16 ? to : -1;
        heIsInCheck = event.percept.check === true;
        return;
      }
      if (event.type === 'opponent-move') {
        if (!event.percept) return;
        const men = new Set<number>();
        board.forEach((_, s) => mine(board, s) && men.add(s));
        ply++;
        this.steps.push({ kind: 'his', event: i, percept: event.percept, men, king: myKing(setups[ply].board), myEp });
        myEp = -1;
        iAmInCheck = event.percept.check === true;
        return;
      }
      const ask: Ask =
        event.type === 'any'
          ? { what: event.yes ? 'some' : 'none' }
          : event.count !== undefined
            ? { what: event.count > 0 ? 'some' : 'none' }
            : event.exists !== undefined
              ? { what: event.exists ? 'some' : 'none' }
              : this.rules.pawnTries === 'pawn-squares'
                ? { what: 'pawns', squares: event.squares ?? [] }
                : { what: 'targets', squares: event.squares ?? [] };
      if (event.side === view.as) {
        const pawns: number[] = [];
        board.forEach((c, s) => mine(board, s) && pieceType(c) === PAWN && pawns.push(s));
        this.steps.push({ kind: 'myAsk', event: i, ask, pawns, king: myKing(board), inCheck: iAmInCheck });
      } else {
        const men = new Set<number>();
        const sliders: [number, number][] = [];
        board.forEach((c, s) => {
          if (!mine(board, s)) return;
          men.add(s);
          const t = pieceType(c);
          if (t === BISHOP || t === ROOK || t === QUEEN) sliders.push([s, t]);
        });
        this.steps.push({ kind: 'hisAsk', event: i, ask, men, sliders, inCheck: heIsInCheck, myEp });
      }
    });
  }

  /** Squares a pawn of his on `s` attacks. */
  private attacks(s: number): number[] {
    const out: number[] = [];
    const up = this.him === 0 ? 8 : -8;
    const r = rank(s) + (this.him === 0 ? 1 : -1);
    if (r < 0 || r > 7) return out;
    if (file(s) > 0) out.push(s + up - 1);
    if (file(s) < 7) out.push(s + up + 1);
    return out;
  }

  private attacked(pawns: number[], target: number): boolean {
    return pawns.some((p) => this.attacks(p).includes(target));
  }

  /** His pawn on a square beside my double-pushed pawn (he may take it en passant). */
  private besideEp(pawns: number[], myEp: number): number[] {
    if (myEp < 0) return [];
    return pawns.filter((p) => rank(p) === rank(myEp) && Math.abs(file(p) - file(myEp)) === 1);
  }

  /** The states after step `k` from `state`, each with the plan word of his move (-1: not his turn). Empty: a constraint broken. */
  successors(k: number, state: State): { word: number; state: State }[] {
    const step = this.steps[k];
    const keep = [{ word: -1, state }];
    const { pawns } = state;
    switch (step.kind) {
      case 'myAsk': {
        if (step.inCheck || step.ask.what === 'some') return keep;
        const free = step.pawns.filter((p) => !aligned(p, step.king));
        for (const p of free) {
          const targets = myPawnTargets(p, this.him ^ 1);
          if (step.ask.what === 'pawns' && step.ask.squares.includes(p)) continue;
          for (const t of targets) {
            if (step.ask.what === 'targets' && step.ask.squares.includes(t)) continue;
            if (pawns.includes(t)) return [];
          }
          const epBeside = state.ep >= 0 && rank(p) === rank(state.ep) && Math.abs(file(p) - file(state.ep)) === 1;
          if (step.ask.what === 'none' && epBeside && !aligned(state.ep, step.king)) return [];
        }
        return keep;
      }
      case 'hisAsk': {
        const ep = this.besideEp(pawns, step.myEp);
        const hits = (p: number) => this.attacks(p).filter((t) => step.men.has(t));
        if (step.ask.what === 'some') return pawns.some((p) => hits(p).length > 0) || ep.length > 0 ? keep : [];
        if (step.ask.what === 'targets') {
          const epLanding = step.myEp + (this.him === 0 ? 8 : -8);
          for (const t of step.ask.squares)
            if (
              !(step.men.has(t) && this.attacked(pawns, t)) &&
              !(ep.length > 0 && (t === epLanding || t === step.myEp))
            )
              return [];
        }
        if (step.ask.what === 'pawns') for (const s of step.ask.squares) if (!pawns.includes(s)) return [];
        if (step.inCheck) return keep;
        for (const p of pawns) {
          if (step.sliders.some(([q, t]) => lines(q, p, t))) continue; // it may be pinned
          if (step.ask.what === 'pawns' && step.ask.squares.includes(p)) continue;
          for (const t of hits(p)) if (!(step.ask.what === 'targets' && step.ask.squares.includes(t))) return [];
        }
        return keep;
      }
      case 'mine': {
        const { from, to, type, percept } = step;
        let next = pawns;
        const over = type === KNIGHT_TYPE ? [] : squaresBetween(from, to);
        if (step.castle) over.push(...step.castle.between, to);
        if (over.some((s) => pawns.includes(s))) return [];
        if (step.castle && step.castle.kingPath.some((s) => this.attacked(pawns, s))) return [];
        if (percept.capture === undefined) {
          if (pawns.includes(to)) return [];
        } else {
          const taken = step.epTaken >= 0 ? step.epTaken : to;
          if (step.epTaken >= 0) {
            if (state.ep !== taken) return [];
          } else if (percept.captured === 'pawn' && !pawns.includes(taken)) return [];
          else if (percept.captured === 'piece' && pawns.includes(taken)) return [];
          next = pawns.filter((p) => p !== taken);
        }
        if (this.attacked(next, step.king)) return [];
        return [{ word: -1, state: { pawns: next, ep: -1 } }];
      }
      case 'his': {
        const { percept } = step;
        const out: { word: number; state: State }[] = [];
        const up = this.him === 0 ? 8 : -8;
        const last = this.him === 0 ? 7 : 0;
        const promotion = (to: number) => rank(to) === last;
        const add = (from: number, to: number) => {
          if (this.rules.promotionAnnounced && promotion(to) !== (percept.promotion === true)) return;
          const moved = pawns.filter((p) => p !== from);
          if (!promotion(to)) moved.push(to);
          moved.sort((a, b) => a - b);
          out.push({ word: planPawn(from, to), state: { pawns: moved, ep: Math.abs(to - from) === 16 ? to : -1 } });
        };
        const announcedEp = this.rules.enPassantAnnounced && percept.enPassant === true;
        if (!(this.rules.promotionAnnounced && percept.promotion) && !announcedEp)
          out.push({ word: 0, state: { pawns, ep: -1 } });
        if (percept.capture !== undefined) {
          const epSquare = this.rules.enPassantSquare === 'landing' ? step.myEp + up : step.myEp;
          if (step.myEp >= 0 && percept.capture === epSquare && (!this.rules.enPassantAnnounced || announcedEp))
            for (const p of this.besideEp(pawns, step.myEp)) add(p, step.myEp + up);
          if (!announcedEp)
            for (const p of pawns) if (this.attacks(p).includes(percept.capture)) add(p, percept.capture);
        } else {
          const blocked = (s: number) => step.men.has(s) || pawns.includes(s);
          for (const p of pawns) {
            if (blocked(p + up)) continue;
            add(p, p + up);
            if (rank(p) === (this.him === 0 ? 1 : 6) && !blocked(p + 2 * up)) add(p, p + 2 * up);
          }
        }
        const diagonal = CHECK_LONG_DIAGONAL | CHECK_SHORT_DIAGONAL;
        const pawnCheckHeard =
          percept.check === true &&
          (this.rules.checkDetail === 'plain' || ((percept.directions ?? 0) & diagonal) !== 0);
        return out.filter((o) => pawnCheckHeard || !this.attacked(o.state.pawns, step.king));
      }
    }
  }

  /** His pawn structure after each of his turns under `plan` (the squares, joined), or null where it breaks a constraint. */
  follow(plan: number[]): (string | null)[] {
    const out: (string | null)[] = [];
    let state: State | null = { pawns: [...this.start].sort((a, b) => a - b), ep: -1 };
    this.steps.forEach((step, k) => {
      if (state) {
        const word = plan[step.event];
        state = this.successors(k, state).find((n) => n.word === -1 || n.word === word)?.state ?? null;
      }
      if (step.kind === 'his') out.push(state ? state.pawns.join() : null);
    });
    return out;
  }

  /**
   * The distinct pawn structures (squares joined) of every state the model allows after each of
   * the first `steps` steps (a forward enumeration, duplicates merged), or null past `cap` states.
   */
  structuresAfter(steps: number, cap: number): Set<string> | null {
    let states = new Map<string, State>([['start', { pawns: [...this.start].sort((a, b) => a - b), ep: -1 }]]);
    for (let k = 0; k < steps; k++) {
      const next = new Map<string, State>();
      for (const state of states.values())
        for (const n of this.successors(k, state)) next.set(`${n.state.pawns.join()}|${n.state.ep}`, n.state);
      if (next.size > cap) return null;
      states = next;
    }
    return new Set([...states.values()].map((s) => s.pawns.join()));
  }

  /**
   * A trajectory satisfying every step (the plan word of each view event, -1 where not his turn),
   * by depth-first searches trying his moves in random order (`random`; a move of a piece first
   * with probability `pieceFirst`), restarted on a Luby schedule (`unit` states × luby(i)), with
   * nogoods (states proved to have no completion) kept across the restarts: null when `maxNodes`
   * states were tried without one. `forced` (a plan) restricts his choices to its words (-1: free).
   */
  solve(
    random: () => number,
    maxNodes: number,
    options: { forced?: number[]; unit?: number; pieceFirst?: number } = {},
  ): { plan: number[]; nodes: number; restarts: number } | null {
    const { forced, unit = 4096, pieceFirst = 0.5 } = options;
    const failed = new Set<string>();
    const words: number[] = new Array(this.steps.length).fill(-1);
    let nodes = 0;
    let limit = 0;
    const go = (k: number, state: State): boolean | null => {
      if (k === this.steps.length) return true;
      const key = `${k}|${state.pawns.join()}|${state.ep}`;
      if (failed.has(key)) return false;
      if (++nodes > limit) return null;
      const next = this.successors(k, state);
      for (let i = next.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [next[i], next[j]] = [next[j], next[i]];
      }
      const piece = next.findIndex((n) => n.word === 0);
      if (piece > 0 && random() < pieceFirst) next.unshift(...next.splice(piece, 1));
      for (const n of next) {
        const want = forced?.[this.steps[k].event] ?? -1;
        if (n.word !== -1 && want !== -1 && n.word !== want) continue;
        words[k] = n.word;
        const r = go(k + 1, n.state);
        if (r !== false) return r;
      }
      failed.add(key);
      return false;
    };
    for (let restart = 1; nodes < maxNodes; restart++) {
      limit = Math.min(maxNodes, nodes + unit * luby(restart));
      const r = go(0, { pawns: [...this.start].sort((a, b) => a - b), ep: -1 });
      if (r === false) return null; // the start itself has no completion
      if (r === true) {
        const plan: number[] = [];
        this.steps.forEach((s, k) => {
          if (s.kind === 'his') plan[s.event] = words[k];
        });
        return { plan: Array.from(plan, (w) => w ?? -1), nodes, restarts: restart - 1 };
      }
    }
    return null;
  }
}

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, … (i from 1). */
function luby(i: number): number {
  for (let k = 1; ; k++) {
    if (i === (1 << k) - 1) return 1 << (k - 1);
    if (i < (1 << k) - 1) return luby(i - (1 << (k - 1)) + 1);
  }
}

const KNIGHT_TYPE = 2;

/** Squares strictly between two squares on a line (none if they are not on one). */
function squaresBetween(a: number, b: number): number[] {
  const df = Math.sign(file(b) - file(a));
  const dr = Math.sign(rank(b) - rank(a));
  const straight = file(a) === file(b) || rank(a) === rank(b);
  const diagonal = Math.abs(file(b) - file(a)) === Math.abs(rank(b) - rank(a));
  if (a === b || (!straight && !diagonal)) return [];
  const out: number[] = [];
  for (let s = a + df + 8 * dr; s !== b; s += df + 8 * dr) out.push(s);
  return out;
}

/** On one rank, file or diagonal. */
function aligned(a: number, b: number): boolean {
  return file(a) === file(b) || rank(a) === rank(b) || Math.abs(file(a) - file(b)) === Math.abs(rank(a) - rank(b));
}

/** Could a slider of type `t` on `q` pin a man on `p` (on one of its lines, whatever stands between)? */
function lines(q: number, p: number, t: number): boolean {
  const straight = file(q) === file(p) || rank(q) === rank(p);
  const diagonal = Math.abs(file(q) - file(p)) === Math.abs(rank(q) - rank(p));
  return (straight && t !== BISHOP) || (diagonal && t !== ROOK);
}

/** Squares my pawn on `p` attacks (`color` mine). */
function myPawnTargets(p: number, color: number): number[] {
  const r = rank(p) + (color === 0 ? 1 : -1);
  if (r < 0 || r > 7) return [];
  const out: number[] = [];
  if (file(p) > 0) out.push(8 * r + file(p) - 1);
  if (file(p) < 7) out.push(8 * r + file(p) + 1);
  return out;
}

/** The truth's plan: for each of his turns in the view, the word of the move he made. */
export function truthPlan(view: View, setups: Setup[], moves: string[], as: Side): number[] {
  const plan: number[] = [];
  let ply = 0;
  view.events.forEach((event, i) => {
    const isMove =
      (event.type === 'attempt' && event.percept.answer === 'legal') ||
      (event.type === 'opponent-move' && event.percept !== undefined);
    if (!isMove) return;
    if (event.type === 'opponent-move') {
      const from = squareOf(moves[ply].slice(0, 2));
      const to = squareOf(moves[ply].slice(2, 4));
      plan[i] = pieceType(setups[ply].board[from]) === PAWN ? planPawn(from, to) : 0;
    }
    ply++;
  });
  void as;
  return Array.from(plan, (w) => w ?? -1);
}
