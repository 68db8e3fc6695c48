// Kriegspiel rule sets: the named presets and their flags. The core reads them as the RULES
// buffer (layout in assembly/referee/rules.ts); encodeRules must follow that layout.
import { fail } from '../errors';
import {
  RULE_COUNT,
  RULE_ILLEGAL_MOVER_ONLY,
  RULE_REPEAT_IS_NONSENSE,
  RULE_CAPTURE_KIND,
  RULE_EP_LANDING_SQUARE,
  RULE_EP_ANNOUNCED,
  RULE_CHECK_DIRECTIONS,
  RULE_PAWN_TRIES,
  RULE_PROMOTION_ANNOUNCED,
  RULE_CASTLING,
  RULE_EN_PASSANT,
  RULE_PROMOTION_PIECES,
  RULE_STALEMATE_LOSES,
  RULE_FIFTY_MOVES,
  RULE_REPETITION,
  RULE_MATERIAL_DRAW,
  RULE_PAWN_TRY_NONSENSE,
  PAWN_TRIES_NONE,
  PAWN_TRIES_ANY_SECRET,
  PAWN_TRIES_ANY_OPEN,
  PAWN_TRIES_COUNT,
  PAWN_TRIES_EXISTS,
  PAWN_TRIES_SQUARES,
  PAWN_TRIES_PAWN_SQUARES,
  MATERIAL_DRAW_NONE,
  MATERIAL_DRAW_BERKELEY,
  MATERIAL_DRAW_DEAD,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
} from '../constants';

export type PawnTries = 'none' | 'any-secret' | 'any-open' | 'count' | 'exists' | 'squares' | 'pawn-squares';
/**
 * Which material ends the game in a draw (MATERIAL_DRAW_* in assembly/referee/rules.ts): none;
 * Berkeley's list (each side has at most one knight or bishop besides the king); or a dead
 * position by material as in chess (a lone knight against a bare king, or no knight and every
 * bishop on one colour of squares).
 */
export type MaterialDraw = 'none' | 'berkeley' | 'dead';

export interface RuleSet {
  /** Who hears that an attempt was Illegal. */
  illegalHeardBy: 'both' | 'mover';
  /** An attempt already rejected this turn is Nonsense (otherwise it is answered again). */
  repeatIsNonsense: boolean;
  /** Capture announcements: the square, or the square and whether a pawn or a piece was taken. */
  captureDetail: 'square' | 'square+kind';
  /** The square announced for an en-passant capture. */
  enPassantSquare: 'captured-pawn' | 'landing';
  /** An en-passant capture is announced as such. */
  enPassantAnnounced: boolean;
  /** Check announcements: the directions (Knight, Rank, File, Long/Short diagonal), or just "check". */
  checkDetail: 'directions' | 'plain';
  /**
   * Pawn-try information before each turn (see PAWN_TRIES_* in assembly/referee/rules.ts): under
   * `squares` the squares the legal pawn captures land on, under `pawn-squares` the squares of the
   * pawns that can make them.
   */
  pawnTries: PawnTries;
  /** A pawn capture attempt that the pawn-try announcement rules out is Nonsense (no effect where pawn tries are not announced). */
  pawnTryNonsense: boolean;
  /** A promotion is announced (never the piece). */
  promotionAnnounced: boolean;
  castling: boolean;
  enPassant: boolean;
  /** Allowed promotion pieces, a subset of "qrbn". */
  promotionPieces: string;
  /** Stalemate is a draw, or a loss for the stalemated side. */
  stalemate: 'draw' | 'loss';
  fiftyMoveDraw: boolean;
  repetitionDraw: boolean;
  /** Which material ends the game in a draw (MaterialDraw). */
  insufficientMaterialDraw: MaterialDraw;
}

const BERKELEY: RuleSet = {
  illegalHeardBy: 'both',
  repeatIsNonsense: true,
  captureDetail: 'square',
  enPassantSquare: 'captured-pawn',
  enPassantAnnounced: false,
  checkDetail: 'directions',
  pawnTries: 'none',
  pawnTryNonsense: false,
  promotionAnnounced: false,
  castling: true,
  enPassant: true,
  promotionPieces: 'qrbn',
  stalemate: 'draw',
  fiftyMoveDraw: false,
  repetitionDraw: false,
  insufficientMaterialDraw: 'berkeley',
};

