// Every error krieg reports, in one registry: a stable id, the exit code the command line ends with,
// and the message template. Library code throws KriegError (`fail(id, params)`); only the CLI prints
// (host/cli/common.ts runCommand: `krieg: <message>` on stderr, exit code from here). The ids and
// messages are pinned by test/data/malformed/expected.json and the CLI tests: change neither
// lightly. A message says what is wrong and where (file, line, field); a caller that knows more
// context prefixes it with `error.within(…)`, keeping the id.
import {
  SETUP_OK,
  SETUP_BAD_PIECE,
  SETUP_KING_COUNT,
  SETUP_PAWN_ON_BACK_RANK,
  SETUP_TOO_MANY_PIECES,
  SETUP_OPPONENT_IN_CHECK,
  SETUP_BAD_SIDE,
  SETUP_BAD_CLOCK,
  SETUP_BAD_HANDLE,
} from './constants';

/** Exit codes of the command line. */
export const EXIT = {
  ok: 0,
  /** Anything unexpected: a bug (the message says "internal error"). */
  internal: 1,
  /** Bad input: a file, an argument, a position, a database; one line names what and where. */
  badInput: 2,
  /** belief, infoset, solve: no position (history) fits the view. */
  inconsistent: 3,
  /** belief, infoset, solve: a limit stopped the run (the result printed is partial, or the answer unknown). */
  limit: 4,
  /** verify: the strategy does not mate everywhere. */
  verifyFailed: 5,
  /** play: a person stopped the game (quit, the end of the input, Ctrl-C); the game so far is saved unfinished (*). 128 + SIGINT, as shells report Ctrl-C. */
  stopped: 130,
} as const;

type Template<P> = (p: P) => string;
interface Entry<P> {
  exitCode: number;
  message: Template<P>;
}
const bad = <P>(message: Template<P>): Entry<P> => ({ exitCode: EXIT.badInput, message });
const internal = <P>(message: Template<P>): Entry<P> => ({ exitCode: EXIT.internal, message });
/** Messages composed where they arise (one id, several wordings): the template is the text. */
type Text = { text: string };
const text = (p: Text) => p.text;

