// krieg's values over a belief (issue #34). Choose-move (Parker et al.) averages centipawns over
// the positions of S where an attempt is legal, so a mate in one position (30,000) outweighs a
// rook lost in three others, and a possible loss the sampled positions miss counts for nothing.
// krieg ranks an attempt by
//
//   worth = trusted(score + PROGRESS_WEIGHT · [far] FAR_PROGRESS · progress + [far] FAR_MATE_GAIN · mates · survives)
//           − MATED_COST · mated − LOSS_COST · [far] FAR_LOSS · loss
//           − [decisive] STALEMATE_COST · stalemated
//           − [bare king] (REGION_COST · region + ROOM_COST · room + KING_COST · distance + BACK_COST · [takes back])
//           + [safe] push + [safe, or far ahead of more than king and pawns] take − p(draw) · (score − ½)
//
// - score: the mean over S of each value's expected score (host/core/players.ts expectedScore:
//   mate 1, mated 0, centipawns through a logistic curve). Bounded: a mate counts as a win in the
//   positions where it mates — its share of S is its probability — and no more; a rook hung in a
//   won ending costs nearly half a game there, a pawn in a lost one almost nothing.
//   The screen's positions (below) join it for one outcome, a mate (withScreenMates): the share of
//   them where the attempt mates moves the score and the progress that far toward a mate's, since S
//   holds a handful of positions and far ahead no score tells a mate from a quiet move. With a
//   decisive edge a check after which each of his replies leaves a mate in one counts at
//   MATE_IN_TWO_SHARE of a mate.
// - mates (far ahead): that share again, at FAR_MATE_GAIN, kept in the share of the screened
//   positions where the moved man survives — the game is won, and a mate gains the rest of it; a
//   pawn's safe step (push) no longer outweighs a mate in a ninth of the positions. Kept whole, it
//   gave his king more queens (a check next to his king that mates in some positions); kept only
//   where the moved man is nowhere taken, it kept the long games ("Thirty-second" and "Thirty-third
//   session" in docs/players.md).
// - progress: the mean over S of the values clipped to ±10,000 centipawns (a mate 10,000). Far
//   ahead every expected score is 1 to five decimals, so without it a promotion, a pawn taken, a
//   mate in some positions and a null move scored alike and krieg shuffled to the ply cap with a
//   queen and two rooks up; at PROGRESS_WEIGHT it only breaks near-ties (a pawn is half a square of
//   a bare king's region, a hung rook in one position of ten fifty times that).
// - far ahead (FAR_AHEAD, a queen and a pawn more in the position read, whatever men he keeps) the
//   game is won unless it is drawn, so what a man's possible loss costs falls (FAR_LOSS of it) and
//   progress weighs more (FAR_PROGRESS times): at a hundred to one a capture in the positions searched
//   never paid for a risk in a few screened ones, and krieg v random (seed 1, game 4) left its queen
//   and a rook unmoved on the back rank for 40 plies a queen, a rook and a bishop up; with these
//   weights krieg v random went from 180 / 1 / 19 to 188 / 1 / 11 over the same 200 games (the median
//   win from 135 plies to 121).
// - the screen (host/core/players.ts countThreats) over many more belief positions than S:
//   mated, the share where the attempt leaves a mate in one (a lost game); loss, the material
//   (centipawns) the opponent's best capture wins, averaged over them (a man he can take in 3 of 7
//   positions costs 3/7 of its value; a rook everywhere half a game), a promotion of his counted
//   as a capture of the queen's value less the pawn's, and a pawn two steps from one on a free
//   path unguarded as half of that (choose.ts pawnRaceGain: a promotion is stopped before it
//   happens); the mover's own promotion counts as won, as a capture does (a new queen taken costs
//   the pawn) — while not ahead in material his best capture of the moved man plus his best
//   capture of another (lossBoth): the greater alone
//   let a queen the positions hang to a phantom knight hide the moved man's own risk, and every
//   attempt showed the same loss (krieg v HS: Bb5+ where a pawn on a6 took it, Rd4 where a queen
//   took it; far ahead the sum drew won endings, the king's possible captures counted twice); stalemated, the share
//   where it stalemates him — BOXED_AHEAD or more ahead also where it boxes his king beside a piece of
//   his, which far ahead is mostly a phantom (`stalemates`) —, which with a decisive edge is also
//   never chosen while an attempt that stalemates nowhere is open (a draw thrown away); region, with the opponent down to his
//   king (and pawns), the squares his king may stand on after his reply, over the screened
//   positions — the progress measure of a won ending: fewer squares, a tighter box — and
//   distance, the mean number of king steps from the mover's king (after the attempt) to them:
//   the box is closed with the king; room, the mean over the screened positions of the squares his
//   king reaches through squares the mover does not attack (assembly/players/choose.ts roomOf): the
//   region is a union, the whole board while krieg cannot locate a king with pawns (HS's kept
//   wandering while krieg shuffled a queen and two rooks to the ply cap), but a line that cuts the
//   board shrinks the room in every position beyond it, so the box closes without a location; and
//   an attempt that moves the man krieg moved last straight back (the shuffle Rd6-f6-d6 in a box
//   that one move cannot shrink) costs a little. "Down to his king and pawns" includes a crushing
//   edge over the screened positions (crushingOver: DECISIVE ahead on their mean, at most
//   CRUSHING_MEN men of his): the tracker's lines give him pieces for his pawns that never moved, and
//   his men then stand in his king's way in the room as his pawns do.
// - push: against a lone king, with a decisive edge against king and pawns, or far ahead, PUSH_GAIN a rank for
//   a pawn's step (a promotion the last one) the screen finds safe — no man of the mover takeable,
//   no mate in one, no stalemate in any screened position (the king cannot take the pawn next move,
//   or it is guarded; his pawns cannot take it).
//   Without it krieg with a rook and a pawn shuffled the rook to the ply cap: a step gained the
//   progress tie-break some 30 cp (0.0003) where a rook's move shrinking the king's region gains
//   0.002 a square; a pawn home hands the game to the bare-king technique (endgame.ts), which
//   now takes pawns too. A push is progress that cannot cycle, so a large gain is safe.
// - take: against king and pawns, TAKE_GAIN times the share of the screened positions where the
//   attempt captures (the fifty-move clock after it is 0, and it is no pawn's step), if the screen
//   finds it safe as above (a pawn the king does not guard). His pawns, often blocked, are
//   what keeps the bare-king technique away: krieg took none of them and shuffled a queen and two
//   rooks to the ply cap (the capture alone gains the tie-break's 0.001, half a square of region).
//   Far ahead of more men (FAR_AHEAD, his pieces not all taken) the same gain, the possible loss
//   priced as above rather than ruling it out: there every square is a phantom piece's in some
//   screened position, so no capture was ever safe, and krieg's queen and rooks stood on its back
//   rank while his men lived (krieg v random, seed 2, game 139: 32 points against 18 from ply 100 to
//   150, no capture; docs/players.md, "Twenty-third session").
// The rules' draws (issue #34) then move the worth toward ½ by the chance p of a draw the attempt
// brings, worth −= p · (score − ½): a cost when ahead (score above ½), a gain when behind. Ahead, p
// counts over the screened positions those where the attempt ends the game drawn (material, fifty
// moves: assembly/players/choose.ts), where he has a reply that does (a capture into a material
// draw), where it stalemates him, where the position after it was seen twice before after krieg's
// own moves (a third repetition, under rules with that draw; seen once: REPEAT_HAZARD of one), the
// attempt itself where it leads to an own board krieg's moves led to twice before (a draw whenever his
// men are back too: the technique and a proven strategy, which play without the screen and record no
// positions, never make it a third time, and english game 29 repeated Bd6+ and Bb8 to the draw while
// the sampling counted it a quarter of one), and the fifty-move clock's
// approach to 100 (from FIFTY_FROM on: a capture or pawn move resets it, so they are preferred).
// Behind, only the draws the attempt itself makes count (his replies are his choice; a stalemate
// counted by the screen may not be one).
// - trust (while not ahead in material): S holds one to three positions at 1,000 nodes a move, so an attempt that wins something
//   in them (takes a man that may not be there, forks from a square where he takes the forker)
//   scores as if it did so everywhere. What its score gains over the turn's median score is kept
//   only in the share of the screened positions where the moved man is not taken at a loss
//   (threat.lost: his best capture of it wins more than the attempt took): a knight's fork the
//   screen finds taken in 85% of the positions keeps 15% of its gain (krieg v HS: Nd4-e2, taken in
//   most screened positions, scored 0.97 against 0.73 for O-O because it forked in the one searched).
// Every term but a draw behind only lowers the score, so attempts are looked at in the order of
// their scores, down to one whose score (behind: ½) cannot beat the best worth found.
import type { Engine } from '../engine';
import { PROGRESS_CLIP, type AttemptValue, type MateCount, type ThreatCount } from '../core/players';
import { kingDistance } from '../notation/square';
import { promotionType } from '../notation/move';
import { BISHOP, KNIGHT } from '../constants';