/** The named presets; docs/rules-and-notation.md documents the source of each and the choices made where it is silent. */
export const PRESETS = {
  berkeley: BERKELEY,
  'berkeley-any': { ...BERKELEY, pawnTries: 'any-secret' },
  wild16: {
    ...BERKELEY,
    illegalHeardBy: 'mover',
    repeatIsNonsense: false,
    captureDetail: 'square+kind',
    pawnTries: 'count',
    fiftyMoveDraw: true,
    repetitionDraw: true,
    insufficientMaterialDraw: 'dead',
  },
  cincinnati: {
    ...BERKELEY,
    captureDetail: 'square+kind',
    pawnTries: 'exists',
    pawnTryNonsense: true,
    fiftyMoveDraw: true,
    repetitionDraw: true,
    insufficientMaterialDraw: 'dead',
  },
  english: {
    ...BERKELEY,
    enPassantSquare: 'landing',
    enPassantAnnounced: true,
    pawnTries: 'any-open',
    fiftyMoveDraw: true,
    repetitionDraw: true,
    insufficientMaterialDraw: 'dead',
  },
  rand: {
    ...BERKELEY,
    captureDetail: 'square+kind',
    pawnTries: 'squares',
    pawnTryNonsense: true,
    promotionAnnounced: true,
    stalemate: 'loss',
    fiftyMoveDraw: true,
    repetitionDraw: true,
    insufficientMaterialDraw: 'dead',
  },
} as const satisfies Record<string, RuleSet>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function preset(name: string): RuleSet {
  if (!(name in PRESETS)) throw fail('bad-variant', { name, known: PRESET_NAMES });
  return { ...PRESETS[name as PresetName] };
}

/** The preset a rule set equals, if any. */
export function presetOf(rules: RuleSet): PresetName | undefined {
  return PRESET_NAMES.find((name) => sameRules(PRESETS[name], rules));
}

export function sameRules(a: RuleSet, b: RuleSet): boolean {
  return (Object.keys(BERKELEY) as (keyof RuleSet)[]).every((key) => a[key] === b[key]);
}

/** The core's code of each pawn-try rule (PAWN_TRIES_* of assembly/referee/rules.ts). */
const PAWN_TRY_CODES: Record<PawnTries, number> = {
  none: PAWN_TRIES_NONE,
  'any-secret': PAWN_TRIES_ANY_SECRET,
  'any-open': PAWN_TRIES_ANY_OPEN,
  count: PAWN_TRIES_COUNT,
  exists: PAWN_TRIES_EXISTS,
  squares: PAWN_TRIES_SQUARES,
  'pawn-squares': PAWN_TRIES_PAWN_SQUARES,
};
/** The core's code of each material-draw rule (MATERIAL_DRAW_* of assembly/referee/rules.ts). */
const MATERIAL_DRAW_CODES: Record<MaterialDraw, number> = {
  none: MATERIAL_DRAW_NONE,
  berkeley: MATERIAL_DRAW_BERKELEY,
  dead: MATERIAL_DRAW_DEAD,
};
const MATERIAL_DRAWS = Object.keys(MATERIAL_DRAW_CODES) as MaterialDraw[];
const PROMOTION_TYPES: Record<string, number> = { n: KNIGHT, b: BISHOP, r: ROOK, q: QUEEN };

/** The RULES buffer (assembly/referee/rules.ts layout: one word per RULE_* flag). */
export function encodeRules(r: RuleSet): Int32Array {
  const pieces = r.promotionPieces.toLowerCase();
  if (!/^[qrbn]+$/.test(pieces))
    throw fail('bad-rules', { text: `promotion pieces must be letters of "qrbn", got '${r.promotionPieces}'` });
  const flag = (b: boolean) => (b ? 1 : 0);
  const words = new Int32Array(RULE_COUNT);
  words[RULE_ILLEGAL_MOVER_ONLY] = flag(r.illegalHeardBy === 'mover');
  words[RULE_REPEAT_IS_NONSENSE] = flag(r.repeatIsNonsense);
  words[RULE_CAPTURE_KIND] = flag(r.captureDetail === 'square+kind');
  words[RULE_EP_LANDING_SQUARE] = flag(r.enPassantSquare === 'landing');
  words[RULE_EP_ANNOUNCED] = flag(r.enPassantAnnounced);
  words[RULE_CHECK_DIRECTIONS] = flag(r.checkDetail === 'directions');
  words[RULE_PAWN_TRIES] = PAWN_TRY_CODES[r.pawnTries];
  words[RULE_PROMOTION_ANNOUNCED] = flag(r.promotionAnnounced);
  words[RULE_CASTLING] = flag(r.castling);
  words[RULE_EN_PASSANT] = flag(r.enPassant);
  // bit (type - KNIGHT) per allowed promotion piece
  words[RULE_PROMOTION_PIECES] = [...new Set(pieces)].reduce(
    (bits, letter) => bits | (1 << (PROMOTION_TYPES[letter] - KNIGHT)),
    0,
  );
  words[RULE_STALEMATE_LOSES] = flag(r.stalemate === 'loss');
  words[RULE_FIFTY_MOVES] = flag(r.fiftyMoveDraw);
  words[RULE_REPETITION] = flag(r.repetitionDraw);
  words[RULE_MATERIAL_DRAW] = MATERIAL_DRAW_CODES[r.insufficientMaterialDraw];
  words[RULE_PAWN_TRY_NONSENSE] = flag(r.pawnTryNonsense);
  return words;
}