const ERRORS = {
  // ---- positions and moves (host/notation/fen.ts, the core's loadSetup, the Engine) ----
  'bad-fen': bad(
    (p: { what: string; column?: number; fen: string }) =>
      `invalid FEN${p.column === undefined ? '' : ` at column ${p.column}`}: ${p.what} (in "${p.fen}")`,
  ),
  'bad-piece': bad((p: { letter: string }) => `not a piece letter: '${p.letter}'`),
  'bad-handle': bad(
    (p: { handle: number; room: number; capacity: number }) =>
      `position handle ${p.handle} (+${p.room}) outside the arena of ${p.capacity}`,
  ),
  'bad-capacity': bad((p: { capacity: number }) => `capacity must be an integer >= 2, got ${p.capacity}`),
  'bad-depth': bad((p: { depth: number; divide?: boolean }) =>
    p.divide
      ? `divide depth must be an integer >= 1, got ${p.depth}`
      : `depth must be a non-negative integer, got ${p.depth}`,
  ),
  'illegal-move': bad((p: { move: string; fen: string }) => `${p.move} is not a legal move in ${p.fen}`),
  // ---- rules ----
  'bad-variant': bad(
    (p: { name: string; known?: readonly string[] }) =>
      `unknown variant '${p.name}'${p.known ? ` (expected one of ${p.known.join(', ')})` : ''}`,
  ),
  'bad-rules': bad(text),
  // ---- records, views and their notations ----
  'bad-kpgn': bad(
    (p: { line: number; column: number; reason: string }) => `line ${p.line}, column ${p.column}: ${p.reason}`,
  ),
  'bad-json': bad((p: { line?: number; column?: number; path?: string; reason: string }) =>
    p.line === undefined
      ? `${p.path}: ${p.reason}` // a value read on its own (an engine protocol event)
      : `line ${p.line}, column ${p.column}${p.path === undefined ? '' : ` (${p.path})`}: ${p.reason}`,
  ),
  'bad-percept': bad(text),
  'bad-event': internal(text),
  'bad-ks-game': bad(
    (p: { line: number; column: number; path?: string; reason: string }) =>
      `line ${p.line}, column ${p.column}${p.path === undefined ? '' : ` (ks-game ${p.path || 'document'})`}: ${p.reason}`,
  ),
  'ks-game-unmapped': bad(
    (p: { line: number; column: number; path: string; reason: string }) =>
      `line ${p.line}, column ${p.column} (ks-game ${p.path || 'document'}): cannot be read as a krieg record: ${p.reason}`,
  ),
  'chess-pgn': bad(
    (p: { line: number; column: number; why: string }) =>
      `line ${p.line}, column ${p.column}: this looks like a chess PGN (${p.why}), not a Kriegspiel record; krieg reads KPGN (docs/rules-and-notation.md), its JSON records and views, and ks-game saves`,
  ),
  'record-mismatch': bad((p: { at: string; what: string }) => `${p.at}: ${p.what}`),
  'bad-view': bad(text),
  'view-too-long': bad(text),
  'wrong-side': bad(
    (p: { file: string; game: number; side: string; wanted: string }) =>
      `${p.file}: game ${p.game} is ${p.side}'s view; ${p.wanted}'s cannot be derived from it`,
  ),
  'missing-as': bad(
    (p: { file: string; game: number }) =>
      `${p.file}: game ${p.game} is a full record; say whose view with --as white or --as black`,
  ),
  'game-status': bad(text),
  'player-stuck': internal(
    (p: { player: string; attempts: number }) => `${p.player} made ${p.attempts} attempts without a legal move`,
  ),
  'no-games': bad(() => 'no games played'),
  'player-bad-attempt': internal(
    (p: { player: string; choice: string }) => `${p.player} chose ${p.choice}, not an attempt`,
  ),
  'missing-option': bad(
    (p: { command: string; option: string }) =>
      `${p.command}: missing --${p.option}; run 'krieg ${p.command} --help' for usage`,
  ),
  // ---- players and matches (host/players/) ----
  'bad-player': bad(text),
  'match-file': bad(text),
  'match-mismatch': bad(text),
  // ---- outside programs and the engine protocol (host/players/ext.node.ts, engineServer.node.ts; docs/protocol.md) ----
  // an outside program's failure forfeits its game (host/players/forfeit.ts): the message is the record's [Termination]
  'ext-start': bad((p: { program: string; reason: string }) => `${p.program} did not start: ${p.reason}`),
  'ext-exit': bad((p: { program: string; how: string; stderr?: string }) =>
    p.stderr ? `${p.program} ${p.how} (its last words: ${JSON.stringify(p.stderr)})` : `${p.program} ${p.how}`,
  ),
  'ext-timeout': bad(
    (p: { program: string; seconds: number; waiting: string }) =>
      `${p.program} did not answer within ${p.seconds} s (waiting for ${p.waiting})`,
  ),
  'ext-bad-line': bad(
    (p: { program: string; line: string; reason: string }) => `${p.program} sent ${p.line}: ${p.reason}`,
  ),
  'ext-bad-attempt': bad(
    (p: { program: string; attempt: string; reason: string }) => `${p.program} attempted ${p.attempt}: ${p.reason}`,
  ),
  'ext-error': bad((p: { program: string; message: string }) => `${p.program} reported an error: ${p.message}`),
  /** krieg engine: a line from the driver it cannot take (answered with an error message; the engine goes on). */
  'protocol-bad-line': bad((p: { reason: string }) => p.reason),
  // ---- krieg bot: playing on Kriegspiel.org (host/online/) ----
  'site-state': bad(
    (p: { game: string; where: string; reason: string }) => `Kriegspiel.org game ${p.game}, ${p.where}: ${p.reason}`,
  ),
  'site-variant': bad(
    (p: { variant: string; reason: string }) => `Kriegspiel.org rule variant '${p.variant}': ${p.reason}`,
  ),
  'site-http': bad(
    (p: { call: string; status: number; code: string; message: string }) =>
      `Kriegspiel.org ${p.call}: HTTP ${p.status} ${p.code}: ${p.message}`,
  ),
  'site-unreachable': bad((p: { call: string; why: string }) => `Kriegspiel.org ${p.call}: ${p.why}`),
  'bad-server': bad((p: { server: string; why: string }) => `--server ${p.server}: ${p.why}`),
  'bad-token-file': bad((p: { path: string; why: string }) => `token file ${p.path}: ${p.why}`),
  // ---- the worker pool (host/pool/) ----
  'pool-worker': internal(text),
  'source-too-many': internal((p: { max: number }) => `at most ${p.max} positions a request`),
  'source-inconsistent': internal(
    (p: { side: string; ply: number }) => `${p.side}'s own view is inconsistent at ply ${p.ply}`,
  ),
  // ---- the players' search and choose-move (host/core/players.ts): statuses that are a caller's bug ----
  'search-bad-depth': internal(
    (p: { depth: number; max: number }) => `search depth must be 1 to ${p.max}, got ${p.depth}`,
  ),
  'search-bad-handle': internal(
    (p: { handle: number; stack: number }) => `position ${p.handle} or stack ${p.stack} outside the arena`,
  ),
  'search-status': internal((p: { status: number }) => `search status ${p.status}`),
  'choose-bad-handle': internal(text),
  'choose-bad-depth': internal(text),
  'choose-too-many': internal(text),
  'choose-other-board': internal(text),
  'choose-not-begun': internal(text),
  'choose-status': internal((p: { status: number }) => `choose-move status ${p.status}`),
  // ---- endgames against a bare king (host/core/endgame.ts): statuses that are a caller's bug ----
  'endgame-status': internal(text),
  // ---- endgame tablebases (host/core/egtb.ts): a full table, a probe of a position not the table's ----
  'egtb-status': bad(text),
  'bad-egtb': bad((p: { path: string; why: string }) => `${p.path}: not a krieg tablebase (${p.why})`),
  'no-egtb': bad(
    (p: { path: string; ending: string; table: string }) =>
      `no ${p.ending} tablebase for the rules' table ${p.table} at ${p.path}: build it with krieg egtb build ${p.ending}`,
  ),
  'bad-egtb-ending': bad((p: { name: string }) => `not a tablebase ending: '${p.name}' (krk, kqk, kbbk or kbnk)`),
  'bad-egtb-table': bad(
    (p: { name: string }) => `not a tablebase table: '${p.name}' (dirs-draw, dirs-loss, plain-draw, plain-loss or all)`,
  ),
  // a build's checkpoint (host/players/egtbResume.node.ts): one of another build, or one that cannot be read
  'egtb-partial-other': bad(
    (p: { path: string; what: string }) =>
      `${p.path}: the checkpoint of another build (${p.what}): build with the same options to resume it, or --restart to replace it`,
  ),
  'bad-egtb-partial': bad(
    (p: { path: string; why: string }) =>
      `${p.path}: not a readable tablebase checkpoint (${p.why}): remove it, or build with --restart`,
  ),
  // ---- files ----
  'no-file': bad((p: { path: string }) => `${p.path}: no such file`),
  'read-failed': bad((p: { path: string; why: string }) => `${p.path}: cannot read it (${p.why})`),
  'write-failed': bad((p: { path: string; why: string }) => `${p.path}: cannot write it (${p.why})`),
  'not-games-file': bad(
    (p: { path: string; why: string }) =>
      `${p.path}: not a games file (${p.why}); krieg reads KPGN, its JSON records and views, and ks-game saves`,
  ),
  'bad-out': bad(text),
  // ---- command-line arguments ----
  'bad-arguments': bad(text),
  'bad-backend': bad((p: { backend: string }) => `unknown backend '${p.backend}' (expected wasm or js)`),
  'wasm-missing': internal(() => 'build/krieg.wasm not found: run `npm install` (or `npm run build`)'),
  // ---- state estimation ----
  inconsistent: { exitCode: EXIT.inconsistent, message: text },
  'belief-too-large': bad(text),
  'limit-reached': { exitCode: EXIT.limit, message: text },
  'self-play': internal(
    (p: { side: 'white' | 'black'; outcome: string }) =>
      `${p.side === 'white' ? 'White' : 'Black'}'s own view is ${p.outcome}`,
  ),
  // ---- belief tracking (host/belief/tracker.ts, host/core/tracker.ts) ----
  'tracker-no-room': bad(text),
  'bad-tracker-option': bad(text),
  'bad-tracker-state': bad(text),
  'tracker-records': internal(text),
  'tracker-freed': internal(() => 'this tracker was freed'),
  'tracker-status': internal(text),
  // ---- problems, strategies and the solver ----
  'bad-problems': bad(
    (p: { source: string; where?: string; what: string }) =>
      `${p.source}: ${p.where === undefined ? '' : `${p.where}: `}${p.what}`,
  ),
  'bad-strategy': bad(text),
  'bad-algorithm': bad(
    (p: { name: string; known: readonly string[] }) => `unknown algorithm '${p.name}' (known: ${p.known.join(', ')})`,
  ),
  'bad-ply': bad(text),
  'bad-problem': bad(text),
  'empty-problem': bad(text),
  'problem-too-large': bad((p: { positions: number }) => `${p.positions} positions do not fit the memory limit`),
  'mixed-sides': bad(
    (p: { position: number; side: string; first: string }) =>
      `position ${p.position} has ${p.side} to move, position 1 ${p.first}: a belief state has one side to move`,
  ),
  'mixed-own-pieces': bad(
    (p: { position: number; fen: string; side: string }) =>
      `position ${p.position} (${p.fen}): ${p.side}'s own pieces or castling rights differ from position 1's; in a belief state the player to move knows his own`,
  ),
  'missing-ply': bad(() => 'say --ply N (plies of actual moves: 3 = mate in 2 moves)'),
  'missing-problem': bad(() => 'give a problem FILE (problems, view or record), db:ID or --positions FEN…'),
  'no-problem': bad(
    (p: { file: string; id: string; ids: string[] }) =>
      `${p.file}: no problem with id '${p.id}' (ids: ${p.ids.slice(0, 10).join(', ')}${p.ids.length > 10 ? ', …' : ''})`,
  ),
  'not-to-move': bad(
    (p: { source: string; toMove: string; side: string }) =>
      `${p.source}: the view ends with ${p.toMove} to move; a problem is asked when ${p.side} is to move`,
  ),
  // ---- the problem database ----
  'db-missing': bad((p: { path: string; hint?: string }) => `${p.path}: no such database file${p.hint ?? ''}`),
  'db-not-sqlite': bad((p: { path: string }) => `${p.path}: not an SQLite database file`),
  'db-corrupt': bad((p: { where: string; what: string }) => `${p.where}: ${p.what}`),
  'db-foreign': bad(
    (p: { where: string; why: string }) =>
      `${p.where}: an SQLite database, but not a krieg problem database (${p.why})`,
  ),
  'db-version': bad(
    (p: { where: string; version: string | undefined; reads: number }) =>
      `${p.where}: schema version ${p.version ?? 'missing'}; this krieg reads version ${p.reads}`,
  ),
  'db-unchecked': bad(
    (p: { where: string }) =>
      `${p.where}: schema version 1, whose rows carry no checksums (a damaged row would go unseen); 'krieg db upgrade --db ${p.where}' adds them (version 2)`,
  ),
  'db-exists': bad((p: { path: string }) => `${p.path}: already exists (not overwritten)`),
  'db-read-only': bad(
    (p: { command: string }) =>
      `${p.command} writes to the database: name one with --db FILE (a new file, or one of yours); the shipped databases are read-only`,
  ),
  'db-shipped': bad(
    (p: { command: string; path: string; shipped: string }) =>
      `${p.path}: ${p.command} would write to ${p.shipped}, a database shipped with krieg (read-only); copy it first (cp ${p.path} my.sqlite) and give --db my.sqlite`,
  ),
  'db-changed': bad(
    (p: { path: string }) =>
      `${p.path} was changed by another program since krieg opened it; nothing written (run the command again)`,
  ),
  'db-params': bad(
    (p: { path: string; key: string; stored: unknown; wanted: unknown }) =>
      `${p.path} was generated with ${p.key} ${JSON.stringify(p.stored)}, not ${JSON.stringify(p.wanted)}; resume with the same parameters or choose a new file`,
  ),
  'bad-instance': bad(
    (p: { text: string; path: string; range: string }) =>
      `instance id must be a positive integer, got '${p.text}' (${p.path}: ${p.range})`,
  ),
  'no-instance': bad(
    (p: { id: string; path: string; range: string }) => `no instance ${p.id} in ${p.path} (${p.range})`,
  ),
  'no-instances': bad(text),
  'bad-reanalyse': bad(text),
} satisfies Record<string, Entry<never>>;

