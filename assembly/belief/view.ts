// A player's view as the estimator reads it: the host encodes host/record/record.ts views into
// VIEW (host/belief/encode.ts). One event per VIEW_WORDS words:
// | word 0 bits | word 1                  | word 2                  | word 3                  |
// |-------------|-------------------------|-------------------------|-------------------------|
// | OWN_ATTEMPT | attempt code            | percept (referee.ts)    | 0                       |
// | OPPONENT    | Illegal count, -1 unheard| percept, -1 in progress | 0                       |
// | PAWN_TRIES  | count, or 1/0 exists    | squares lo              | squares hi              |
// | ANY         | 1 yes, 0 no             | 0                       | 0                       |
// word 0 = type | side << 4 | pawn-try kind (TRIES_*) << 8.
import { newArena } from '../chess/arena';

export const VIEW_WORDS: i32 = 4;
/** Word 0 = type | side << V_SIDE_SHIFT | pawn-try kind << V_TRIES_SHIFT (type: the low V_TYPE_FIELD bits). */
export const V_TYPE_FIELD: i32 = 15;
export const V_SIDE_SHIFT: i32 = 4;
export const V_TRIES_SHIFT: i32 = 8;
export const V_TRIES_FIELD: i32 = 3;
export const V_OWN_ATTEMPT: i32 = 1;
export const V_OPPONENT: i32 = 2;
export const V_PAWN_TRIES: i32 = 3;
export const V_ANY: i32 = 4;

export const TRIES_COUNT: i32 = 0;
export const TRIES_EXISTS: i32 = 1;
export const TRIES_SQUARES: i32 = 2;

export let VIEW: Int32Array = new Int32Array(0);
let length: i32 = 0;

export function initView(maxEvents: i32): void {
  if (VIEW.length < maxEvents * VIEW_WORDS) VIEW = newArena(maxEvents * VIEW_WORDS);
}

/** Sets how many events of VIEW the view has; 0, or -1 when they do not fit. */
export function setViewLength(events: i32): i32 {
  if (events < 0 || events * VIEW_WORDS > VIEW.length) return -1;
  length = events;
  return 0;
}
export function viewLength(): i32 {
  return length;
}

/**
 * Makes `buffer` (`events` events, this layout) the view every consistency function reads. A
 * belief tracker keeps its own view and lends it for the length of one of its calls, then puts
 * back the one it found (VIEW and viewLength()).
 */
export function useView(buffer: Int32Array, events: i32): void {
  VIEW = buffer;
  length = events;
}

export function eventType(e: i32): i32 {
  return unchecked(VIEW[e * VIEW_WORDS]) & V_TYPE_FIELD;
}
export function eventWord(e: i32, word: i32): i32 {
  return unchecked(VIEW[e * VIEW_WORDS + word]);
}

/** An opponent's move with its announcements: the estimator branches over his legal moves here. */
export function isBranching(e: i32): bool {
  return eventType(e) == V_OPPONENT && eventWord(e, 2) >= 0;
}