/** Per centipawn of progress (the mean clipped value): 100 cp = 0.001. */
export const PROGRESS_WEIGHT = 1e-5;
/** A mate in one left to the opponent: the game. */
export const MATED_COST = 1;
/** Per centipawn of material the opponent's best capture wins (a rook: half a game). */
export const LOSS_COST = 1 / 1000;
/** A stalemate with a decisive edge: half a game. */
export const STALEMATE_COST = 0.5;
/** Per square a bare king may reach (16 squares ≈ the loss of a pawn in one position of two). */
export const REGION_COST = 0.002;
/** Per square of the bare king's mean room (a rook's cut halving a room of 40: 0.02, two pawns of progress). */
export const ROOM_COST = 0.001;
/** Per king step between the mover's king and the squares the bare king may reach (on average). */
export const KING_COST = 0.002;
/** Taking the last move back against a bare king (two squares of region). */
export const BACK_COST = 0.004;
/** Per rank a pawn's safe step gains against a lone king, or king and pawns (15 squares of the king's region). */
export const PUSH_GAIN = 0.03;
/** A safe capture against king and pawns (a pawn of his: what stands between krieg and a bare king). */
export const TAKE_GAIN = 0.03;
/** Material (pawn 1 … queen 9) ahead that makes an edge decisive. */
export const DECISIVE = 5;
/**
 * Material ahead (a queen and a pawn) from which the game is won whatever he keeps: a safe step of
 * the mover's pawn gains (PUSH_GAIN) whatever men he has, and a man's possible loss costs FAR_LOSS
 * of LOSS_COST, progress FAR_PROGRESS times PROGRESS_WEIGHT.
 */
