// Endgame technique (issue #34 item 3): while the opponent has a bare king and the player's belief
// holds at most 64 positions (its own men and a square for the king each: the exact belief, or the
// distinct positions of the tracker's pool once it is past exact), the player's move
// comes from the core's worst-case search over the metaposition (assembly/players/endgame.ts:
// the referee's answers and the king's replies as AND nodes, a progress measure at the horizon)
// instead of from sampling. A player keeps one of these and asks it first each turn; undefined
// hands the turn back to its usual choice.
//
// Past the exact belief the pool keeps a sampled line, not every square of his king (krieg v random,
// seed 1, game 38: the pool down to one position for the last 33 plies, and the technique shuffling
// around a square his king had left). So once his king is known bare the player follows its own
// set: from a sound first set (the exact belief's squares, else every square his king may stand
// on beside the player's men), each of its attempts and his moves heard moves the metaposition on
// (endgameAttempt, endgameReply), and each turn's search starts from that set, not the pool's.
//
// His men unknown (issue #34: 12 of the 16 games krieg v random capped at a7be49e were its heavy
// pieces against his king and a few pawns, most of them frozen). Under berkeley rules a capture is
// announced by its square only, so the pool's positions give him pieces where he has pawns, and no
// two of them agree on his men: the technique above never began. When the captures made leave him
// at most UNKNOWN_MEN men besides his king, krieg has a queen or a rook, the pool (past the exact
// belief) disagrees on the kinds of his men and krieg's edge is crushing over it (values.ts
// crushingOver), the technique follows his king from the sound set as if
// it were bare, reading only what his unseen men cannot fake: an Illegal answer (a man of his may
// block) and the Illegal attempts he makes (a blocked pawn's) tell nothing, and a move of his may be
// a man's (the king then still where it was: the set keeps its squares); a line a man of his
// blocks reads as attacked, so each turn the pool's king squares join the set. A capture either
// side makes starts it again next turn from the squares his king may have reached since (the set
// then, less the square taken, widened by a step at each move of his: before, from every square
// his king may stand on, and a far pocket of the set that nothing swept stayed in it to the cap;
// krieg v random, seed 2, game 104); an answer the bare king cannot give (a mate his man prevents)
// from every square. The search leaves krieg's own pawn steps out there (an unseen pawn of his in
// front would read as his king), but while the set spans more than MARCH_WIDE squares a safe step
// of its pawn comes first (pawnStep: a queen more is progress the set's width does not undo; krieg v
// random, seed 1, game 40: Q+R+B against K+B+2P shuffled for 60 plies, three free pawns unmoved), and so
// while the set has not narrowed for MARCH_STALLED turns since the last capture (game 131); short of a
// sure mate a safe promotion to a queen, and where the pawn on the seventh may not promote (his king
// may stand on or next to its square) a move of another man that guards the square, the promotion
// next (promotionGuards; game 167: pawns on c7 and g7 for 60 plies, to the cap). Both
// hold against a bare king too while krieg has no queen (game 50: a rook, a knight and three pawns
// against his bare king for 40 plies, the e-pawn home only at ply 186; with a queen the search
// mates sooner than a pawn promotes, and pawn steps first lost HS games 43 and 52 at the cap). His
// captures while the mode plays (he has pieces after all) turn it off after UNKNOWN_CAPTURES of them
// until the player takes a man of his or UNKNOWN_PAUSE turns pass; no attempt that may box his king
// beside his frozen pawns where the pool's positions put a man of his (mayStalemate; a sure mate only
// where MATE_RISK_SHARE of them do, and none whose mating man a man of his takes in HANG_SHARE of them;
// the core searches a sure mate again with his king staying, a man of his moving instead); and where
// PROMOTION_SHARE of the pool's positions have a pawn of his promoting next move, the turn goes to the
// sampling, whose screen counts a promotion as material he wins (the search here does not see his
// men), for PROMOTION_PATIENCE turns since a capture. An
// answer of the referee to its attempt that no square of the set gives reads his men on the lines to
// the set (attempted). A
// heuristic, not a sound set: test/players/follow.test.ts checks that it mates, not that the set
// holds his king.
//
// His men located (krieg v HS, seed 1, game 134: his king and three pawns, each blocked by a pawn
// of krieg's, for 90 plies; read as men that may move, they kept the set 20 to 30 squares wide).
// When krieg has a queen or a rook and each man of his stands in front of a pawn of krieg's — a
// step of it into the square answered Illegal since his last move but one, or a man of his there
// in every position of the pool whatever its kind (locatedMen), and in some of the pool's positions
// (frozenMen: a piece moves away, and game 84's knight was read as a pawn) — and krieg is DECISIVE
// ahead of that many pawns, the set is followed with those men as his frozen pawns in the
// metaposition, as with an exact belief's: his moves are his king's, the search sees the lines
// they block and the stalemates they complete, and the pool's kinds (queens for his pawns, which
// kept the crushing edge false) do not matter. A man there that is not a frozen pawn makes an
// answer the set cannot give sooner or later: begun again.
import type { Engine } from '../engine';
import {
  endgameAgainstUnknown,
  endgameAttempt,
  endgameStack,
  endgameBegin,
  endgameBeginSet,
  endgameReply,
  endgameSquares,
  endgameValues,
  ENDGAME_FAIL,
  ENDGAME_MAX_DEPTH,
  ENDGAME_WIN,
  type EndgameValue,
} from '../core/endgame';
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../constants';
import { parseFen, type Setup } from '../notation/fen';
import { between, kingDistance } from '../notation/square';
import { moveFrom, moveTo, parseUci, promotionType } from '../notation/move';
import { decodePercept, encodePercept } from '../record/percept';
import type { Side, View, ViewEvent } from '../record/record';
import { ownBoard } from '../referee/ownBoard';
import { smallBelief, type PositionSource, type SourcePositions } from './sources';
import { crushingOver, DECISIVE, MATERIAL } from './values';
import type { Turn, PlayerBudget } from './player';

/** Belief positions the metaposition is built from: one per square of the lone king. */
const MAX_SQUARES = 64;
/** What a placement of the men already chosen costs per visit (the progress measure's units: 12 a square of room). */
const REPEAT = 24;
/** The king on at most this many squares: the search looks one move deeper. */
const NEAR = 4;
/**
 * A search a move deeper takes up to this many times the time of the shallower one (measured: 50 to
 * 110 times against unknown men near his king; a deadline's deeper search goes by it).
 */
const DEEPER_GROWTH = 128;
/** Estimation work for the belief request when the budget has no node count. */
const WORK = 2_000_000;
/** His men besides the king, unknown, that the technique may play against as if his king were bare. */
export const UNKNOWN_MEN = 3;
/** Pool positions the crushing edge is read over before playing against unknown men. */
const UNKNOWN_SAMPLE = 64;
/** His captures while it plays against his unknown men after which the technique leaves them (until it takes a man, or for UNKNOWN_PAUSE turns). */
const UNKNOWN_CAPTURES = 2;
/**
 * The player's turns after his last capture that the technique, left by UNKNOWN_CAPTURES of them,
 * stays off (krieg v random, seed 2, game 162: his pawns took a bishop and a knight the set did not
 * see, and Q+N+2P against K+P shuffled the sampling's checks from ply 137 to the cap).
 */
export const UNKNOWN_PAUSE = 10;
/** Against unknown men, his king on more squares than this: a safe step of the player's pawn comes first (pawnStep). */
const MARCH_WIDE = 12;
/** A man of his located in front of a pawn of the player's is a frozen pawn only where this share of the pool's positions has one there (frozenMen). */
const STAYS_SHARE = 1 / 8;
/**
 * Against unknown men, a sure mate of the metaposition is vetoed as a possible stalemate (mayStalemate)
 * only where a man of his may stand in this share of the pool's positions, not in any one of them:
 * their men are everywhere, and the box check vetoed every mate (krieg v random, seed 1, game 100:
 * Rh2 "mated" his king on c2 in every square of the set, a man in one pool position might have
 * stood pinned on the second rank; two rooks and a queen against K+P to the cap).
 */
const MATE_RISK_SHARE = 1 / 8;
/**
 * Against unknown men, a sure mate of the metaposition after which a man of his takes the mating man
 * at a loss in this share of the pool's positions is no mate (krieg v random, seed 2, game 164: Qf2
 * "mated" his king on h2, and his knight on d1, there in a fifth of the pool's positions, took the
 * queen). Other attempts only rank by it (leastHanging): vetoed too, over pools that put his men
 * everywhere, they left the technique the worst moves (v HS, seed 1, game 4: a rook's safe step vetoed).
 */
