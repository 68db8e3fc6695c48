// Differential test of the chess core against chessops, an independent move generator.
//
// Seeded random games (fixed seeds: a failure reproduces exactly) are played from the start
// position, from every position of test/data/perftsuite.epd and from hand-made positions full of
// en-passant pins, castling through attacked squares and promotions with capture. At every
// position the two libraries must agree on
//   - the set of legal moves, as UCI text (castling as the king's two-square step, promotions as
//     e7e8q …; chessops lists castling as king-takes-own-rook and promotions as one destination,
//     both are normalised before comparing),
//   - check, the number of checkers and the check directions (derived here from chessops' checkers
//     by walking the board), checkmate and stalemate,
//   - the FEN, modulo our documented normalisation of the en-passant square (see chessopsFen),
// and our incremental Zobrist key must equal the key recomputed from scratch. Every position's key
// is also recorded: the same position (board, side, castling, normalised en passant) must get the
// same key however it was reached, on either backend, and different positions different keys.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen, makeFen as opsMakeFen } from 'chessops/fen';
import { makeSquare, parseUci } from 'chessops/util';
import { createEngine, moveKind, moveFrom, makeUci, MOVE_KIND, type Engine } from '../../host/node';
import { checkDirectionBits } from '../../host/verify/independentReferee';

// ---- fixed inputs ----