export const FAR_AHEAD = 10;
export const FAR_LOSS = 1 / 3;
export const FAR_PROGRESS = 3;
/** The mover is FAR_AHEAD or more ahead in the position the edge was read from. */
const farAhead = (edge: Edge | undefined) => (edge?.ahead ?? 0) >= FAR_AHEAD;
/**
 * His men besides his king, at most, for a crushing edge (crushingOver): the ending, where the
 * tracker's lines give him pieces for the pawns he has (a capture is announced by its square).
 */
export const CRUSHING_MEN = 3;
/** Material ahead (a queen, a rook and a pawn) from which a king boxed beside a piece of his counts as a stalemate (`Edge.boxedStalemates`). */
export const BOXED_AHEAD = 15;
/** The chance of a draw counted for a position seen once before (a third occurrence would end the game). */
export const REPEAT_HAZARD = 0.25;
/** The fifty-move clock (plies) from which its approach to 100 counts, rising to FIFTY_HAZARD at 99. */
export const FIFTY_FROM = 70;
export const FIFTY_HAZARD = 0.5;

/** Material by piece type (pawn 1 … queen 9; none, king 0). */
export const MATERIAL = [0, 1, 3, 3, 5, 9, 0];

/** What the material on the board says about the game (the mover's view). */
export interface Edge {
  /** The mover is DECISIVE or more ahead. */
  decisive: boolean;
  /** The mover is BOXED_AHEAD or more ahead: a king boxed beside a piece of his counts as a stalemate (`stalemates`). */
  boxedStalemates?: boolean;
  /** The mover's material less the opponent's (pawn 1 … queen 9) in the position read. */
  ahead?: number;
  /** ... and the opponent has his king and at most pawns. */
  bareKing: boolean;
  /** The mover's king's square. */
  king: number;
  /** The opponent has his king alone, or (decisive) king and pawns: the mover's pawns' squares (PUSH_GAIN), and its side (0: White). */
  pawns?: { squares: Set<number>; side: number };
  /** He has men besides his king, and the mover is decisive against king and pawns or far ahead: a capture gains (TAKE_GAIN). */
  menToTake?: boolean;
  /** The attempt that takes the mover's last move back (from | to << 6), if known. */
  back?: number;
  /** Under rules with a repetition draw: the keys of the positions after the mover's own moves (since the last capture or pawn move he knows of), with how often each was seen. */
  seen?: Map<string, number>;
  /** The fifty-move rule is on. */
  fifty?: boolean;
  /**
   * How often krieg's own moves (the technique's and a strategy's too) led to the own board an
   * attempt leads to (same span as `seen`; the keys of `seen` are the screen's positions alone).
   */
  ownSeen?: (attempt: number) => number;
}