const HANG_SHARE = 1 / 8;
/** Against unknown men, the set no narrower than it was this many turns ago (no capture since): the same. */
const MARCH_STALLED = 6;
/** Against unknown men, a man of his read on a line an Illegal answer blocked is kept there this many turns (he may move it). */
const BLOCKED_TURNS = 6;
/** Against unknown men, a square where at least this share of the pool's positions read has a man of his is read blocked too. */
const AGREED_SHARE = 7 / 8;
/**
 * Against unknown men, the share of the pool's positions where a pawn of his promotes next move
 * from which the turn goes to the sampling (krieg v HS, seed 1, games 9 and 49: his pawn walked to
 * its last rank beside the technique's rook and bishop, which read his men as blockers only).
 */
const PROMOTION_SHARE = 1 / 8;
/**
 * Turns handed to the sampling for his promotion since the last capture after which the technique
 * plays on: a promotion the pool keeps seeing that long is one it lost track of, and the sampling
 * has no mating technique (krieg v random, seed 1, game 100: two rooks against K+P, a seventh of the
 * pool's positions his pawn on its last step for 60 plies, the sampling's rook checking a1-a2-a1 to
 * the cap; his pawn stood on c4).
 */
export const PROMOTION_PATIENCE = 6;

/** The player's men `own` after `attempt`, the key of the visits below. */
function menAfter(own: Setup, attempt: number): string {
  const squares = own.board.slice();
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  squares[to] = squares[from];
  squares[from] = 0;
  return squares.join(',');
}

/** A value the worst case decides: a sure mate or a possible loss, which no repetition penalty touches. */
const decisive = (value: number) => value <= ENDGAME_FAIL + 100_000 || value >= ENDGAME_WIN - 100_000;

/** His men at the start of `view` less the captures the player made: 1 when his king is alone. */
export function hisMenLeft(view: View): number {
  const his = view.as === 'white' ? 1 : 0;
  let men = parseFen(view.start).board.filter((code) => code !== 0 && code >> 3 === his).length;
  for (const event of view.events)
    if (event.type === 'attempt' && event.side === view.as && event.percept.capture !== undefined) men--;
  return men;
}

export class EndgameTechnique {
  readonly counters = { endgameMoves: 0, endgameNodes: 0, endgameFollowed: 0 };
  /**
   * How often each placement of its men the player has chosen: an attempt back to one costs REPEAT
   * a visit (the search's horizon sees no cycle; without this a flat progress measure shuffles).
   */
  private readonly visits = new Map<string, number>();
  /** Against a bare king: the squares his king may be on, followed event by event (undefined: not following). */
  private followed: number[] | undefined;
  /** The player's men at its turn (itself to move, no man of his): the position the followed set goes with. */
  private own: Setup | undefined;
  /** Its legal attempt not yet answered by his move: the set before it, the attempt and its percept. */
  private pending: { squares: number[]; attempt: number; percept: number } | undefined;
  /** The followed set plays against his unknown men (see the head of this file). */
  private unknown = false;
  /** His captures heard while the set played against unknown men since the player's last capture (UNKNOWN_CAPTURES). */
  private unknownCaptures = 0;
  /** The player's turn (`turns`) when the last of them was heard. */
  private unknownCaptureTurn = 0;
  /**
   * His men located in front of the player's pawns, one square for each (locatedMen): they stand in
   * the metaposition as his frozen pawns, and his moves are his king's.
   */
  private frozen: number[] | undefined;
  /** Against unknown men: the squares a man of his stands on in some of the pool's positions this turn. */
  private poolMen: Set<number> | undefined;
  /** Against unknown men: the share of the pool's positions read this turn where a pawn of his may promote next move. */
  private promoting = 0;
  /** Turns handed to the sampling for it since the last capture (PROMOTION_PATIENCE). */
  private promotionWaits = 0;
  /**
   * Against unknown men: his king's squares carried over a capture that dropped the set (the set
   * then, widened by a step at each move of his since), where the technique begins again.
   */
  private carried: number[] | undefined;
  /** The player's turns so far (choose calls), and the set followed at the last the technique played. */
  private turns = 0;
  private lastFollowed: { squares: number[]; turn: number } | undefined;
  /** The narrowest set the technique played on since the last capture heard, and the turn it was first that narrow (MARCH_STALLED). */
  private narrowest = { size: Infinity, turn: 0 };
  /**
   * Against unknown men: squares where a man of his blocked a line of the player's (an Illegal
   * answer to a piece's slide), with the turn it was heard (BLOCKED_TURNS); the search's lines do
   * not pass them. krieg v random, seed 1, game 29: his pawn on h3 blocked Qh2-h7, a mate in the
   * metaposition, so every attempt there was "a mate next move" and for 22 plies the technique
   * chose among hundreds of equal values while his king stood on three squares.
   */
  private readonly blocked = new Map<number, number>();
  /** Against unknown men: the pool's positions read this turn (their boards), where leastHanging looks. */
  private boardsRead: number[][] = [];
  /**
   * Against unknown men: the share of the pool's positions read this turn with a man of his (not his
   * king) on each square; its squares are where readBlocker and readInterposed look.
   */
  private menShares = new Map<number, number>();
  /**
   * Against unknown men: the squares where AGREED_SHARE of the pool's positions read this turn have a
   * man of his, read blocked as well (krieg v random, seed 1, game 153: his pawn on b4, in every
   * position, shielded a5 from Be1; the set, reading a5 attacked, lost his king there and Rc7 stalemated him).
   */
  private menAgreed: number[] = [];
  /**
   * Squares in front of the player's pawns whose step there was answered Illegal (his last move no
   * check) since the last capture heard: a man of his stood there, and a pawn of his there stays
   * (it leaves only by a capture, which is heard).
   */
  private readonly fronts = new Set<number>();
  /**
   * Against unknown men: the squares the player's men check only along a line through a square of
   * `fronts` still in front of its pawn (shieldedBy). Not in the set (the pool's positions may have
   * moved that man away), but a box check reads his king there too (krieg v random, seed 1: game 145,
   * his f5 pawn, in one of the pool's 64 positions, shielded g6 from Qd3, the set lost his king there
   * and Ne7 stalemated him on h7; game 153, his b4 pawn shielded a5 from Be1, Rc7 stalemated him).
   */
  private shielded: number[] = [];
  /** His last move gave check (an Illegal slide then may only leave the king in check). */
  private checked = false;

  /** His colour (0 white, 1 black). */
  private get hisColour(): number {
    return this.side === 'white' ? 1 : 0;
  }

  /** `depth`: attacker moves the search looks ahead (0: off). */
  constructor(
    private readonly engine: Engine,
    private readonly source: PositionSource,
    private readonly depth: number,
    private readonly random: () => number,
    private readonly side: Side,
  ) {}

  /** The squares of the followed set (undefined while the technique follows none). */
  get squares(): readonly number[] | undefined {
    return this.followed;
  }

  /**
   * Where his king may be for a box check: the followed set, or the turn after the technique last
   * followed one, that set widened by his king's step. Against unknown men an answer the bare king
   * cannot give empties the set (krieg v random, seed 1, game 100: Ra8 "mated" his king on a2, his
   * a7 pawn shielded it; next turn, the set lost, the sampling's Rd1 stalemated him there).
   */
  get recentSquares(): readonly number[] | undefined {
    if (this.followed?.length) return this.unknown ? [...this.followed, ...this.shielded] : this.followed;
    const last = this.lastFollowed;
    if (!last || this.turns - last.turn > 1) return undefined;
    return widened(last.squares);
  }

  /** Against unknown men: the squares a man of his is read to block (readBlocker), ascending. */
  get blockedSquares(): number[] {
    return this.blockedNow().sort((a, b) => a - b);
  }

  /** Whether the followed set plays against his men unknown (the head of this file). */
  get againstUnknownMen(): boolean {
    return this.followed !== undefined && this.unknown;
  }

  /** The turn goes to another technique (a tablebase's): the followed set would miss its events. */
  drop(): void {
    this.followed = undefined;
    this.pending = undefined;
    this.unknown = false;
    this.frozen = undefined;
    this.poolMen = undefined;
  }

  /** Against unknown men, a capture: the set dropped, `squares` carried to where the technique begins again. */
  private dropCarrying(squares: number[]): void {
    this.drop();
    this.carried = squares;
  }