/** Families of ids: `bad-<option>` for a bad number in an option or argument, `setup-<status>` for a position loadSetup refuses. */
const FAMILIES = {
  option: bad(
    (p: { name: string; min: number | string; max: number | string; given: string; unit?: 'integer' | 'seconds' }) =>
      p.unit === 'seconds'
        ? `${p.name} must be a number of seconds above 0, got '${p.given}'`
        : `${p.name} must be an integer from ${p.min} to ${p.max}, got '${p.given}'`,
  ),
  setup: bad(text),
};

/** loadSetup's statuses (assembly/chess/position.ts SETUP_*): id suffix and message. */
const SETUP_STATUS: Record<number, { id: string; message: string }> = {
  [SETUP_OK]: { id: 'ok', message: 'ok' },
  [SETUP_BAD_PIECE]: { id: 'bad-piece', message: 'unknown piece code' },
  [SETUP_KING_COUNT]: { id: 'king-count', message: 'each side must have exactly one king' },
  [SETUP_PAWN_ON_BACK_RANK]: { id: 'pawn-on-back-rank', message: 'a pawn stands on the first or eighth rank' },
  [SETUP_TOO_MANY_PIECES]: {
    id: 'too-many-pieces',
    message: 'more pieces than pawns could have promoted to (pawns + extra pieces > 8 for a side)',
  },
  [SETUP_OPPONENT_IN_CHECK]: { id: 'opponent-in-check', message: 'the side not to move is in check' },
  [SETUP_BAD_SIDE]: { id: 'bad-side', message: 'side to move must be w or b' },
  [SETUP_BAD_CLOCK]: { id: 'bad-clock', message: 'halfmove clock must be >= 0 and fullmove number >= 1' },
  [SETUP_BAD_HANDLE]: { id: 'bad-handle', message: 'position handle outside the arena' },
};