/**
 * The edge of the side to move in position `handle`; `crushing` (crushingOver, over the screened
 * positions): decisive, and read as against king and pawns whatever piece the position gives him.
 */
export function edgeOf(engine: Engine, handle: number, crushing = false): Edge {
  const { side, ahead, theirMen, theirPieces, king, pawns } = menOf(engine, handle);
  const decisive = crushing || ahead >= DECISIVE;
  const bareKing = decisive && (theirPieces === 0 || crushing);
  const push =
    (theirMen === 0 || bareKing || ahead >= FAR_AHEAD) && pawns.size > 0 ? { pawns: { squares: pawns, side } } : {};
  return {
    decisive,
    ...(ahead >= BOXED_AHEAD ? { boxedStalemates: true } : {}),
    ahead,
    bareKing,
    king,
    ...push,
    ...((bareKing || ahead >= FAR_AHEAD) && theirMen > 0 ? { menToTake: true } : {}),
  };
}

/** The men of position `handle` as the edge reads them: the mover's material less his, his men and pieces besides his king, the mover's king and pawns. */
function menOf(engine: Engine, handle: number) {
  const { board, side } = engine.setup(handle);
  let ahead = 0;
  let theirPieces = 0;
  let theirMen = 0;
  const pawns = new Set<number>();
  let king = -1;
  board.forEach((code, square) => {
    if (!code) return;
    const type = code & 7;
    if (code >> 3 === side) {
      ahead += MATERIAL[type];
      if (type === 6) king = square;
      if (type === 1) pawns.add(square);
    } else {
      ahead -= MATERIAL[type];
      if (type !== 6) theirMen++;
      if (type !== 1 && type !== 6) theirPieces++;
    }
  });
  return { side, ahead, theirMen, theirPieces, king, pawns };
}

/**
 * Is the mover's edge crushing over the screened positions `handles` (the same men of his in each,
 * only their kinds and squares differ): DECISIVE ahead on their mean, and he has at most
 * CRUSHING_MEN men besides his king? Past the tracker's exact layer its lines give him a piece for
 * each pawn he has that never moved (a piece that never moved is as consistent with the view): in
 * the games krieg v random capped far ahead, 95 to 100 % of the screened positions, so the won
 * ending's measures (the room, the pushes and takes), which count against king and pawns only,
 * never applied, and the edge read from one position flickered with the piece it gave him.
 */
export function crushingOver(engine: Engine, handles: number[]): boolean {
  let sum = 0;
  for (const handle of handles) {
    const { ahead, theirMen } = menOf(engine, handle);
    if (theirMen > CRUSHING_MEN) return false;
    sum += ahead;
  }
  return handles.length > 0 && sum >= DECISIVE * handles.length;
}