const SUITE = readFileSync(fileURLToPath(new URL('../data/perftsuite.epd', import.meta.url)), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '')
  .map((line) => line.split(';')[0].trim());

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Hand-made starts for the rare rules; each is a legal position (checked by chessops below). */
const CRAFTED: readonly { fen: string; why: string }[] = [
  // en passant
  { fen: '8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1', why: 'horizontal pin: b5xc6 e.p. would open the 5th rank to the rook' },
  { fen: '8/8/8/r1pP3K/8/8/8/4k3 w - c6 0 1', why: 'horizontal pin from the other side' },
  { fen: '8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1', why: 'horizontal pin, Black to capture' },
  { fen: '4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 1', why: 'diagonal pin of the capturer: e5xd6 leaves the c3-g7 diagonal' },
  { fen: '4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1', why: 'pinned capturer moving along its pin line: e5xd6 is legal' },
  { fen: '4k3/8/8/8/3Pp3/8/8/1B4K1 b - d3 0 1', why: 'no pin: plain capture for Black' },
  { fen: '8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1', why: 'the double-pushed pawn gives check; e.p. captures the checker' },
  { fen: '8/8/8/2pP4/1K6/8/8/7k w - c6 0 1', why: 'check by the pushed pawn, capturer on the other side' },
  { fen: '7k/8/8/2PpP3/8/8/8/3K4 w - d6 0 1', why: 'two pawns can capture en passant' },
  { fen: 'k7/8/8/8/5pPp/8/8/2K1R3 b - g3 0 1', why: 'two black capturers; rook pins nothing' },
  { fen: '8/8/8/8/k2pP2Q/8/8/3K4 b - e3 0 1', why: 'horizontal pin by a queen against Black' },
  {
    fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    why: 'perft position 3: e2-e4 and g2-g4 next to the f4 pawn, a rank pin',
  },
  // castling
  { fen: 'r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1', why: 'f1 attacked: no O-O, O-O-O fine' },
  { fen: 'r3k2r/8/1b6/8/8/8/8/R3K2R w KQkq - 0 1', why: 'g1 attacked: no O-O into check' },
  { fen: '1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1', why: 'b1 attacked: O-O-O still legal' },
  { fen: 'r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1', why: 'in check: no castling at all' },
  { fen: 'r3k2r/8/8/8/8/8/6n1/R3K2R w KQkq - 0 1', why: 'knight on g2 covers e1: check, no castling' },
  { fen: 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', why: 'Black castles both ways' },
  {
    fen: 'r3k2r/8/8/8/8/8/5B2/R3K2R b KQkq - 0 1',
    why: 'Black castles: the f2 bishop covers none of the squares crossed',
  },
  { fen: 'r3k2r/8/8/8/B7/8/8/R3K2R b KQkq - 0 1', why: 'Black in check from the a4 bishop: no castling' },
  { fen: 'r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1', why: 'own pieces in the way' },
  { fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', why: 'rooks exposed to capture: rights go with the rook' },
  // discovered double checks to give
  { fen: 'k7/8/8/3N4/8/8/8/4K2B w - - 0 1', why: 'Nb6 or Nc7: knight and long-diagonal bishop' },
  { fen: 'k7/8/N7/8/8/8/8/R3K3 w - - 0 1', why: 'Nc7: knight and rook on the file' },
  { fen: 'k7/8/8/8/8/8/B7/R3K3 w - - 0 1', why: 'Bd5: bishop and rook' },
  { fen: 'r3k3/8/8/8/8/n7/8/K7 b - - 0 1', why: 'Nc2: Black gives knight and rook check' },
  { fen: '4k3/8/8/8/8/8/4P3/K3q3 w - - 0 1', why: 'rank check along the first rank' },
  // promotions
  { fen: '1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1', why: 'promote straight or with capture' },
  { fen: '3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1', why: 'promotion with capture of a rook' },
  { fen: '4k3/8/8/8/8/8/6p1/4K2R b K - 0 1', why: 'Black promotes on g1 or takes the h1 rook' },
  { fen: 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1', why: 'bxa8 removes a castling rook' },
  { fen: '2r3k1/1P1P4/8/8/8/8/8/4K3 w - - 0 1', why: 'two promoting pawns, captures both ways' },
  { fen: '7k/8/8/8/8/8/1p6/R3K3 b Q - 0 1', why: 'bxa1 removes a castling rook' },
  { fen: '4k3/8/8/8/8/8/3p4/6K1 b - - 0 1', why: 'promotions that give check (d1=Q, d1=R)' },
  { fen: '1k6/8/8/8/8/8/p6r/K7 w - - 0 1', why: 'stalemate: the a2 pawn and the h2 rook box in the king' },
  { fen: '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', why: 'stalemate' },
];

// ---- seeded randomness ----

/** mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Style = 'uniform' | 'pawns' | 'special' | 'checks';
const STYLES: readonly Style[] = ['uniform', 'pawns', 'special', 'checks'];
const SCRATCH = 2; // record used to try moves out

/**
 * Picks a move. 'uniform' is plain random play. The other styles steer games to the rare rules:
 * 'pawns' mostly pushes pawns (en passant, promotions), 'special' takes a castling, en-passant or
 * promotion move whenever one exists, 'checks' mostly gives check (double checks, mates). All
 * three take a special move with high probability and avoid plain king moves, which would throw
 * away castling rights.
 */
function chooseMove(engine: Engine, h: number, moves: number[], style: Style, rand: () => number): number {
  const pick = (list: number[]) => list[Math.floor(rand() * list.length)];
  if (style === 'uniform') return pick(moves);
  const special = moves.filter((m) => moveKind(m) >= MOVE_KIND.castle);
  if (special.length > 0 && (style === 'special' || rand() < 0.8)) return pick(special);
  if (style === 'checks' && rand() < 0.7) {
    // mates first, then double checks, then any check
    const checking = moves.filter((m) => {
      engine.play(h, m, SCRATCH);
      return engine.inCheck(SCRATCH);
    });
    const mating = checking.filter((m) => {
      engine.play(h, m, SCRATCH);
      return engine.moves(SCRATCH).length === 0;
    });
    const double = checking.filter((m) => {
      engine.play(h, m, SCRATCH);
      return engine.checkerCount(SCRATCH) > 1;
    });
    for (const list of [mating, double, checking]) if (list.length > 0) return pick(list);
  }
  const board = engine.setup(h).board;
  const pawnMoves = moves.filter((m) => (board[moveFrom(m)] & 7) === 1);
  if (pawnMoves.length > 0 && rand() < (style === 'pawns' ? 0.75 : 0.4)) return pick(pawnMoves);
  const calm = moves.filter((m) => (board[moveFrom(m)] & 7) !== 6);
  return pick(calm.length > 0 && rand() < 0.9 ? calm : moves);
}

// ---- chessops side ----

function opsPosition(fen: string): Chess {
  return Chess.fromSetup(opsParseFen(fen).unwrap()).unwrap();
}

/** chessops' legal moves as sorted UCI text in our conventions. */
function opsLegalUci(pos: Chess): string[] {
  const out: string[] = [];
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      let kingTo = to;
      // castling comes as king-takes-own-rook (the chess960 form): use the king's two-square step
      if (piece.role === 'king' && pos.board.get(to)?.color === piece.color) kingTo = to > from ? from + 2 : from - 2;
      const uci = makeSquare(from) + makeSquare(kingTo);
      if (piece.role === 'pawn' && (to < 8 || to >= 56)) for (const p of 'qrbn') out.push(uci + p);
      else out.push(uci);
    }
  }
  return out.sort();
}

/**
 * chessops' FEN brought to our normalisation. chessops keeps an en-passant square in the position
 * after every double push (pos.epSquare) and only filters it in toSetup(); we take the raw square
 * and apply our documented rule ourselves, using chessops' own legal moves: the square stays
 * exactly when some pawn of the side to move has a legal move onto it (a pawn moving diagonally
 * onto an empty square is an en-passant capture). Castling rights need no adjustment: in standard
 * chess both libraries drop a right as soon as its king or rook leaves home or is captured, and the
 * starts here only grant rights with king and rook at home (the FEN tests cover the dropping).
 * Clocks are taken from the position, not from toSetup(), which caps the halfmove clock at 150.
 */
function chessopsFen(pos: Chess, legal: string[]): string {
  const setup = pos.toSetup();
  let ep = pos.epSquare;
  if (ep !== undefined) {
    const name = makeSquare(ep);
    const pawns = pos.board.pieces(pos.turn, 'pawn');
    if (!legal.some((uci) => uci.slice(2, 4) === name && pawns.has(squareIndex(uci.slice(0, 2))))) ep = undefined;
  }
  return opsMakeFen({ ...setup, epSquare: ep, halfmoves: pos.halfmoves, fullmoves: pos.fullmoves });
}

function squareIndex(name: string): number {
  return (name.charCodeAt(1) - 49) * 8 + name.charCodeAt(0) - 97;
}

// ---- the comparison ----

interface Tally {
  positions: number;
  legalMoves: number;
  promotionsSeen: number; // promotion moves in compared move lists
  castlingSeen: number;
  enPassantSeen: number;
  promotionsPlayed: number;
  castlingPlayed: number;
  enPassantPlayed: number;
  checks: number;
  doubleChecks: number;
  checkmates: number;
  stalemates: number;
  epKept: number; // positions whose FEN keeps an en-passant square
  epDropped: number; // positions where chessops has a raw en-passant square that we (rightly) drop
}

/** Position (FEN without clocks) → key, shared by both backends: keys must be identical in both. */
const keyOfPosition = new Map<string, string>();
/** Key → position, to catch two different positions with one key. */
const positionOfKey = new Map<string, string>();

function fail(what: string, fen: string, actual: unknown, expected: unknown): never {
  expect({ fen, [what]: actual }).toEqual({ fen, [what]: expected });
  throw new Error(`unreachable: ${what} differs in ${fen}`);
}

/** Compares position `h` with `pos`; returns our legal moves. */
function comparePosition(engine: Engine, h: number, pos: Chess, tally: Tally): number[] {
  const moves = engine.moves(h);
  const ours = moves.map(makeUci).sort();
  const theirs = opsLegalUci(pos);
  const fen = engine.fen(h);
  if (ours.join(' ') !== theirs.join(' ')) fail('legal moves', fen, ours, theirs);
  if (new Set(ours).size !== ours.length) fail('duplicate-free moves', fen, ours, [...new Set(ours)]);

  const theirFen = chessopsFen(pos, theirs);
  if (fen !== theirFen) fail('FEN', fen, fen, theirFen);
  if (pos.epSquare !== undefined && !fen.split(' ')[3].includes(makeSquare(pos.epSquare))) tally.epDropped++;
  if (fen.split(' ')[3] !== '-') tally.epKept++;

  const ctx = pos.ctx();
  const check = ctx.checkers.nonEmpty();
  if (engine.inCheck(h) !== check) fail('inCheck', fen, engine.inCheck(h), check);
  if (engine.checkerCount(h) !== ctx.checkers.size())
    fail('checkerCount', fen, engine.checkerCount(h), ctx.checkers.size());
  const directions = checkDirectionBits(pos, ctx.checkers); // test/referee/oracle.ts: geometry from chessops' checkers
  if (engine.checkDirections(h) !== directions) fail('checkDirections', fen, engine.checkDirections(h), directions);
  const mate = moves.length === 0 && check;
  const stalemate = moves.length === 0 && !check;
  if (mate !== pos.isCheckmate(ctx)) fail('checkmate', fen, mate, pos.isCheckmate(ctx));
  if (stalemate !== pos.isStalemate(ctx)) fail('stalemate', fen, stalemate, pos.isStalemate(ctx));

  const key = engine.key(h);
  const recomputed = engine.recomputedKey(h);
  if (key !== recomputed) fail('incremental key', fen, key, recomputed);
  const position = fen.split(' ').slice(0, 4).join(' ');
  const known = keyOfPosition.get(position);
  if (known !== undefined && known !== key) fail(`key of a transposition (first key ${known})`, fen, key, known);
  keyOfPosition.set(position, key);
  const other = positionOfKey.get(key);
  if (other !== undefined && other !== position) fail(`position of key ${key}`, fen, position, other);
  positionOfKey.set(key, position);

  tally.positions++;
  tally.legalMoves += moves.length;
  for (const m of moves) {
    const kind = moveKind(m);
    if (kind >= MOVE_KIND.promotion) tally.promotionsSeen++;
    else if (kind === MOVE_KIND.castle) tally.castlingSeen++;
    else if (kind === MOVE_KIND.enPassant) tally.enPassantSeen++;
  }
  if (check) tally.checks++;
  if (ctx.checkers.size() > 1) tally.doubleChecks++;
  if (mate) tally.checkmates++;
  if (stalemate) tally.stalemates++;
  return moves;
}

/** Plays one seeded game from `fen`, comparing every position on the way. */
function playGame(engine: Engine, fen: string, seed: number, style: Style, maxPlies: number, tally: Tally): void {
  const rand = mulberry32(seed);
  engine.setFen(0, fen);
  const pos = opsPosition(fen);
  let h = 0;
  for (let ply = 0; ; ply++) {
    const moves = comparePosition(engine, h, pos, tally);
    if (moves.length === 0 || ply >= maxPlies) return;
    const move = chooseMove(engine, h, moves, style, rand);
    const kind = moveKind(move);
    if (kind >= MOVE_KIND.promotion) tally.promotionsPlayed++;
    else if (kind === MOVE_KIND.castle) tally.castlingPlayed++;
    else if (kind === MOVE_KIND.enPassant) tally.enPassantPlayed++;
    engine.play(h, move, h ^ 1);
    pos.play(parseUci(makeUci(move))!);
    h ^= 1;
  }
}

function emptyTally(): Tally {
  return {
    positions: 0,
    legalMoves: 0,
    promotionsSeen: 0,
    castlingSeen: 0,
    enPassantSeen: 0,
    promotionsPlayed: 0,
    castlingPlayed: 0,
    enPassantPlayed: 0,
    checks: 0,
    doubleChecks: 0,
    checkmates: 0,
    stalemates: 0,
    epKept: 0,
    epDropped: 0,
  };
}

describe('crafted start positions', () => {
  it.each(CRAFTED)('$fen is a legal position for chessops ($why)', ({ fen }) => {
    expect(Chess.fromSetup(opsParseFen(fen).unwrap()).isOk).toBe(true);
  });
});

describe.each(['wasm', 'js'] as const)('%s core vs chessops', (backend) => {
  const engine = createEngine(backend);
  const games = (total: Tally, starts: readonly string[], perStart: number, seed: number, maxPlies: number) => {
    const tally = emptyTally();
    starts.forEach((fen, i) => {
      for (let g = 0; g < perStart; g++)
        playGame(engine, fen, seed + i * 64 + g, STYLES[g % STYLES.length], maxPlies, tally);
    });
    for (const field of Object.keys(total) as (keyof Tally)[]) total[field] += tally[field];
    return tally;
  };

  // one test, so the coverage checked is that of the games it played, in any test order
  it('agrees on random games from the start, every perft-suite position and the crafted ones, covering every rule', () => {
    const total = emptyTally();
    expect(games(total, [START], 200, 1000, 200).positions).toBeGreaterThan(20_000);
    expect(games(total, SUITE, 4, 50_000, 80).positions).toBeGreaterThan(20_000);
    expect(
      games(
        total,
        CRAFTED.map((c) => c.fen),
        12,
        900_000,
        60,
      ).positions,
    ).toBeGreaterThan(10_000);
    // the comparisons above cannot silently stop testing a rule
    expect(total.positions).toBeGreaterThan(60_000);
    expect(total.promotionsSeen).toBeGreaterThan(2000);
    expect(total.promotionsPlayed).toBeGreaterThan(300);
    expect(total.castlingSeen).toBeGreaterThan(300);
    expect(total.castlingPlayed).toBeGreaterThan(100);
    expect(total.enPassantSeen).toBeGreaterThan(60);
    expect(total.enPassantPlayed).toBeGreaterThan(40);
    expect(total.checks).toBeGreaterThan(2000);
    expect(total.doubleChecks).toBeGreaterThan(10);
    expect(total.checkmates).toBeGreaterThan(20);
    expect(total.stalemates).toBeGreaterThan(10);
    expect(total.epKept).toBeGreaterThan(50);
    expect(total.epDropped).toBeGreaterThan(300);
  });

  it('gives one key to a position however it was reached', () => {
    const keyAfter = (moves: string[], start = START) => {
      engine.setFen(0, start);
      let h = 0;
      for (const uci of moves) {
        engine.playUci(h, uci, h + 1);
        h++;
      }
      expect(engine.key(h)).toBe(engine.recomputedKey(h));
      return { key: engine.key(h), fen: engine.fen(h) };
    };
    const loaded = (fen: string) => {
      engine.setFen(0, fen);
      return engine.key(0);
    };
    const start = loaded(START);

    // knights out and back: the start position again
    expect(keyAfter(['g1f3', 'g8f6', 'f3g1', 'f6g8']).key).toBe(start);
    // move-order transposition
    const a = keyAfter(['g1f3', 'g8f6', 'b1c3', 'b8c6']);
    const b = keyAfter(['b1c3', 'b8c6', 'g1f3', 'g8f6']);
    expect(a.key).toBe(b.key);
    expect(a.key).toBe(loaded('r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3'));
    // 1.e4 e5 (e.p. squares e3 and e6 unusable, so dropped) = 1.e3 e6 2.e4 e5
    const double = keyAfter(['e2e4', 'e7e5']);
    const single = keyAfter(['e2e3', 'e7e6', 'e3e4', 'e6e5']);
    expect(double.key).toBe(single.key);
    expect(double.fen.split(' ')[3]).toBe('-');
    // a usable e.p. square is part of the position: 1.e4 a6 2.e5 d5 (e5xd6 possible) differs from
    // 1.e3 a6 2.e4 d6 3.e5 d5, which has the same placement but no capture available
    const withEp = keyAfter(['e2e4', 'a7a6', 'e4e5', 'd7d5']);
    const withoutEp = keyAfter(['e2e3', 'a7a6', 'e3e4', 'd7d6', 'e4e5', 'd6d5']);
    expect(withEp.fen.split(' ').slice(0, 4).join(' ')).toBe(
      'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6',
    );
    expect(withoutEp.fen.split(' ').slice(0, 3)).toEqual(withEp.fen.split(' ').slice(0, 3));
    expect(withEp.key).not.toBe(withoutEp.key);
    // castling rights are part of the position: king out and back loses them
    const walked = keyAfter(['e2e4', 'e7e5', 'e1e2', 'e8e7', 'e2e1', 'e7e8']);
    expect(walked.fen.split(' ').slice(0, 2)).toEqual(double.fen.split(' ').slice(0, 2));
    expect(walked.key).not.toBe(double.key);
    expect(walked.key).toBe(loaded('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4'));
    // side to move is part of the position
    expect(loaded('4k3/8/8/8/8/8/8/4K3 w - - 0 1')).not.toBe(loaded('4k3/8/8/8/8/8/8/4K3 b - - 0 1'));
    // rook transposition in an ending: Ra1-a4-h4 vs Ra1-h1-h4
    const ending = '4k3/8/8/8/8/8/4K3/R7 w - - 0 1';
    expect(keyAfter(['a1a4', 'e8d8', 'a4h4'], ending).key).toBe(keyAfter(['a1h1', 'e8d8', 'h1h4'], ending).key);
  });
});