export type ErrorId = keyof typeof ERRORS;
export type ErrorParams<I extends ErrorId> = Parameters<(typeof ERRORS)[I]['message']>[0];

/** Every error krieg throws: `code` is the registry's stable id, `exitCode` what the CLI exits with. */
export class KriegError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT.badInput,
  ) {
    super(message);
    this.name = 'KriegError';
  }

  /** The same error with `context` (a file, a position, an option) before its message. */
  within(context: string): KriegError {
    return new KriegError(this.code, `${context}: ${this.message}`, this.exitCode);
  }
}

/** The error `id` of the registry, its message made from `params`. */
export function fail<I extends ErrorId>(
  id: I,
  ...params: ErrorParams<I> extends undefined ? [] : [ErrorParams<I>]
): KriegError {
  const entry = ERRORS[id] as Entry<unknown>;
  return new KriegError(id, entry.message(params[0]), entry.exitCode);
}

/** An error that crossed a process boundary (a match worker's), as it was: id, message and exit code. */
export function reviveError(e: { code: string; message: string; exitCode: number }): KriegError {
  return new KriegError(e.code, e.message, e.exitCode);
}

/** A bad number for option or argument `name` (id `bad-<name>`). */
export function optionError(
  name: string,
  min: number | string,
  max: number | string,
  given: string | number,
  unit?: 'integer' | 'seconds',
): KriegError {
  return new KriegError(
    `bad-${name}`,
    FAMILIES.option.message({ name, min, max, given: String(given), unit }),
    FAMILIES.option.exitCode,
  );
}

/** The error for a loadSetup status (id `setup-<status>`). */
export function setupError(status: number): KriegError {
  const entry = SETUP_STATUS[status] ?? { id: 'unknown', message: `unknown setup status ${status}` };
  return new KriegError(`setup-${entry.id}`, FAMILIES.setup.message({ text: entry.message }), FAMILIES.setup.exitCode);
}

/** Every id of the registry with its exit code (documentation, tests). */
export function errorIds(): { id: string; exitCode: number }[] {
  return [
    ...Object.entries(ERRORS).map(([id, e]) => ({ id, exitCode: e.exitCode })),
    { id: 'bad-<option>', exitCode: FAMILIES.option.exitCode },
    ...Object.values(SETUP_STATUS)
      .filter((s) => s.id !== 'ok')
      .map((s) => ({ id: `setup-${s.id}`, exitCode: FAMILIES.setup.exitCode })),
  ];
}