function bits(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/** The mean king distance from `king` to the squares of a region (0 for none). */
function meanDistance(king: number, low: number, high: number): number {
  let sum = 0;
  let n = 0;
  for (let sq = 0; sq < 64; sq++) {
    if (!(((sq < 32 ? low : high) >>> (sq & 31)) & 1)) continue;
    sum += kingDistance(sq, king);
    n++;
  }
  return n ? sum / n : 0;
}

/** What `attempt` gains if safe (PUSH_GAIN a rank): a step of the mover's pawn against a lone king, or king and pawns; else 0. */
export function pushGain(attempt: number, edge: Edge | undefined): number {
  const pawns = edge?.pawns;
  if (!pawns || !pawns.squares.has(attempt & 63)) return 0;
  const ranks = ((attempt >> 9) & 7) - ((attempt >> 3) & 7);
  return PUSH_GAIN * (pawns.side === 0 ? ranks : -ranks);
}

/**
 * What `attempt` gains if safe against king and pawns: TAKE_GAIN × the share of the screened
 * positions where it captures (the clock after it is 0, and it is not a pawn's step); else 0.
 */
export function takeGain(attempt: number, threat: ThreatCount, edge: Edge | undefined): number {
  if (!edge?.menToTake || !threat.after || threat.legal === 0) return 0;
  if (edge.pawns?.squares.has(attempt & 63) && ((attempt ^ (attempt >> 6)) & 7) === 0) return 0;
  return (TAKE_GAIN * threat.after.filter((a) => a.clock === 0).length) / threat.legal;
}

/**
 * The screened positions where the attempt may stalemate him: where it does (or leaves his king
 * stuck and only pawns to move, or a square next to it where he would be stuck), and with a
 * crushing edge where it leaves his king boxed beside a piece of his (ThreatCount.boxed): so far
 * ahead his pieces are mostly the belief's phantoms — his men taken long ago, whose captures were
 * heard by their squares only — and a king with no step and his pawns blocked is stalemated
 * whatever the position gives him besides (krieg v random, 200 games: 7 of the 8 stalemates).
 */
export function stalemates(threat: ThreatCount, edge: Edge | undefined): number {
  return threat.stalemated + (edge?.boxedStalemates ? (threat.boxed ?? 0) : 0);
}

/**
 * The chance that the attempt brings a draw (see above), ahead (score above ½) or behind; ahead, an
 * own board its moves led to twice before is a draw (the opponent's men may be back too).
 */
export function drawChance(score: number, threat: ThreatCount, edge: Edge | undefined, attempt?: number): number {
  if (threat.legal === 0) return 0;
  const ahead = score > 0.5;
  let draws = (threat.drawnNow ?? 0) + (ahead ? (threat.drawnReply ?? 0) + stalemates(threat, edge) : 0);
  for (const { key, clock } of threat.after ?? []) {
    const seen = edge?.seen?.get(key) ?? 0;
    let p = seen >= 2 ? 1 : 0;
    if (ahead) {
      if (seen === 1) p += REPEAT_HAZARD;
      if (edge?.fifty && clock >= FIFTY_FROM && clock < 100)
        p += (FIFTY_HAZARD * (clock - FIFTY_FROM + 1)) / (100 - FIFTY_FROM);
    }
    draws += Math.min(1, p);
  }
  const own = ahead && attempt !== undefined && (edge?.ownSeen?.(attempt) ?? 0) >= 2 ? 1 : 0;
  return Math.min(1, draws / threat.legal + own);
}

/**
 * A check after which each of his replies leaves a mate in one counts as this share of a mate
 * (withScreenMates): the mate is the next turn's, found there only where the pool follows his reply.
 */
export const MATE_IN_TWO_SHARE = 0.5;

/**
 * An attempt's values with the screen's mates joined: of the `legal` screened positions where it is a
 * move, it mates in `mates` and (with a decisive edge: krieg.ts) checks with a mate in one after
 * each reply in `matesInTwo` (countMates). That share — a mate in two at MATE_IN_TWO_SHARE — is the
 * chance it ends the game won, so its score moves that far toward 1 and its progress toward a mate's
 * PROGRESS_CLIP, as a mate among the few positions searched counts. Far ahead every score is 1 to
 * five decimals and S holds a handful of positions, so a mate there in one screened position of
 * twenty went unseen (krieg v random, seed 2: on 530 of the 711 turns where it stood ten or more
 * ahead with a mate in one on the board, it played another move); and with mates in one alone, in
 * krieg v random's longest games a checking mate in two stood on the board on one decisive turn in
 * five (187 of 923, seed 1) while krieg shuffled its pieces ("Thirty-second session").
 */
export function withScreenMates(value: AttemptValue, counts: MateCount | undefined): AttemptValue {
  if (!counts?.legal || !(counts.mates || counts.matesInTwo) || value.score === undefined) return value;
  const share = (counts.mates + MATE_IN_TWO_SHARE * counts.matesInTwo) / counts.legal;
  const progress = value.progress ?? 0;
  return {
    ...value,
    score: value.score + share * (1 - value.score),
    progress: progress + share * (PROGRESS_CLIP - progress),
    mateShare: share,
  };
}

/**
 * Far ahead (FAR_AHEAD), per unit of an attempt's mate share (withScreenMates): a mate in one screened
 * position of 33 weighs a pawn's safe step of a rank (PUSH_GAIN). The game is won there; what a mate
 * gains is the rest of it, some 30 moves in krieg v random's long games, where a pawn's step gains
 * one or two. Before, a mate counted only through the score and progress (0.27 per unit), so a step
 * won over a mate in less than a ninth of the positions (krieg v random, seed 1, game 12: Rxd1 mate
 * on the board three turns running, krieg's a-pawn stepped each time).
 */
export const FAR_MATE_GAIN = 1;

/** What an attempt's mates gain far ahead (FAR_MATE_GAIN × its mate share): in its key in bestByWorth, the worth keeping the share where the moved man survives. */
export function mateGain(value: AttemptValue, edge: Edge | undefined): number {
  return farAhead(edge) ? FAR_MATE_GAIN * (value.mateShare ?? 0) : 0;
}

/**
 * The score an attempt is trusted with (see above): above `base` (the turn's median score), its
 * gain kept in the share of the screened positions where the moved man is not taken at a loss.
 */
export function trustedScore(score: number, threat: ThreatCount, base: number | undefined): number {
  if (base === undefined || score <= base || !threat.lost || threat.legal === 0) return score;
  return base + (1 - threat.lost / threat.legal) * (score - base);
}

/**
 * An attempt's worth: its score (not ahead in material, trusted above `base`, the turn's median score)
 * less what the screen found (see above); its score without one.
 */
export function worthOf(
  score: number,
  threat: ThreatCount | undefined,
  edge: Edge | undefined,
  attempt?: number,
  base?: number,
): number {
  if (!threat || threat.legal === 0) return score;
  // not ahead in material: the moved man's own risk and the trust. Ahead, they drew won games: far
  // ahead (v HS) the endings, and short of a decisive edge (v random, a piece or two up in the
  // position read) the middlegame that gets there, krieg closing on nothing (match seed 1, games
  // 1-20: 14 / 0 / 6, all 6 at the ply cap, against 17 / 0 / 3 before them)
  const middlegame = !edge?.decisive && !((edge?.ahead ?? 0) > 0);
  if (middlegame) score = trustedScore(score, threat, base);
  const draw = drawChance(score, threat, edge, attempt) * (score - 0.5);
  const loss = middlegame ? (threat.lossBoth ?? threat.loss) : threat.loss;
  let worth = score - (MATED_COST * threat.mated + (farAhead(edge) ? FAR_LOSS : 1) * LOSS_COST * loss) / threat.legal;
  const stalemated = stalemates(threat, edge);
  if (edge?.decisive) worth -= (STALEMATE_COST * stalemated) / threat.legal;
  if (edge?.bareKing) {
    const { regionLow: low, regionHigh: high } = threat;
    // an attempt is from | to << 6 (host/notation/move.ts): the king's own move takes it along
    const king = attempt !== undefined && (attempt & 63) === edge.king ? (attempt >> 6) & 63 : edge.king;
    worth -= REGION_COST * (bits(low) + bits(high)) + KING_COST * meanDistance(king, low, high);
    worth -= (ROOM_COST * (threat.room ?? 0)) / threat.legal;
    if (attempt !== undefined && attempt === edge.back) worth -= BACK_COST;
  }
  if (attempt !== undefined && threat.mated === 0 && stalemated === 0) {
    if (threat.loss === 0) worth += pushGain(attempt, edge);
    // far ahead of more men than a bare king's pawns, the capture against the possible loss priced above
    if (threat.loss === 0 || !edge?.bareKing) worth += takeGain(attempt, threat, edge);
  }
  return worth - draw;
}

export interface Valued {
  best: AttemptValue;
  worth: number;
  /** Attempts screened. */
  screened: number;
}

/**
 * The attempt of the best worth among `scores` (each with its `score` and `progress`, ChooseRun.over), the
 * screen asked attempt by attempt (`threat`, memoised by the caller; undefined: no screen) in the
 * order of the scores (ties in `random`'s order), down to one whose score is not above the best
 * worth (trust only lowers a score: the stop stays exact). With a decisive edge an attempt that stalemates in a screened position is taken only if
 * every attempt looked at does. No promotion to a knight or a bishop while another attempt is open
 * (withoutMinorPromotions). `stop` (a turn's time up) ends the screening after the first.
 */
export function bestByWorth(
  scores: AttemptValue[],
  threat: ((attempt: number) => ThreatCount) | undefined,
  edge: Edge | undefined,
  random: () => number,
  stop?: () => boolean,
): Valued | undefined {
  const progressWeight = PROGRESS_WEIGHT * (farAhead(edge) ? FAR_PROGRESS : 1);
  const order = withoutMinorPromotions(scores, (s) => s.attempt).map((s) => {
    // far ahead a mate's chance joins the key (mateGain), an upper bound of what the worth keeps of it
    const mate = mateGain(s, edge);
    const key = (s.score ?? 0) + progressWeight * (s.progress ?? 0) + mate;
    // a safe push's or capture's gain are the terms that raise a worth: the bound looked at includes them
    const bound = key + pushGain(s.attempt, edge) + (edge?.menToTake ? TAKE_GAIN : 0);
    return { s, key, mate, bound, tie: random() };
  });
  order.sort((a, b) => b.bound - a.bound || a.tie - b.tie);
  // the turn's median score: what an attempt gains above it is trusted only where its man survives
  const keys = order.map((o) => o.key).sort((x, y) => x - y);
  const base = keys[(keys.length - 1) >> 1];
  let best: Valued | undefined;
  let stalemating: Valued | undefined;
  let screened = 0;
  for (const { s, key, mate, bound } of order) {
    if (best && (Math.max(bound, 0.5) <= best.worth || stop?.())) break; // behind, a draw may lift a worth to ½
    const t = threat?.(s.attempt);
    if (t) screened++;
    // the mate's gain kept in the share of the screened positions where the moved man survives
    const given = t?.legal ? (mate * (t.lost ?? 0)) / t.legal : 0;
    const worth = worthOf(key - given, t, edge, s.attempt, base);
    if (edge?.decisive && t && stalemates(t, edge) > 0) {
      if (!stalemating || worth > stalemating.worth) stalemating = { best: s, worth, screened: 0 };
      continue;
    }
    if (!best || worth > best.worth) best = { best: s, worth, screened: 0 };
  }
  const chosen = best ?? stalemating;
  return chosen && { ...chosen, screened };
}

/**
 * `items` less the promotions to a knight or a bishop (`attempt` reads an item's), unless nothing
 * else is left. The screen vetoes an attempt that stalemates him in any screened position, and far
 * ahead a queen or a rook on the last rank does so in some phantom position where a minor piece
 * does not: 58 of krieg's 419 promotions v random were a knight or a bishop (dfd29e8, seeds 1 and
 * 2, 200 games each; a0fcbbc, seed 1, game 61: a rook and four bishops against his king and bishop
 * to the cap). The pawn waits for a turn it promotes to a queen or a rook instead (none of 419 at
 * 586bcb0).
 */
export function withoutMinorPromotions<T>(items: T[], attempt: (item: T) => number): T[] {
  const minor = (item: T) => {
    const kind = promotionType(attempt(item));
    return kind === KNIGHT || kind === BISHOP;
  };
  const kept = items.filter((item) => !minor(item));
  return kept.length ? kept : items.slice();
}