  /** Each event of the player's view: the followed set moves on with it (a failure drops it). */
  observe(event: ViewEvent): void {
    // a man of his taken: what he has left is another question (krieg v random, seed 1, game 174: two
    // captures by his pawns turned the mode off for good, and his king and a frozen pawn survived 115 plies)
    if (event.type === 'attempt' && event.side === this.side && event.percept.capture !== undefined)
      this.unknownCaptures = 0;
    if ((event.type === 'attempt' || event.type === 'opponent-move') && event.percept?.capture !== undefined) {
      this.narrowest = { size: Infinity, turn: 0 }; // a man fewer (his or mine): a new ending
      this.promotionWaits = 0;
      this.blocked.clear();
      this.menAgreed = [];
      this.fronts.clear();
    }
    if (event.type === 'attempt' && event.side === this.side && event.percept.answer !== 'legal' && !this.checked)
      this.readFront(parseUci(event.attempt)!);
    if (event.type === 'opponent-move') this.checked = event.percept?.check === true;
    if (this.carried && event.type === 'opponent-move') this.carried = widened(this.carried);
    if (!this.followed) return;
    try {
      if (event.type === 'attempt' && event.side === this.side) {
        if (event.percept.end) return this.drop(); // the game is over
        const attempt = parseUci(event.attempt)!;
        const percept = encodePercept(event.percept);
        if (this.unknown) this.readBlocker(attempt, event.percept.answer === 'legal');
        if (this.unknown && event.percept.answer !== 'legal') return; // a man of his may block: nothing moved, nothing known
        // one of his men: begun again next turn, from the squares his king stood on (less the one taken)
        if (this.unknown && event.percept.capture !== undefined)
          return this.dropCarrying(this.followed.filter((sq) => sq !== event.percept.capture));
        const taken = event.percept.capture;
        if (taken !== undefined) {
          // a frozen pawn taken; else a man the metaposition has not (a piece read as a frozen pawn that has
          // moved on): begun again next turn (english, krieg v random, seed 1, game 33: his bishop, read on e6
          // as a pawn, taken on c4; the queen then stepped to e6 and the metaposition, its pawn there, lost her)
          if (!this.frozen?.includes(taken)) return this.drop();
          this.frozen = this.frozen.filter((sq) => sq !== taken);
        }
        if (!this.own || !this.begin(this.own, this.followed)) return this.drop();
        const before = this.followed;
        if (!this.attempted(this.own, before, attempt, percept)) return this.drop();
        this.followed = endgameSquares(this.engine);
        // a legal one: his move answers it (the records between may be another's by then: begun again there)
        if (event.percept.answer === 'legal') this.pending = { squares: before, attempt, percept };
      } else if (event.type === 'opponent-move') {
        const pending = this.pending;
        this.pending = undefined;
        if (!pending || !event.percept || !this.own) return this.drop();
        if (event.percept.end) return this.drop();
        if (this.unknown && event.percept.capture !== undefined) {
          this.unknownCaptures++;
          this.unknownCaptureTurn = this.turns;
          // his king's (a step onto the square) or a man's (his king stayed): begun again next turn from there
          return this.dropCarrying(widened(this.followed));
        }
        if (!this.begin(this.own, pending.squares)) return this.drop();
        endgameAttempt(this.engine, pending.attempt, pending.percept);
        // his men unknown: a move of his may be a man's, the king not moved — out of a check too where a
        // man of his may step between, read then on that line as on one an Illegal slide found blocked
        // (krieg v random, seed 1, game 182: Qa5+ checked his king on h5 along the fifth rank, his knight
        // stepped to c5 between, and the set, reading a king's step out of check, lost him: the sampling's
        // Qg2 stalemated him on h5 beside the pinned knight)
        const kings = this.unknown ? endgameSquares(this.engine) : []; // his king's squares after the attempt
        const checked = decodePercept(pending.percept).check;
        const stayed = checked ? kings.filter((sq) => this.readInterposed(pending.attempt, sq, kings)) : kings;
        endgameReply(this.engine, encodePercept(event.percept), this.unknown ? 0 : (event.illegal ?? 0));
        this.followed = [...new Set([...endgameSquares(this.engine), ...stayed])].sort((a, b) => a - b);
        this.own = undefined; // its move and his capture: read again from the view at its turn
      }
    } catch {
      this.drop(); // an answer the set does not give (his men were not what the entry read): the next turn starts again
    }
  }

  /**
   * Moves the core's metaposition (begun on `squares`) on by the player's `attempt` answered
   * `percept`; false where no square of the set gives that answer. Against unknown men an answer
   * the bare king cannot give (no check where every square of the set is on an open line of a piece
   * of the player's) has a man of his on those lines: read blocked, and the set kept (krieg v random,
   * seed 1, game 189: his king in f8-h8, Ra8 no check, his rook on c8 between; begun again from
   * every square, the set lost his king, and g6-g7+ hung the rook on e7 to him).
   */
  private attempted(own: Setup, squares: number[], attempt: number, percept: number): boolean {
    const moved = () => {
      try {
        endgameAttempt(this.engine, attempt, percept);
        return true;
      } catch {
        return false;
      }
    };
    if (moved()) return true;
    if (!this.unknown) return false;
    const lines = openLines(ownBoardAfter(own.board, own.side, attempt), own.side, squares);
    if (!lines.length) return false;
    for (const sq of lines) this.blocked.set(sq, this.turns);
    return this.begin(own, squares) && moved();
  }

  /**
   * The attempt of the best worst-case value among those open this turn, or undefined when not in
   * such an endgame; none that `repeats` says may repeat a position a third time (rules with a
   * repetition draw).
   */
  choose(
    turn: Turn,
    budget: PlayerBudget,
    workPerNode: number,
    repeats?: (attempt: number) => boolean,
  ): number | undefined {
    if (this.depth <= 0) return undefined;
    const own = ownSetup(turn.view);
    this.own = own;
    this.turns++;
    const size = this.enter(turn, budget, workPerNode, own);
    if (size === undefined) return undefined;
    // his men in front of the player's pawns (an Illegal step): the squares they shield, and where his men may stand
    const fronts = this.unknown ? this.frontsNow(own) : new Set<number>();
    this.shielded = this.unknown ? shieldedBy(this.engine, own, fronts) : [];
    if (this.unknown && this.promoting >= PROMOTION_SHARE && this.promotionWaits < PROMOTION_PATIENCE) {
      this.promotionWaits++;
      return undefined;
    }
    if (this.followed) this.lastFollowed = { squares: this.followed, turn: this.turns };
    // against unknown men: no attempt that may box his king beside them (they may stand on its last steps)
    const men = this.unknown ? hisMenLeft(turn.view) - 1 : 0;
    // against unknown men the set may not close in (krieg v random, seed 1, game 40: 22 to 33 squares for
    // 60 plies, its Q+R+B against K+B+2P and three free pawns of its own left unmoved; game 131: 10 squares
    // for 32 plies, Q+2R+2B against K+B+N+P, the technique's rooks shuffling): a queen more first;
    // so against a bare king while the player has none (game 50)
    if (size < this.narrowest.size) this.narrowest = { size, turn: this.turns };
    const march =
      (this.unknown || !hasKind(own, QUEEN)) &&
      (size > MARCH_WIDE || this.turns - this.narrowest.turn >= MARCH_STALLED);
    // the squares a man of his is read to block: a piece pinned there may complete a stalemate (mayStalemate)
    const pieces = new Set(this.blockedNow());
    const marchStep = (attempts: number[]) => {
      const step = pawnStep(this.engine, own, attempts, this.followed ?? [], men, this.poolMen, pieces);
      if (step !== undefined) this.counters.endgameMoves++;
      return step;
    };
    const unknownStep = march && this.unknown ? marchStep(turn.attempts) : undefined;
    if (unknownStep !== undefined) return unknownStep;
    const kings = march && !this.unknown ? endgameSquares(this.engine) : [];
    // one move deeper once the king is nearly found (the mating net: few attempts matter, and they are cheap)
    const depth = size <= NEAR ? Math.min(this.depth + 1, ENDGAME_MAX_DEPTH - 1) : this.depth;
    const { values, nodes } = this.valuesWithin(depth, turn.deadline);
    this.counters.endgameNodes += nodes;
    if (march && !this.unknown) {
      // his king bare or his pawns frozen: a step the metaposition has (not one his frozen pawn blocks) that
      // risks no man another attempt would keep (where every attempt may lose one, any), and none that stalemates
      // him on a square of the set (wild16, seed 1, game 30: h4-h3 boxed his king on h1 beside his blocked e7 pawn)
      const safe = values.some(({ value }) => value > ENDGAME_FAIL);
      const sound = new Set(values.filter(({ value }) => !safe || value > ENDGAME_FAIL).map(({ attempt }) => attempt));
      const step = marchStep(
        turn.attempts.filter((attempt) => sound.has(attempt) && !this.stalemates(own, attempt, kings)),
      );
      if (step !== undefined) return step;
    }
    const open = new Set(turn.attempts);
    // against unknown men a step of its pawn Illegal would read as his king in front: the sampling's
    if (this.unknown)
      for (const attempt of turn.attempts) if ((own.board[attempt & 63] & 7) === PAWN) open.delete(attempt);
    const ranked = values
      .filter(({ attempt }) => open.has(attempt))
      .map(({ attempt, value }) => {
        const v = decisive(value) ? value : value - REPEAT * (this.visits.get(menAfter(own, attempt)) ?? 0);
        return { attempt, v };
      })
      .sort((a, b) => b.v - a.v);
    const box: BoxCheck = {
      squares: this.recentSquares ?? [],
      men,
      where: this.poolMen && new Set([...this.poolMen, ...fronts]),
      likely: this.poolMen && new Set([...this.likelyMen(), ...fronts, ...pieces]),
      pieces,
      hangs: this.unknown ? hangsOften(this.engine, own, this.boardsRead) : undefined,
    };
    const { attempts, value: bestValue } = bestUnvetoed(this.engine, own, ranked, box, repeats);
    if (this.unknown && bestValue < ENDGAME_WIN - ENDGAME_MAX_DEPTH) {
      // the search leaves the player's pawn steps out here: short of a sure mate a safe promotion comes
      // first, however narrow the set (krieg v random, seed 1, game 156: b2-b1=Q mated his king on a2,
      // the follow-up of the search's mate in 2, and was never played; the king walked out)
      const promotion = marchStep(turn.attempts.filter((attempt) => promotionType(attempt) === QUEEN));
      if (promotion !== undefined) return promotion;
      // none safe: a man to guard the square first, the best of the search's that no position of the pool
      // hangs (seed 1, game 167: his king on a set over ranks 7 and 8, pawns on c7 and g7 for 60 plies)
      const guards = new Set(promotionGuards(this.engine, own, turn.attempts));
      const hangs = hangCounter(this.engine, own, this.boardsRead);
      const guarding = bestUnvetoed(
        this.engine,
        own,
        ranked.filter(({ attempt, v }) => guards.has(attempt) && v > ENDGAME_FAIL && hangs(attempt) === 0),
        box,
        repeats,
      );
      if (guarding.attempts.length) {
        this.counters.endgameMoves++;
        return guarding.attempts[Math.floor(this.random() * guarding.attempts.length)];
      }
    }
    // every attempt may lose a man (a pawn the king can take whatever krieg does): the sampling's values weigh what
    if (!attempts.length || bestValue <= ENDGAME_FAIL) return undefined;
    this.counters.endgameMoves++;
    // against unknown men the search does not see them take: of the best, those the pool's positions hang least
    const best = this.unknown ? leastHanging(this.engine, own, attempts, this.boardsRead) : attempts;
    // a mate's value carries no visits (above): of the best, the placements least visited (krieg v random,
    // seed 1, game 55: against his knight and pawn every mate in 1 hung the mating queen in the pool's
    // positions and was vetoed, and the mates in 2 leading to them shuffled a knight b5-d6 to the cap)
    const keys = best.map((attempt) => menAfter(own, attempt));
    const visits = keys.map((key) => this.visits.get(key) ?? 0);
    const least = Math.min(...visits);
    const fresh = best.flatMap((_, i) => (visits[i] === least ? [i] : []));
    const chosen = fresh[Math.floor(this.random() * fresh.length)];
    this.visits.set(keys[chosen], visits[chosen] + 1);
    return best[chosen];
  }

