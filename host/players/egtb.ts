// Endgame tablebases as files and figures (issue #35; the core builds and probes them, through
// host/core/egtb.ts): which rule sets share a table, the file format, the statistics, and the men
// of a state in words. Node-free: the file system and compression are egtbFile.node.ts's.
//
// Which rules matter: against a lone king only what the attacker hears after its own moves and the
// end of the game do. Every preset announces check directions, so the check detail splits no
// preset; stalemate does: a loss for the stalemated side under `rand` (a stalemating move then
// mates), a draw elsewhere. The defender's Illegal attempts (heard or not, Nonsense or not) cannot
// matter in the worst case (the defender need make none), nor pawn tries, capture detail or en
// passant (no pawn). So berkeley, berkeley-any, wild16, cincinnati and english share the table
// `dirs-draw`, rand has `dirs-loss`, and a plain-check rule set `plain-draw` or `plain-loss`. The
// fifty-move and repetition draws are not modelled (a mate longer than 50 moves would need them).
import { preset, withOverrides, type RuleSet } from '../record/rules';
import { fail } from '../errors';
import { makeFenOfPieces } from '../notation/fen';
import { EGTB_ENTRY_WORDS, type EgtbEnding } from '../core/egtb';
import { BISHOP, KING, KNIGHT, QUEEN, ROOK } from '../constants';

/** The table a rule set uses (rule sets with the same name share one). */
export function egtbTableName(rules: RuleSet): string {
  return `${rules.checkDetail === 'directions' ? 'dirs' : 'plain'}-${rules.stalemate}`;
}

/** Every table's name (egtbTableName of some rule set). */
export const EGTB_TABLES = ['dirs-draw', 'dirs-loss', 'plain-draw', 'plain-loss'] as const;

/** A rule set whose table is `table` (Berkeley's, its check detail and stalemate set). */
export function egtbTableRules(table: string): RuleSet {
  if (!(EGTB_TABLES as readonly string[]).includes(table)) throw fail('bad-egtb-table', { name: table });
  const [check, stalemate] = table.split('-');
  return withOverrides(preset('berkeley'), {
    checkDetail: check === 'dirs' ? 'directions' : 'plain',
    stalemate: stalemate as RuleSet['stalemate'],
  });
}

export interface EgtbHeader {
  ending: EgtbEnding;
  /** egtbTableName of the rules it was built under. */
  table: string;
  states: number;
  starts: number;
  longest: number;
  /** States valued n (attacker moves), n = 1 … longest ([0]: the states with no forced mate). */
  byValue: number[];
  /** How the build went (seconds, backend): written by builds before checkpoints, now left out, so that a table is a function of its ending, rules and core. */
  built?: Record<string, unknown>;
}

/** The ending by the attacker's men besides its king (piece types, ascending). */
const ENDINGS: Record<string, EgtbEnding> = {
  [`${ROOK}`]: 'krk',
  [`${QUEEN}`]: 'kqk',
  [`${BISHOP},${BISHOP}`]: 'kbbk',
  [`${KNIGHT},${BISHOP}`]: 'kbnk',
};

/**
 * The tabled ending of a board (piece codes by square, colour << 3 | type) for `side` (0 White, 1
 * Black) as the attacker: its king and the ending's men against a bare king; else undefined.
 */
export function egtbEndingOf(board: readonly number[], side: number): EgtbEnding | undefined {
  const men: number[] = [];
  for (const code of board) {
    if (code === 0 || (code & 7) === KING) continue;
    if (code >> 3 !== side) return undefined; // the defender has more than his king
    men.push(code & 7);
  }
  return ENDINGS[men.sort((a, b) => a - b).join(',')];
}

const MAGIC = 'KRIEGTB1';

/**
 * A table as bytes: the magic `KRIEGTB1`, the header's JSON length (4 bytes, little-endian), the
 * header, then the entries (EGTB_ENTRY_WORDS little-endian i32 words per state: men key, the king's
 * set low and high words, the value).
 */
export function encodeTable(header: EgtbHeader, entries: Int32Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(12 + json.length + entries.length * 4);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, json.length, true);
  out.set(json, 12);
  const at = 12 + json.length;
  for (let i = 0; i < entries.length; i++) view.setInt32(at + 4 * i, entries[i], true);
  return out;
}