/** Text form for record headers: the preset name, then any flag that differs from it. */
export function describeRules(rules: RuleSet): { variant: string; overrides: Partial<RuleSet> } {
  const exact = presetOf(rules);
  if (exact) return { variant: exact, overrides: {} };
  // the preset from which the fewest flags differ
  let best: PresetName = 'berkeley';
  let bestCount = Infinity;
  for (const name of PRESET_NAMES) {
    const count = (Object.keys(BERKELEY) as (keyof RuleSet)[]).filter((k) => PRESETS[name][k] !== rules[k]).length;
    if (count < bestCount) {
      best = name;
      bestCount = count;
    }
  }
  const overrides: Partial<RuleSet> = {};
  for (const key of Object.keys(BERKELEY) as (keyof RuleSet)[]) {
    if (PRESETS[best][key] !== rules[key]) (overrides as Record<string, unknown>)[key] = rules[key];
  }
  return { variant: best, overrides };
}

/** Applies overrides (e.g. from CLI flags or a record's [RuleOverrides] tag) to a preset, validating each. */
export function withOverrides(base: RuleSet, overrides: Record<string, unknown>): RuleSet {
  const rules: RuleSet = { ...base };
  for (const [name, given] of Object.entries(overrides)) {
    const key = ruleKeyOf(name);
    if (key === undefined) throw fail('bad-rules', { text: `unknown rule '${name}'` });
    const value =
      key === 'insufficientMaterialDraw' && typeof given === 'boolean' ? legacyMaterialDraw(base, given) : given;
    const current = (BERKELEY as unknown as Record<string, unknown>)[key];
    const allowed = ALLOWED[key as keyof RuleSet];
    const ok = allowed ? allowed.includes(value as string) : typeof value === typeof current;
    if (!ok)
      throw fail('bad-rules', {
        text: `rule '${flagName(key)}' cannot be ${JSON.stringify(value)}${allowed ? ` (expected ${allowed.join(' | ')})` : ''}`,
      });
    (rules as unknown as Record<string, unknown>)[key] = value;
  }
  encodeRules(rules); // validates promotion pieces
  return rules;
}

/**
 * insufficientMaterialDraw was a boolean before it named the rule (records and databases written
 * then say true or false): false is 'none'; true is the base preset's rule, or 'dead' when the
 * base has none.
 */
function legacyMaterialDraw(base: RuleSet, on: boolean): MaterialDraw {
  if (!on) return 'none';
  return base.insufficientMaterialDraw === 'none' ? 'dead' : base.insufficientMaterialDraw;
}

/**
 * A rule set stored whole as JSON (a database's rules_json): read through withOverrides, so a
 * flag stored in an older form (insufficientMaterialDraw as a boolean) is understood, and a bad
 * one is refused.
 */
export function parseRulesJson(text: string): RuleSet {
  return withOverrides(preset('berkeley'), JSON.parse(text));
}

const ALLOWED: Partial<Record<keyof RuleSet, string[]>> = {
  illegalHeardBy: ['both', 'mover'],
  captureDetail: ['square', 'square+kind'],
  enPassantSquare: ['captured-pawn', 'landing'],
  checkDetail: ['directions', 'plain'],
  pawnTries: Object.keys(PAWN_TRY_CODES),
  stalemate: ['draw', 'loss'],
  insufficientMaterialDraw: MATERIAL_DRAWS,
};
export const RULE_CHOICES = ALLOWED;
export const RULE_KEYS = Object.keys(BERKELEY) as (keyof RuleSet)[];

/**
 * A flag's name wherever people read or type it — the command line, KPGN [Rules], krieg variants,
 * messages: kebab-case (pawn-tries). JSON documents keep the RuleSet field names (pawnTries); on
 * input every reader takes either spelling (ruleKeyOf).
 */
export function flagName(key: keyof RuleSet): string {
  return key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** The RuleSet key a flag name names, in either spelling (pawn-tries or pawnTries); undefined if none. */
export function ruleKeyOf(name: string): keyof RuleSet | undefined {
  const key = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return (RULE_KEYS as string[]).includes(key) ? (key as keyof RuleSet) : undefined;
}