  /**
   * The search's values `depth` moves deep. With a deadline a search deeper than the technique's
   * own depth comes after that one, and only where the shallower search's time DEEPER_GROWTH times
   * over still ends before the deadline (the reply-times bench, game 3: against unknown men a set of
   * four squares searched a move deeper took 4.4 million nodes, 1.5 s at 1 s a move, after 56,000 at
   * the technique's depth). Without one (a node budget) the depth is as asked: the games stay the same.
   */
  private valuesWithin(depth: number, deadline: number | undefined): { values: EndgameValue[]; nodes: number } {
    const search = (d: number) => endgameValues(this.engine, d, { sound: !this.unknown });
    if (deadline === undefined || depth <= this.depth) return search(depth);
    const started = performance.now();
    const shallow = search(this.depth);
    const now = performance.now();
    if (now + (now - started) * DEEPER_GROWTH >= deadline) return shallow;
    const deep = search(depth);
    return { values: deep.values, nodes: shallow.nodes + deep.nodes };
  }

  /**
   * Builds this turn's metaposition in the core and returns the size of its set, or undefined when
   * the opponent has more than a bare king (or frozen pawns the belief does not agree on). The
   * followed set while there is one; else the exact belief's squares where his king is bare in it;
   * else, his king bare by the captures made or in every position of the pool, the sound first set;
   * with frozen pawns of his in the belief, its squares as before (widened by a step past the exact
   * layer), rebuilt each turn and not followed.
   */
  private enter(turn: Turn, budget: PlayerBudget, workPerNode: number, own: Setup): number | undefined {
    const limits = { work: budget.nodes === undefined ? WORK : budget.nodes * workPerNode, deadline: turn.deadline };
    // against unknown men the pool's kings too: a line his man blocks was read as attacked (a square lost)
    const pool = this.followed && this.unknown ? this.readPool(limits) : undefined;
    // ... and his men now located: begun again with them as his frozen pawns
    if (pool && this.frozenOf(turn.view, own, pool.handles)) this.drop();
    // ... or a man of the player's stepped quietly onto a square read as his frozen pawn: a piece of his stood there
    // and moved on unheard (krieg:screen=256 v random, seed 4, game 5: Kg4-h4, and the set laid the pawn over the king)
    if (this.frozenUnder(own)) this.drop();
    if (this.followed) {
      // squares his king cannot be on now (taken or attacked: should not happen) leave; none left, start again
      const sound = new Set(this.soundSet(own));
      this.poolMen = pool?.men;
      const squares = [...new Set([...this.followed, ...(pool?.kings ?? [])])]
        .filter((sq) => sound.has(sq))
        .sort((a, b) => a - b);
      if (squares.length && this.begin(own, squares)) {
        this.followed = squares;
        this.counters.endgameFollowed++;
        return squares.length;
      }
      this.drop();
    }
    const bare = hisMenLeft(turn.view) <= 1; // known from the captures made, whatever the pool's positions hold
    // one position first: is the opponent's king bare? (cheap, and the usual answer is no)
    const first = this.source.positions(1, limits);
    if (first.handles.length > 0 && endgameBegin(this.engine, first.handles)) {
      // the exact belief, or past it the pool's distinct positions (sources.ts smallBelief)
      const belief = smallBelief(this.engine, this.source, limits, MAX_SQUARES);
      const handles = belief?.handles;
      if (handles && endgameBegin(this.engine, handles)) {
        const pawns = hasPawns(this.engine.setup(handles[0]), this.side);
        if (belief.exact && !pawns) return this.follow(own, endgameSquares(this.engine));
        if (!pawns) return this.follow(own, this.soundSet(own));
        if (!bare) {
          // his frozen pawns: the set rebuilt each turn; past the exact layer the pool may have lost his last step
          if (!belief.exact && !endgameBegin(this.engine, handles, undefined, true)) return undefined;
          return handles.length;
        }
      }
    }
    if (bare) return this.follow(own, this.soundSet(own));
    if (this.unknownCaptures >= UNKNOWN_CAPTURES && this.turns - this.unknownCaptureTurn > UNKNOWN_PAUSE)
      this.unknownCaptures = 0;
    if (
      this.unknownCaptures >= UNKNOWN_CAPTURES ||
      hisMenLeft(turn.view) > 1 + UNKNOWN_MEN ||
      !hasKind(own, QUEEN, ROOK)
    )
      return undefined;
    const sample = this.source.positions(UNKNOWN_SAMPLE, limits);
    const boards = sample.handles.map((handle) => this.engine.setup(handle).board);
    this.promoting = this.promotingShare(boards);
    this.readMen(boards);
    const frozen = this.frozenOf(turn.view, own, sample.handles);
    return (
      (frozen && this.followFrozen(own, frozen)) ??
      (this.againstUnknown(sample) ? this.follow(own, this.carriedOrSound(own), true) : undefined)
    );
  }

  /**
   * May the technique play against his men unknown (the head of this file; at most UNKNOWN_MEN left
   * him by the captures made and a queen or a rook of the player's, checked before): a crushing edge
   * over the pool's positions `pool` (past the exact belief, and they disagree on the kinds of his men)?
   */
  private againstUnknown(pool: SourcePositions): boolean {
    // an exact belief knows his men; a pool whose positions agree on their kinds (a knight somewhere) too
    if (pool.exact || new Set(pool.handles.map((h) => this.kindsOf(h))).size <= 1) return false;
    return crushingOver(this.engine, pool.handles);
  }

  /**
   * Against unknown men, the player's `attempt` answered: a piece's slide Illegal (its king not in
   * check) has a man of his on its path, read on the squares of it where the pool's positions put
   * one (none where they put none: his king may stand on the path beyond his man); a legal one has
   * none there.
   */
  private readBlocker(attempt: number, legal: boolean): void {
    const piece = (this.own?.board[attempt & 63] ?? 0) & 7;
    if (piece !== QUEEN && piece !== ROOK && piece !== BISHOP) return;
    const path = between(attempt & 63, (attempt >> 6) & 63);
    if (legal) {
      for (const sq of path) this.blocked.delete(sq);
      return;
    }
    if (this.checked) return;
    for (const sq of path) if (this.menShares.has(sq)) this.blocked.set(sq, this.turns);
  }

