// The belief tracker's ABI: its statuses, option and state layouts, and the buffers the host
// writes (tracker.ts is the tracker; tracker/ holds its mechanisms).
//
// Options (TRACKER_OPTIONS, read by trackerCreate; trackerDefaults fills them):
// | index | option          | default   | meaning                                                |
// |-------|-----------------|-----------|--------------------------------------------------------|
// | 0     | exactMax        | 100,000   | the exact belief is kept while at most this large      |
// | 1     | poolMax         | 20,000    | a pool above this is cut …                             |
// | 2     | poolCut         | 10,000    | … to this many positions (seeded random choice)        |
// | 3     | poolMin         | 1,000     | below this the pool is topped up by the sampler        |
// | 4     | checkpointSize  | 256       | positions kept per checkpoint                          |
// | 5     | restartUnit     | 2,048     | work of the sampler's shortest descent                 |
// | 6     | recountTurns    | 1         | opponent turns after the base a recount may span       |
// | 7     | recountWork     | 4,000,000 | work one recount may take                              |
// | 8     | seed            | 1         | the tracker's random stream                            |
// | 9     | side            | —         | the player's colour: 0 White, 1 Black                   |
// | 10    | coverage        | 3         | a pool cut keeps first the positions that put one of the |
// |       |                 |           | opponent's men where fewer than this many others have one |
// |       |                 |           | of that kind (layer.ts Coverage); 0: a plain random cut   |
//
// State (one f64 per word: trackerStat reads, trackerSetStat writes; saving and statistics):
// | index | field           | meaning                                                        |
// |-------|-----------------|----------------------------------------------------------------|
// | 0     | mode            | TRACK_EXACT or TRACK_POOL                                        |
// | 1     | baseEvent       | the view event the base (last exact layer) stands before       |
// | 2     | random          | the random stream's state                                      |
// | 3     | plies           | moves (of either side) in the view                             |
// | 4     | descentIndex    | the sampler's descents so far (its place in the Luby sequence) |
// | 5     | work            | work units spent since creation                                |
// | 6     | added           | positions the sampler added to the pool                        |
// | 7     | descents        | descents begun by the sampler                                  |
// | 8     | restarts        | descents abandoned at their cutoff                             |
// | 9     | recounts        | recounts begun                                                 |
// | 10    | recounted       | recounts that made the layer exact again                       |
// | 11    | estimate        | the belief's size: exact, or estimated in pool mode            |
// | 12    | events          | events in the view                                             |
// | 13    | cuts            | times a layer was cut                                          |
// | 14    | lastRecount     | view length at the last recount (one recount per event)        |
// | 15    | start           | the start's move number × 2 + its side to move                |
// | 16    | guidesEvent     | the guides fit the events before this one (-1: no guides)      |
// | 17…19 | (reserved)      |                                                                |
// | 20 …  | own board       | OWN_STATE_WORDS words (los.ts)                                 |

import { OWN_STATE_WORDS } from '../los';
import { VIEW_WORDS } from '../view';

export const TRACK_DONE: i32 = 0;
export const TRACK_MORE: i32 = 1;
export const TRACK_INCONSISTENT: i32 = 4;
export const TRACK_BAD_TRACKER: i32 = -1;
export const TRACK_BAD_EVENT: i32 = -2;
/** The engine's arena is too small for the records a tracker borrows (FIRST_HOST_FREE). */
export const TRACK_NO_ROOM: i32 = -3;
/** trackerObserve while an observation is in progress. */
export const TRACK_BUSY: i32 = -4;

export const TRACK_EXACT: i32 = 0;
export const TRACK_POOL: i32 = 1;

/** trackerSize / trackerEntry: which set of positions. */
export const TRACK_SET_LAYER: i32 = 0;
export const TRACK_SET_BASE: i32 = 1;
export const TRACK_SET_CHECKPOINTS: i32 = 2;
export const TRACK_SET_GUIDES: i32 = 3;

export const TRACK_OPTION_WORDS: i32 = 16;
export const TRACK_OPTION_EXACT_MAX: i32 = 0;
export const TRACK_OPTION_POOL_MAX: i32 = 1;
export const TRACK_OPTION_POOL_CUT: i32 = 2;
export const TRACK_OPTION_POOL_MIN: i32 = 3;
export const TRACK_OPTION_CHECKPOINT_SIZE: i32 = 4;
export const TRACK_OPTION_RESTART_UNIT: i32 = 5;
export const TRACK_OPTION_RECOUNT_TURNS: i32 = 6;
export const TRACK_OPTION_RECOUNT_WORK: i32 = 7;
export const TRACK_OPTION_SEED: i32 = 8;
export const TRACK_OPTION_SIDE: i32 = 9;
export const TRACK_OPTION_COVERAGE: i32 = 10;
export const TRACKER_OPTIONS = new Int32Array(TRACK_OPTION_WORDS);

export const TRACK_STATE_WORDS: i32 = 20 + OWN_STATE_WORDS;
export const TRACK_STATE_MODE: i32 = 0;
export const TRACK_STATE_BASE_EVENT: i32 = 1;
export const TRACK_STATE_RANDOM: i32 = 2;
export const TRACK_STATE_PLIES: i32 = 3;
export const TRACK_STATE_DESCENT_INDEX: i32 = 4;
export const TRACK_STATE_WORK: i32 = 5;
export const TRACK_STATE_ADDED: i32 = 6;
export const TRACK_STATE_DESCENTS: i32 = 7;
export const TRACK_STATE_RESTARTS: i32 = 8;
export const TRACK_STATE_RECOUNTS: i32 = 9;
export const TRACK_STATE_RECOUNTED: i32 = 10;
export const TRACK_STATE_ESTIMATE: i32 = 11;
export const TRACK_STATE_EVENTS: i32 = 12;
export const TRACK_STATE_CUTS: i32 = 13;
export const TRACK_STATE_LAST_RECOUNT: i32 = 14;
export const TRACK_STATE_START: i32 = 15;
export const TRACK_STATE_GUIDES_EVENT: i32 = 16;
export const TRACK_STATE_OWN: i32 = 20;
/** The event trackerObserve reads (view.ts layout, VIEW_WORDS words). */
export const TRACKER_EVENT = new Int32Array(VIEW_WORDS);