/** The header and entries of a table's bytes; `where` names the file in errors. */
export function decodeTable(bytes: Uint8Array, where: string): { header: EgtbHeader; entries: Int32Array } {
  const bad = (why: string) => fail('bad-egtb', { path: where, why });
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw bad('no KRIEGTB1 magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  let header: EgtbHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length)));
  } catch {
    throw bad('its header is not JSON');
  }
  const at = 12 + length;
  if (bytes.length - at !== header.states * EGTB_ENTRY_WORDS * 4) throw bad(`not ${header.states} states long`);
  const entries = new Int32Array(header.states * EGTB_ENTRY_WORDS);
  for (let i = 0; i < entries.length; i++) entries[i] = view.getInt32(at + 4 * i, true);
  return { header, entries };
}

const PIECES: Record<EgtbEnding, [string, string]> = {
  krk: ['R', ''],
  kqk: ['Q', ''],
  kbbk: ['B', 'B'],
  kbnk: ['B', 'N'],
};

const squareName = (sq: number) => 'abcdefgh'[sq & 7] + String((sq >> 3) + 1);

/** The squares of a set's two words, ascending. */
export function setSquares(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let sq = 0; sq < 64; sq++) if (((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0) out.push(sq);
  return out;
}

/** A state in words: `Ka1 Rh8, king on 52 squares` or `…, king on a8 c8`. */
export function describeState(ending: EgtbEnding, men: number, lo: number, hi: number): string {
  const [a, b] = PIECES[ending];
  const pieces = [`K${squareName(men & 63)}`, `${a}${squareName((men >> 6) & 63)}`];
  if (b) pieces.push(`${b}${squareName((men >> 12) & 63)}`);
  const squares = setSquares(lo, hi);
  const where = squares.length <= 6 ? `on ${squares.map(squareName).join(' ')}` : `on ${squares.length} squares`;
  return `${pieces.join(' ')}, king ${where}`;
}

/** A FEN of a state's men, White to move, Black's king on its set's first square. */
export function stateFen(ending: EgtbEnding, men: number, lo: number, hi: number): string {
  const [a, b] = PIECES[ending];
  const pieces: [number, string][] = [
    [men & 63, 'K'],
    [(men >> 6) & 63, a],
    [setSquares(lo, hi)[0], 'k'],
  ];
  if (b) pieces.push([(men >> 12) & 63, b]);
  return makeFenOfPieces(pieces);
}

export interface EgtbStats {
  states: number;
  /** States by value ([0]: no forced mate). */
  byValue: number[];
  /** The start states ("king anywhere consistent") by value ([0]: no forced mate). */
  startsByValue: number[];
  longest: number;
  /** The start states with the longest mate among starts (up to `examples`). */
  longestStarts: { value: number; state: string; fen: string }[];
}

/** Counts of a table's states by value, and the starts' distribution with the longest of them. */
export function egtbStats(header: EgtbHeader, entries: Int32Array, examples = 5): EgtbStats {
  const byValue: number[] = [0];
  const startsByValue: number[] = [0];
  const W = EGTB_ENTRY_WORDS;
  for (let i = 0; i < header.states; i++) {
    const v = entries[i * W + 3];
    while (byValue.length <= v) byValue.push(0);
    byValue[v]++;
    if (i < header.starts) {
      while (startsByValue.length <= v) startsByValue.push(0);
      startsByValue[v]++;
    }
  }
  const top = startsByValue.length - 1;
  const longestStarts: EgtbStats['longestStarts'] = [];
  for (let i = 0; i < header.starts && longestStarts.length < examples; i++) {
    if (entries[i * W + 3] !== top || top === 0) continue;
    const [men, lo, hi] = [entries[i * W], entries[i * W + 1], entries[i * W + 2]];
    longestStarts.push({
      value: top,
      state: describeState(header.ending, men, lo, hi),
      fen: stateFen(header.ending, men, lo, hi),
    });
  }
  return { states: header.states, byValue, startsByValue, longest: byValue.length - 1, longestStarts };
}