  /** The player's `attempt` answered Illegal: a step of its pawn straight ahead finds a man of his in front (fronts). */
  private readFront(attempt: number): void {
    const from = moveFrom(attempt);
    const to = moveTo(attempt);
    if (((this.own?.board[from] ?? 0) & 7) === PAWN && Math.abs(to - from) === 8) this.fronts.add(to);
  }

  /** The squares of `fronts` still in front of a pawn of the player's `own`, free of its men. */
  private frontsNow(own: Setup): Set<number> {
    const behind = own.side === 0 ? -8 : 8;
    const pawn = PAWN | (own.side << 3);
    return new Set([...this.fronts].filter((sq) => own.board[sq] === 0 && own.board[sq + behind] === pawn));
  }

  /**
   * After the player's `attempt` checked his king on `square` and he answered: may a man of his have
   * stepped between (interposingSquares)? Those squares where the pool's positions read this turn
   * put a man of his or one reaches in a move, and not squares of `kings` (his king's after the
   * attempt: a man read there hid him, and on b6 behind a6, read blocked, the set lost him and c8=Q
   * stalemated him; seed 2, game 85),
   * are read blocked, as an Illegal slide's are (every square of the line read blocked kept the
   * search's lines off whole ranks, and the set lost his king after a capture: test/players/follow.test.ts).
   */
  private readInterposed(attempt: number, square: number, kings: number[]): boolean {
    if (!this.own) return false;
    // a man of the pool's there, or one that may move there (krieg v HS, seed 1, game 30: Ra7+ checked his
    // king on a1, his bishop stepped from b5 to a4 between, and the set, with no man read on the a-file, lost
    // him; b4-b3 then stalemated him beside the pinned bishop)
    const men = [...this.menShares.keys()];
    const line = interposingSquares(this.engine, this.own, attempt, square).filter(
      (sq) => men.some((from) => from === sq || mayMoveTo(from, sq)) && !kings.includes(sq),
    );
    for (const sq of line) this.blocked.set(sq, this.turns);
    return line.length > 0;
  }

  /** The squares a man of his was read to block in the last BLOCKED_TURNS turns, and those the pool agrees on. */
  private blockedNow(): number[] {
    for (const [sq, turn] of this.blocked) if (this.turns - turn > BLOCKED_TURNS) this.blocked.delete(sq);
    return [...new Set([...this.blocked.keys(), ...this.menAgreed])];
  }

  /** His frozen pawns (frozenMen over the pool's positions `pool`) where the player is DECISIVE ahead of that many pawns, else undefined. */
  private frozenOf(view: View, own: Setup, pool: number[]): number[] | undefined {
    const frozen = frozenMen(
      view,
      own,
      pool.map((handle) => this.engine.setup(handle).board),
    );
    return frozen && material(own) - frozen.length >= DECISIVE ? frozen : undefined;
  }

  /** The kinds of his men but his king in position `handle`, as a key. */
  private kindsOf(handle: number): string {
    const his = this.hisColour;
    const kinds = this.engine
      .setup(handle)
      .board.filter((code) => code && code >> 3 === his && (code & 7) !== KING)
      .map((code) => code & 7);
    return kinds.sort().join(',');
  }

  /** The share of the positions' `boards` (the player to move) where a pawn of his may promote on his next move: on his last step, the square ahead empty or one to take beside it. */
  private promotingShare(boards: number[][]): number {
    if (!boards.length) return 0;
    const his = this.hisColour;
    const pawn = PAWN | (his << 3);
    const forward = his === 0 ? 8 : -8;
    const lastStep = his === 0 ? 6 : 1;
    const promotes = (board: number[]) =>
      board.some((code, sq) => {
        if (code !== pawn || sq >> 3 !== lastStep) return false;
        const ahead = sq + forward;
        const takes = (to: number) => Math.abs((to & 7) - (sq & 7)) === 1 && board[to] !== 0 && board[to] >> 3 !== his;
        return board[ahead] === 0 || takes(ahead - 1) || takes(ahead + 1);
      });
    return boards.filter(promotes).length / boards.length;
  }

  /** His king's squares and the squares of his other men over UNKNOWN_SAMPLE positions of the pool (each consistent with every observation). */
  private readPool(limits: { work: number; deadline?: number }): {
    kings: number[];
    men: Set<number>;
    handles: number[];
  } {
    const { handles } = this.source.positions(UNKNOWN_SAMPLE, limits);
    const boards = handles.map((handle) => this.engine.setup(handle).board);
    this.promoting = this.promotingShare(boards);
    const kings = this.readMen(boards);
    return { kings, men: new Set(this.menShares.keys()), handles };
  }

  /** The squares where at least MATE_RISK_SHARE of the pool's positions read this turn have a man of his. */
  private likelyMen(): number[] {
    return [...this.menShares].filter(([, share]) => share >= MATE_RISK_SHARE).map(([sq]) => sq);
  }

  /** Reads his men's squares on the pool's `boards` (menShares, menAgreed); his king's squares, one for each board. */
  private readMen(boards: number[][]): number[] {
    const his = this.hisColour;
    const kings: number[] = [];
    const count = new Map<number, number>();
    for (const board of boards)
      board.forEach((code, sq) => {
        if (code === (KING | (his << 3))) kings.push(sq);
        else if (code && code >> 3 === his) count.set(sq, (count.get(sq) ?? 0) + 1);
      });
    this.boardsRead = boards;
    this.menShares = new Map([...count].map(([sq, n]) => [sq, n / boards.length]));
    this.menAgreed = [...count].filter(([, n]) => n >= AGREED_SHARE * boards.length).map(([sq]) => sq);
    return kings;
  }

  /**
   * Starts following from `squares` (against his men unknown: `unknown`; his pawns frozen on
   * `frozen`); the size of the set, or undefined when the core takes no bare king.
   */
  private follow(own: Setup, squares: number[], unknown = false, frozen?: number[]): number | undefined {
    this.frozen = frozen;
    this.unknown = unknown;
    if (!squares.length || !this.begin(own, squares)) {
      this.frozen = undefined;
      this.unknown = false;
      return undefined;
    }
    this.followed = squares;
    this.pending = undefined;
    this.counters.endgameFollowed++;
    return squares.length;
  }

  /** Follows his king with his men frozen pawns on `frozen`; undefined where they cannot be (a pawn of his giving check, or not frozen). */
  private followFrozen(own: Setup, frozen: number[]): number | undefined {
    try {
      this.frozen = frozen; // the sound set around them
      return this.follow(own, this.soundSet(own), false, frozen);
    } catch {
      this.drop();
      return undefined;
    }
  }

  /** The core's metaposition from the player's men `own` (and his frozen pawns) and his king on `squares`. */
  private begin(own: Setup, squares: number[]): boolean {
    if (!squares.length) return false;
    if (this.frozenUnder(own)) return false;
    const king = KING | ((own.side ^ 1) << 3);
    const men = this.withFrozen(own.board);
    const place = (record: number, square: number, board = men) => {
      const placed = board.slice();
      placed[square] = king;
      this.engine.setSetup(record, { ...own, board: placed });
    };
    if (!this.unknown) return endgameBeginSet(this.engine, squares, place);
    // against unknown men a square behind his man on a blocked line is in check on the player's board alone
    const record = endgameStack(this.engine) + 1;
    const blocked = this.blockedNow().filter((sq) => men[sq] === 0);
    const shields = withBlockers(men, blocked, own.side ^ 1);
    const loads = (square: number, board: number[]) => {
      try {
        place(record, square, board);
        return true;
      } catch {
        return false;
      }
    };
    const loaded = squares.filter((sq) => loads(sq, men));
    const shielded = squares.filter((sq) => !loaded.includes(sq) && loads(sq, shields));
    if (shielded.length + loaded.length < squares.length) return false; // a square no blocked line explains
    // every square shielded (a line read blocked right then): a record held by his king on another square
    let loadedOn: number | undefined;
    if (!loaded.length) {
      loadedOn = men.findIndex((code, sq) => code === 0 && loads(sq, men));
      if (loadedOn < 0) return false;
    }
    if (!endgameBeginSet(this.engine, loaded.length ? loaded : [loadedOn!], place)) return false;
    endgameAgainstUnknown(this.engine, blocked, shielded, loadedOn);
    return true;
  }

  /**
   * Does `attempt` of the player's men `own` stalemate him, his king on one of `kings` beside his
   * frozen pawns (not in check, no legal move)? His pawns are read from the metaposition's root
   * record, which holds them whether they came from the belief or were located (withFrozen).
   */
  private stalemates(own: Setup, attempt: number, kings: number[]): boolean {
    const his = this.hisColour;
    const root = this.engine.setup(endgameStack(this.engine)).board;
    const hisPawn = (code: number) => (code >> 3 === his && (code & 7) === PAWN ? code : 0);
    const board = ownBoardAfter(own.board, own.side, attempt).map((code, sq) => code || hisPawn(root[sq]));
    return kings.some((king) => {
      if (board[king] !== 0) return false;
      const probe = board.slice();
      probe[king] = KING | (his << 3);
      return hisMoves(this.engine, own, probe)?.length === 0;
    });
  }

