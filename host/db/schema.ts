// The problem database's schema (version 2; docs/database.md describes it): its format name and
// version, its tables and their SQL. Node-free: ProblemDb (./database.node.ts) makes and checks files
// with it, the web page's reader (host/web/problemDb.ts) checks the format and version it opens.

/** The format a problem database's meta table names, and the schema version this krieg reads and writes. */
export const DB_FORMAT = 'krieg-problem-db';
export const SCHEMA_VERSION = 2;
/** The version before row checksums: read only after `krieg db upgrade`. */
export const UNCHECKED_SCHEMA_VERSION = 1;
/** The tables, in the order they are verified and copied; each row's last column is its checksum. */
export const TABLES = ['meta', 'games', 'instances', 'results'] as const;
export type Table = (typeof TABLES)[number];

/** The tables as `CREATE` statements: the authority on the schema (ProblemDb compares a file's with it). */
export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, checksum TEXT NOT NULL);
CREATE TABLE games (
  game INTEGER PRIMARY KEY,          -- 1, 2, ... in the generator's order
  game_seed INTEGER NOT NULL,        -- the seed the game was played from (derived from params.seed and game)
  setup TEXT NOT NULL,               -- starting FEN
  plies INTEGER NOT NULL,
  result TEXT NOT NULL,              -- '1-0', '0-1', '1/2-1/2' or '*' (stopped at the ply limit)
  dropped INTEGER NOT NULL,          -- 1: White's belief exceeded the drop size; no instance taken
  max_belief INTEGER NOT NULL,       -- the largest belief White held at its turns (dropped: the drop size + 1)
  instances INTEGER NOT NULL,        -- instances stored from this game
  record_kpgn TEXT NOT NULL,         -- the full game record
  checksum TEXT NOT NULL             -- rowChecksum of the columns before it
);
CREATE TABLE instances (
  id INTEGER PRIMARY KEY,            -- 1, 2, ... in generation order
  key TEXT NOT NULL UNIQUE,          -- sha1 of ply, rule set and the sorted positions: identity
  rules TEXT NOT NULL,               -- preset name (or 'custom')
  rules_json TEXT NOT NULL,          -- the full rule set
  ply INTEGER NOT NULL,              -- search depth of the classification (3, 5, ...)
  class TEXT NOT NULL CHECK (class IN ('mate', 'near-miss')),
  belief_size INTEGER NOT NULL,
  view_kpgn TEXT NOT NULL,           -- White's view up to the instance (hints included)
  view_json TEXT NOT NULL,           -- the same view as krieg-view JSON
  positions TEXT NOT NULL,           -- JSON array of FENs: White's exact belief, estimator order
  seed INTEGER NOT NULL,             -- the generator's seed (params.seed)
  game INTEGER NOT NULL REFERENCES games(game),
  cut_ply INTEGER NOT NULL,          -- plies played before the instance (White to move)
  source_id INTEGER REFERENCES instances(id), -- a re-analysis: the shallower near-miss it came from
  covered TEXT NOT NULL,             -- JSON array of position indices the witness strategy mates in (all, for a mate)
  strategy TEXT NOT NULL,            -- the witness: krieg-strategy JSON on the covered positions
  work TEXT NOT NULL,                -- JSON: nodes each algorithm made when the instance was classified
  checksum TEXT NOT NULL
);
CREATE INDEX instances_class ON instances (ply, class);
CREATE TABLE results (
  instance_id INTEGER NOT NULL REFERENCES instances(id),
  algorithm TEXT NOT NULL,
  backend TEXT NOT NULL,             -- 'wasm' or 'js'
  answer TEXT NOT NULL,              -- 'proven', 'disproven' or 'unknown' (a limit was reached)
  nodes INTEGER NOT NULL,
  positions INTEGER NOT NULL,
  ms REAL NOT NULL,
  limit_ms REAL,
  machine TEXT NOT NULL,
  git_commit TEXT,
  run_at TEXT NOT NULL,
  checksum TEXT NOT NULL
);
`;