  /**
   * Every square his bare king may stand on beside the player's men `own` with the player to move:
   * empty of them and not attacked by them (his king is not in check). A superset of his squares.
   */
  private soundSet(own: Setup): number[] {
    const plain = this.withFrozen(own.board);
    // against unknown men, his men read on blocked lines: none guarded behind them; but his king may
    // stand on such a square (a read man is one guess of several: krieg v random, seed 1, game 152,
    // Qa1+ read men on a2 and a4 that may have stepped between, his king went a5-b6 instead and later
    // b6-a5-a4, and the set, with no square on a4, lost him for the last 12 plies of two queens v K+N)
    const board = this.unknown ? withBlockers(plain, this.blockedNow(), this.hisColour) : plain;
    const squares: number[] = [];
    for (let sq = 0; sq < 64; sq++) {
      if (plain[sq] !== 0) continue;
      let attacked: boolean;
      try {
        attacked = guarded(this.engine, own, board, sq);
      } catch {
        // the men read on blocked squares make no position (more men than he may have, a check of the
        // player's king): the board without them
        attacked = guarded(this.engine, own, plain, sq);
      }
      if (!attacked) squares.push(sq);
    }
    return squares;
  }

  /**
   * The squares carried over the last capture against unknown men that are sound now, else the
   * sound set (and nothing carried further).
   */
  private carriedOrSound(own: Setup): number[] {
    const sound = this.soundSet(own);
    const carried = new Set(this.carried ?? []);
    this.carried = undefined;
    const kept = sound.filter((sq) => carried.has(sq));
    return kept.length ? kept : sound;
  }

  /** Does a man of the player's stand where a frozen pawn of his is read (then no pawn of his is there)? */
  private frozenUnder(own: Setup): boolean {
    return this.frozen?.some((sq) => own.board[sq] !== 0) ?? false;
  }

  /** `board` with his frozen pawns on it (none: `board` itself). */
  private withFrozen(board: number[]): number[] {
    if (!this.frozen?.length) return board;
    const men = board.slice();
    const pawn = PAWN | (this.hisColour << 3);
    for (const sq of this.frozen) men[sq] = pawn;
    return men;
  }
}

/** `board` with a man of colour `his` on each empty square of `blocked` (a pawn; on the first and last ranks a knight). */
function withBlockers(board: number[], blocked: readonly number[], his: number): number[] {
  const men = board.slice();
  for (const sq of blocked) if (men[sq] === 0) men[sq] = (sq >> 3 === 0 || sq >> 3 === 7 ? KNIGHT : PAWN) | (his << 3);
  return men;
}

/**
 * Is empty square `sq` guarded by the player's men on `board` (`own`'s side, the rest of `own` as
 * it is): would his king there stand next to the player's king or in check?
 */
function guarded(engine: Engine, own: Setup, board: number[], sq: number): boolean {
  // next to the player's king: attacked (and no position to set up)
  if (distance(sq, board.indexOf(KING | (own.side << 3))) <= 1) return true;
  const record = endgameStack(engine) + 1;
  const probe = board.slice();
  probe[sq] = KING | ((own.side ^ 1) << 3);
  engine.setSetup(record, { ...own, board: probe, side: (own.side ^ 1) as 0 | 1 });
  return engine.inCheck(record);
}

/** Does a man of some kind go from square `from` to `to` in one move on an empty board (a line or a knight's jump)? */
function mayMoveTo(from: number, to: number): boolean {
  const files = Math.abs((from & 7) - (to & 7));
  const ranks = Math.abs((from >> 3) - (to >> 3));
  return files === 0 || ranks === 0 || files === ranks || files * ranks === 2;
}

/**
 * The empty squares between the sliding pieces of side `side` on `board` and the squares of
 * `targets` they reach along an open line (where a man of the other side would stop the line),
 * but those of `targets` (his king may stand there).
 */
function openLines(board: number[], side: number, targets: number[]): number[] {
  const squares = new Set(targets.flatMap((to) => sliderPaths(board, side, to).flat()));
  return [...squares].filter((sq) => !targets.includes(sq)).sort((a, b) => a - b);
}

/** `squares` and every square a king's step from one of them. */
function widened(squares: number[]): number[] {
  return Array.from({ length: 64 }, (_, sq) => sq).filter((sq) => squares.some((f) => distance(f, sq) <= 1));
}

/** King steps between squares `a` and `b` (infinite when `b` is -1: no king there). */
function distance(a: number, b: number): number {
  return b < 0 ? Infinity : kingDistance(a, b);
}

/** The player's material (pawn 1 … queen 9) in `own`. */
function material(own: Setup): number {
  return own.board.reduce((sum, code) => sum + (code && code >> 3 === own.side ? MATERIAL[code & 7] : 0), 0);
}

/** The empty squares in front of the player's pawns (its men `own`): where a man of his would block one. */
function fronts(own: Setup): number[] {
  const forward = own.side === 0 ? 8 : -8;
  const pawn = PAWN | (own.side << 3);
  return own.board
    .map((code, sq) => (code === pawn && own.board[sq + forward] === 0 ? sq + forward : -1))
    .filter((sq) => sq >= 0);
}

/** Has the player (its men `own`) a man of one of the kinds `kinds`? */
function hasKind(own: Setup, ...kinds: number[]): boolean {
  return own.board.some((code) => code >> 3 === own.side && kinds.includes(code & 7));
}

/**
 * His men besides his king when each one is located in front of a pawn of the player's (its men
 * `own`, from `view`; krieg v HS, seed 1, game 134: his king and three pawns, each blocked by one
 * of krieg's, for 90 plies, and the set read his moves as maybe a man's and never closed in): a
 * step of the pawn into the square answered Illegal since his last move but one, no capture heard
 * since, the pawn still behind it and the square empty of the player's men; or a square of
 * `agreed` (one the pool's positions all put a man of his on) — one square for each man of his.
 * Undefined when fewer (or more: his king may be one) are located, or one is on the last rank (a
 * piece of his there, or his king).
 */
export function locatedMen(view: View, own: Setup, agreed: number[] = []): number[] | undefined {
  const men = hisMenLeft(view) - 1;
  if (men <= 0) return undefined;
  const forward = own.side === 0 ? 8 : -8;
  const front = new Set(fronts(own));
  const found = new Set<number>(agreed);
  let hisMoves = 0;
  for (let i = view.events.length - 1; i >= 0; i--) {
    const event = view.events[i];
    if (event.type === 'opponent-move') {
      if (event.percept?.capture !== undefined || ++hisMoves > 1) break;
    } else if (event.type === 'attempt' && event.side === view.as) {
      if (event.percept.capture !== undefined) break;
      const attempt = parseUci(event.attempt);
      if (attempt === undefined || event.percept.answer !== 'illegal') continue;
      const to = moveTo(attempt);
      if (to === moveFrom(attempt) + forward && front.has(to)) found.add(to);
    }
  }
  // on the last rank: a piece of his, or his king
  if (found.size !== men || [...found].some((sq) => sq >> 3 === 0 || sq >> 3 === 7)) return undefined;
  return [...found].sort((a, b) => a - b);
}

/** The player's men from its view (itself to move, none of his: his king goes on a square of the set). */
export function ownSetup(view: View): Setup {
  const own = ownBoard(view);
  const side = view.as === 'white' ? 0 : 1;
  return { board: own.board, side, castling: own.castling, epSquare: -1, halfmove: 0, fullmove: 1 };
}

/** Men of the opponent of `side` other than his king in `setup` (his frozen pawns). */
function hasPawns(setup: Setup, side: Side): boolean {
  const his = side === 'white' ? 1 : 0;
  return setup.board.some((code) => code !== 0 && code >> 3 === his && (code & 7) !== KING);
}

/**
 * His men located in front of the player's pawns (its men `own`; locatedMen, with the squares where
 * every one of the pool's boards `boards` has a man of his but his king agreed), each on a square
 * where at least STAYS_SHARE of the boards have one: a man the pool has moved away nearly everywhere
 * is a piece (a pawn in front of a pawn cannot move), and the set would read its moves as his king's
 * (krieg v random, seed 1, game 84: his knight located on g5 by an Illegal step a turn before, the
 * pool's square empty in 63 of 64, his king lost, a stalemate). The pool moves his blocked pawns too,
 * holding them as pieces (v HS game 98: his frozen pawn on h5 in 2 of 5, game 69 in 9 of 10), so a
 * share well below a half. Undefined where they are not all located so.
 */
export function frozenMen(view: View, own: Setup, boards: number[][]): number[] | undefined {
  const his = own.side ^ 1;
  const hisMan = (code: number) => code !== 0 && code >> 3 === his && (code & 7) !== KING;
  const agreed = boards.length ? fronts(own).filter((sq) => boards.every((board) => hisMan(board[sq]))) : [];
  const frozen = locatedMen(view, own, agreed);
  const stays = (sq: number) => boards.filter((board) => hisMan(board[sq])).length >= STAYS_SHARE * boards.length;
  return frozen?.every(stays) ? frozen : undefined;
}

/**
 * His moves on `board` (the rest of the player's setup `own` as it is, his side to move), set up in the
 * scratch record beside the metaposition; undefined where that position cannot be (the player's king in
 * check, or the two kings side by side) or he is in check.
 */
function hisMoves(engine: Engine, own: Setup, board: number[]): number[] | undefined {
  const record = endgameStack(engine) + 1;
  try {
    engine.setSetup(record, { ...own, board, side: (own.side ^ 1) as 0 | 1, epSquare: -1 });
  } catch {
    return undefined;
  }
  return engine.inCheck(record) ? undefined : engine.moves(record);
}

/** What the box check (mayStalemate) reads in a turn against unknown men: `where` for any attempt, `likely` for a sure mate. */
export interface BoxCheck {
  squares: readonly number[];
  men: number;
  where?: Set<number>;
  likely?: Set<number>;
  pieces?: ReadonlySet<number>;
  /** Against unknown men: does the attempt hang the moved man in HANG_SHARE of the pool's positions? (asked of sure mates) */
  hangs?: (attempt: number) => boolean;
}

/**
 * The attempts of the best value among `ranked` (by value, descending) that `repeats` does not stop
 * and the box check does not veto, and that value (-Infinity: none). A sure mate of the metaposition
 * is checked against the squares where his men are likely (`likely`: MATE_RISK_SHARE of the pool's
 * positions), any other attempt against every square where one may stand (`where`); a sure mate
 * that hangs the mating man (`hangs`) is none.
 */
export function bestUnvetoed(
  engine: Engine,
  own: Setup,
  ranked: readonly { attempt: number; v: number }[],
  box: BoxCheck,
  repeats?: (attempt: number) => boolean,
): { attempts: number[]; value: number } {
  const attempts: number[] = [];
  let value = -Infinity;
  for (const { attempt, v } of ranked) {
    if (attempts.length && v < value) break;
    if (repeats?.(attempt)) continue; // a draw by repetition near
    const where = v >= ENDGAME_WIN - ENDGAME_MAX_DEPTH ? box.likely : box.where;
    if (box.men > 0 && mayStalemate(engine, own, attempt, box.squares, box.men, where, box.pieces)) continue;
    if (v >= ENDGAME_WIN - ENDGAME_MAX_DEPTH && box.hangs?.(attempt)) continue; // a "mate" his man answers by taking
    attempts.push(attempt);
    value = v;
  }
  return { attempts, value };
}

/**
 * Against `men` unknown men of his (the pool gives him pieces for his pawns): may `attempt`, a move
 * of the player's men `own`, stalemate him with his king on one of `squares`? Where it gives no
 * check, each step his king keeps goes to a square where a pawn of his would be frozen (blocked by
 * a man of the player's or by his king, nothing to take), and there are no more of them than his
 * men: they may all stand there (krieg v random, seed 1, game 23: Ra8 left his king on g6 one step,
 * h5, where his pawn stood blocked by krieg's). Given `where`, the squares a man of his stands on in
 * some position of the pool, only those may hold such a pawn: read over every square the check
 * vetoed the technique's sure mates for the rest of a game (game 64 at 8617677: Rb2, then Rc1 mated
 * his king on the first rank in every position of the set, but a pawn of his might have stood on
 * the last step of a4 or b5, squares the pool's kings had put in the set; his pawn stood on c6).
 * A check of the attempt's man through a square where a man of his may stand is read as a pin of
 * that man (a pawn of his there, blocked and pinned: no move for it; on `pieces`, squares where a
 * man of his was read to block a line, a piece pinned: a knight, on any rank). Given `where`, so too
 * for his king a step from `squares` where a line through such a square checks it: the set, reading
 * his king bare, put him nowhere a man of his shields (seed 1, game 50: his king on h2, krieg's rook
 * on h5 read to attack it through his h4 pawn, and Qf1 stalemated him there).
 */
export function mayStalemate(
  engine: Engine,
  own: Setup,
  attempt: number,
  squares: readonly number[],
  men: number,
  where?: Set<number>,
  pieces?: ReadonlySet<number>,
): boolean {
  const after = ownBoardAfter(own.board, own.side, attempt);
  const his = own.side ^ 1;
  const king = KING | (his << 3);
  const ours = after.indexOf(KING | (own.side << 3));
  const mine = (sq: number) => after[sq] !== 0;
  // a pawn of his on `to` (his king on `at`) with no move: blocked ahead by a man of the player's or
  // by his king, nothing to take (game 173 v random: Rb1 left his king on c6 the one step d6, where
  // his pawn stood blocked by krieg's knight on d5)
  const frozenAt = (to: number, at: number) => {
    const rank = to >> 3;
    if (rank === 0 || rank === 7 || (where && !where.has(to))) return false;
    const ahead = his === 1 ? to - 8 : to + 8;
    const file = to & 7;
    const takes = [file > 0 ? ahead - 1 : -1, file < 7 ? ahead + 1 : -1].some((sq) => sq >= 0 && mine(sq));
    return (ahead === at || mine(ahead)) && !takes;
  };
  // where a man of his may stand: the pool's squares, or a step in front of one (the pool lags his last move)
  const behind = his === 1 ? 8 : -8;
  const mayStand = (sq: number) => !where || where.has(sq) || where.has(sq + behind);
  // the men of his that may stand pinned on `sq`: a pawn off the last ranks, a piece where one was read
  const pinnable = (sq: number) => [
    ...(sq >> 3 === 0 || sq >> 3 === 7 ? [] : [PAWN]),
    ...(pieces?.has(sq) ? [KNIGHT] : []),
  ];
  /** His king's steps from `square` on `board`, or undefined where the position cannot be or he is in check. */
  const stepsOn = (board: number[], square: number) => {
    const moves = hisMoves(engine, own, board);
    return moves && { steps: moves.filter((move) => (move & 63) === square).map((move) => (move >> 6) & 63), moves };
  };
  const set = new Set(squares);
  const near = where ? widened([...set]).filter((sq) => !set.has(sq)) : [];
  for (const square of [...set, ...near]) {
    if (after[square] !== 0 || distance(square, ours) <= 1) continue; // not a square of his then
    const board = after.slice();
    board[square] = king;
    const alone = stepsOn(board, square);
    if (alone) {
      if (set.has(square) && alone.steps.length <= men && alone.steps.every((to) => frozenAt(to, square))) return true;
      continue;
    }
    // a check through a square a man of his may stand on may be a pin: with no step for his king and
    // no move for the pinned man, a stalemate (krieg v random, seed 1, game 100: Rb8 "checked" his king on
    // b3 through b7, where his pawn stood blocked by the rook and pinned to the king; the pool's man
    // stood on b6, a step behind: its squares lag his last move). The checking line need not be the
    // moved man's (game 153: Rc7 boxed his king on a5, his b4 pawn pinned on Be1's diagonal; seed 2,
    // game 82: c2 boxed him on c1, his knight on e1, read there, pinned by Rh1)
    for (const sq of checkingLine(board, own.side, square)) {
      if (board[sq] !== 0 || !mayStand(sq)) continue;
      for (const kind of pinnable(sq)) {
        const pinned = board.slice();
        pinned[sq] = kind | (his << 3);
        const found = stepsOn(pinned, square);
        if (
          found &&
          found.moves.length === found.steps.length &&
          found.steps.length < men &&
          found.steps.every((to) => frozenAt(to, square))
        )
          return true;
      }
    }
  }
  return false;
}

/** Candidates of `leastHanging` looked at, at most (a sample of the tied best). */
const HANG_CANDIDATES = 24;

/**
 * Of `attempts` (the technique's equal best against unknown men), those after which the fewest of
 * the pool's positions `boards` let a man of his (not his king: the search sees the king's) take the
 * moved man at a loss — by a cheaper man, or where no other man of the player's guards its square
 * (krieg v random, seed 1, game 135: three queens against K+B+P, the technique's Qh3 stood where his
 * bishop took it). A tie-break only: where one attempt is best, it is played.
 */
export function leastHanging(engine: Engine, own: Setup, attempts: number[], boards: number[][]): number[] {
  if (!boards.length || attempts.length < 2) return attempts;
  const candidates = attempts.length > HANG_CANDIDATES ? attempts.slice(0, HANG_CANDIDATES) : attempts;
  const counts = candidates.map(hangCounter(engine, own, boards));
  const least = Math.min(...counts);
  return candidates.filter((_, i) => counts[i] === least);
}

/**
 * Per attempt of the player's men `own`, the number of the pool's positions `boards` where a man of
 * his (not his king) takes the moved man at a loss: by a cheaper man, or where no other man of the
 * player's guards its square.
 */
export function hangCounter(engine: Engine, own: Setup, boards: number[][]): (attempt: number) => number {
  const his = own.side ^ 1;
  const record = endgameStack(engine) + 1;
  return (attempt: number) => {
    const after = ownBoardAfter(own.board, own.side, attempt);
    const to = moveTo(attempt);
    const worth = MATERIAL[after[to] & 7];
    const without = after.slice();
    without[to] = 0;
    let guardedNow: boolean | undefined;
    let count = 0;
    for (const board of boards) {
      const merged = after.map((code, sq) => code || (board[sq] >> 3 === his ? board[sq] : 0));
      try {
        engine.setSetup(record, { ...own, board: merged, side: his as 0 | 1, epSquare: -1 });
      } catch {
        continue; // no position (his king in check from the player's king's side, …)
      }
      let taker = Infinity;
      for (const move of engine.moves(record))
        if (((move >> 6) & 63) === to && (merged[move & 63] & 7) !== KING)
          taker = Math.min(taker, MATERIAL[merged[move & 63] & 7]);
      if (taker === Infinity) continue;
      if (taker < worth) count++;
      else {
        guardedNow ??= safeGuarded(engine, own, without, to);
        if (!guardedNow) count++;
      }
    }
    return count;
  };
}

/** Does an attempt of the player's men `own` hang the moved man (hangCounter) in HANG_SHARE of the pool's positions `boards`? */
export function hangsOften(engine: Engine, own: Setup, boards: number[][]): (attempt: number) => boolean {
  const count = hangCounter(engine, own, boards);
  return (attempt) => boards.length > 0 && count(attempt) >= HANG_SHARE * boards.length;
}

/** `guarded`, false where the probe makes no position. */
function safeGuarded(engine: Engine, own: Setup, board: number[], sq: number): boolean {
  try {
    return guarded(engine, own, board, sq);
  } catch {
    return false;
  }
}

/**
 * The squares free of the player's men `own` that they check only along one line through a square
 * of `men` (where a man of his may stand): a man of his there would shield his king.
 */
export function shieldedBy(engine: Engine, own: Setup, men: ReadonlySet<number>): number[] {
  const his = own.side ^ 1;
  const board = own.board.map((code) => (code >> 3 === own.side ? code : 0));
  const shielded: number[] = [];
  for (let sq = 0; sq < 64; sq++) {
    if (board[sq] !== 0) continue;
    const shields = checkingLine(board, own.side, sq).filter((on) => men.has(on));
    try {
      if (shields.some((on) => !guarded(engine, own, withBlockers(board, [on], his), sq))) shielded.push(sq);
    } catch {
      // a man there makes no position (a pawn of his checking the player's king): no shield
    }
  }
  return shielded;
}

/**
 * The player's `attempt` (its men `own`) checks his king on `square`: the squares where a man of his
 * would leave his king out of check by standing between (none where the check is not along one
 * line, or another man checks too).
 */
export function interposingSquares(engine: Engine, own: Setup, attempt: number, square: number): number[] {
  const board = ownBoardAfter(own.board, own.side, attempt);
  return checkingLine(board, own.side, square).filter((sq) => {
    try {
      return !guarded(engine, own, withBlockers(board, [sq], own.side ^ 1), square);
    } catch {
      return false; // a man of his there makes no position (a check of the player's king)
    }
  });
}

/**
 * The squares between `square` and each man of `side` on `board` that attacks it along an open line
 * (a queen, rook or bishop with nothing between; [] for one next to it).
 */
function sliderPaths(board: number[], side: number, square: number): number[][] {
  const paths: number[][] = [];
  for (let from = 0; from < 64; from++) {
    const code = board[from];
    if (code === 0 || code >> 3 !== side) continue; // `square` is empty or his king's
    const piece = code & 7;
    if (piece !== QUEEN && piece !== ROOK && piece !== BISHOP) continue;
    const straight = (from & 7) === (square & 7) || from >> 3 === square >> 3;
    const path = between(from, square);
    const aligned = path.length > 0 || kingDistance(from, square) === 1;
    if (!aligned || (straight ? piece === BISHOP : piece === ROOK)) continue;
    if (path.some((sq) => board[sq] !== 0)) continue;
    paths.push(path);
  }
  return paths;
}

/**
 * The squares between `square` and the one man of `side` on `board` that checks it along a line,
 * where a man of the other side would block the check; none where no such man checks, another
 * checks too, or the checker stands next to it.
 */
function checkingLine(board: number[], side: number, square: number): number[] {
  const paths = sliderPaths(board, side, square);
  return paths.length === 1 ? paths[0] : [];
}

/**
 * Against `men` unknown men of his, his king on `squares`: of `attempts`, the step of the player's
 * pawn nearest to a queen (promoting to one) onto a square off the set that his king cannot take
 * (none of the set's squares next to it, or the player's men guard it) and no man of his on
 * `where` (the pool's squares of his men) diagonally in front may take unguarded, that boxes no
 * king (mayStalemate, a piece of his pinned on `pieces` too); undefined when there is none.
 */
export function pawnStep(
  engine: Engine,
  own: Setup,
  attempts: number[],
  squares: number[],
  men: number,
  where?: Set<number>,
  pieces?: ReadonlySet<number>,
): number | undefined {
  const set = new Set(squares);
  const forward = own.side === 0 ? 8 : -8;
  const steps = attempts.filter((attempt) => {
    const from = moveFrom(attempt);
    const to = moveTo(attempt);
    if ((own.board[from] & 7) !== PAWN || (to & 7) !== (from & 7)) return false;
    const promotes = promotionType(attempt);
    if (promotes && promotes !== QUEEN) return false;
    const after = ownBoardAfter(own.board, own.side, attempt);
    // a queen the player's men guard: his king is not on its square (the step Illegal if he is) nor takes it
    const guardedQueen = promotes === QUEEN && guarded(engine, own, after, to);
    if (!guardedQueen && (set.has(to) || set.has(from + forward))) return false;
    const near = squares.some((sq) => distance(sq, to) <= 1);
    const file = to & 7;
    const takers = [file > 0 ? to + forward - 1 : -1, file < 7 ? to + forward + 1 : -1];
    const taken = takers.some((sq) => sq >= 0 && sq < 64 && where?.has(sq));
    if ((near || taken) && !guardedQueen && !guarded(engine, own, after, to)) return false;
    return !mayStalemate(engine, own, attempt, squares, men, where, pieces);
  });
  const rank = (attempt: number) => (own.side === 0 ? moveTo(attempt) >> 3 : 7 - (moveTo(attempt) >> 3));
  return steps.sort((a, b) => rank(b) - rank(a) || a - b)[0];
}

/**
 * Of `attempts`, the moves of the player's men but its pawns after which a step of its pawn to a
 * queen (one of `attempts`) lands on a square they guard, unguarded now (a queen his king may take, or whose
 * square he may stand on): the guard first, the promotion next (pawnStep).
 */
export function promotionGuards(engine: Engine, own: Setup, attempts: number[]): number[] {
  const promotions = attempts.filter(
    (attempt) => promotionType(attempt) === QUEEN && (moveFrom(attempt) & 7) === (moveTo(attempt) & 7),
  );
  const guards = (board: number[], promotion: number) =>
    guarded(engine, own, ownBoardAfter(board, own.side, promotion), moveTo(promotion));
  const open = promotions.filter((promotion) => !guards(own.board, promotion));
  if (!open.length) return [];
  return attempts.filter((attempt) => {
    if ((own.board[moveFrom(attempt)] & 7) === PAWN) return false;
    const after = ownBoardAfter(own.board, own.side, attempt);
    return open.some(
      (promotion) =>
        after[moveFrom(promotion)] !== 0 && moveTo(attempt) !== moveTo(promotion) && guards(after, promotion),
    );
  });
}

/** The men of `side` on `board` (piece codes by square) after `attempt`, a move of theirs: the others' left off. */
export function ownBoardAfter(board: number[], side: number, attempt: number): number[] {
  const own = board.map((code) => (code && code >> 3 === side ? code : 0));
  const from = moveFrom(attempt);
  const to = moveTo(attempt);
  const piece = own[from];
  own[from] = 0;
  own[to] = promotionType(attempt) ? (side << 3) | promotionType(attempt) : piece;
  if ((piece & 7) === KING && Math.abs(to - from) === 2) {
    const [rookFrom, rookTo] = to > from ? [from + 3, from + 1] : [from - 4, from - 1]; // castling
    own[rookTo] = own[rookFrom];
    own[rookFrom] = 0;
  }
  return own;
}
