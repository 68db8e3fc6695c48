// The tablebases' build graph (egtb.ts): per expanded state i < graphStates,
// EDGES[EDGE_START[i] … EDGE_START[i + 1]) its attempts that never lose a man nor stalemate, each
// its outcomes, one word each: a successor's entry index << 2 (−1 << 2: mate), | EDGE_FREE for an
// Illegal answer's state (no move spent), | EDGE_LAST on the attempt's last outcome (an outcome
// appears once in its attempt). The graph takes the states in breadth-first order while it has
// room (17 words a state for K+R); the states after them have none and each sweep recomputes their
// attempts (egtb.ts), so a table of any size builds in the graph's memory, trading time for it.
// VALUES holds the values during the sweeps, 2 bytes a state, so that a sweep's lookups stay in
// cache.

export const EDGE_FREE: i32 = 1;
export const EDGE_LAST: i32 = 2;
export const EDGE_MATE: i32 = -4;

export let EDGES = new Int32Array(0);
// the words past EDGE_HALF (the runtime allocates no array of 1 GB: a graph of 2^28 words is two)
export let EDGES_HIGH = new Int32Array(0);
const EDGE_HALF: i32 = 1 << 27;
export let EDGE_START = new Int32Array(0);
let VALUES = new Uint16Array(0);
// CHECKED[i] = n: state i was found not mate in n at level n (its Illegal answers' states decided first)
let CHECKED = new Uint16Array(0);
let edgeCapacity: i32 = 0;
/** Words of the graph so far. */
export let edgeCount: i32 = 0;
let attemptStart: i32 = 0; // the first word of the attempt being written
/** The states with a graph: the first ones. */
export let graphStates: i32 = 0;
let edgesFull: bool = false;

/** An empty graph of 2^edgeLog2 words (0: none) for a table of `capacity` states, the arrays reused when large enough. */
export function graphInit(capacity: i32, edgeLog2: i32): void {
  edgeCapacity = edgeLog2 == 0 ? 0 : 1 << edgeLog2;
  if (EDGES.length < min(edgeCapacity, EDGE_HALF)) EDGES = new Int32Array(min(edgeCapacity, EDGE_HALF));
  if (EDGES_HIGH.length < edgeCapacity - EDGE_HALF) EDGES_HIGH = new Int32Array(edgeCapacity - EDGE_HALF);
  if (edgeLog2 != 0 && EDGE_START.length < capacity + 1) EDGE_START = new Int32Array(capacity + 1);
  if (edgeLog2 != 0 && VALUES.length < capacity) VALUES = new Uint16Array(capacity);
  if (edgeLog2 != 0 && CHECKED.length < capacity) CHECKED = new Uint16Array(capacity);
  edgeCount = 0;
  graphStates = edgeCapacity == 0 ? 0 : capacity;
  edgesFull = false;
}

/**
 * Takes up a checkpoint's graph (EDGE_START and the edge words written back by the host) of a table
 * of `count` states: its first `states` states (fewer than `count`: the graph ran out of room there)
 * in `edges` words; false when they exceed the room of graphInit.
 */
export function graphResume(count: i32, states: i32, edges: i32): bool {
  if (states < 0 || states > graphStates || edges < 0 || edges > edgeCapacity) return false;
  if (states < count) graphStates = states;
  edgeCount = edges;
  edgesFull = false;
  return true;
}

function edgeAt(p: i32): i32 {
  return p < EDGE_HALF ? unchecked(EDGES[p]) : unchecked(EDGES_HIGH[p - EDGE_HALF]);
}

function setEdge(p: i32, word: i32): void {
  if (p < EDGE_HALF) unchecked((EDGES[p] = word));
  else unchecked((EDGES_HIGH[p - EDGE_HALF] = word));
}

/** State i's attempts begin (the enumeration expands the states in order). */
export function beginState(i: i32): void {
  if (i < graphStates) unchecked((EDGE_START[i] = edgeCount));
}

/** State i's attempts are written: when the graph ran out of room, this state and the rest go without. */
export function endState(i: i32): void {
  if (i >= graphStates) return;
  if (edgesFull) {
    edgeCount = unchecked(EDGE_START[i]);
    graphStates = i;
  } else unchecked((EDGE_START[i + 1] = edgeCount));
}

export function beginAttempt(): void {
  attemptStart = edgeCount;
}

/** Appends an outcome word (EDGE_MATE or a successor's entry index << 2, | EDGE_FREE for no move spent) to state i's attempt, once. */
export function edge(i: i32, word: i32): void {
  if (i >= graphStates) return; // a state without a graph
  for (let p = attemptStart; p < edgeCount; p++) if (edgeAt(p) == word) return;
  if (edgeCount >= edgeCapacity) edgesFull = true;
  else setEdge(edgeCount++, word);
}

/** Ends state i's attempt whose outcomes edge wrote. */
export function endAttempt(i: i32): void {
  if (i >= graphStates || edgeCount == attemptStart) return;
  setEdge(edgeCount - 1, edgeAt(edgeCount - 1) | EDGE_LAST);
  attemptStart = edgeCount;
}

/** Clears the values of the first `count` states for the sweeps. */
export function clearValues(count: i32): void {
  if (edgeCapacity == 0) return;
  VALUES.fill(0, 0, count);
  CHECKED.fill(0, 0, count);
}

export function setValue(i: i32, n: i32): void {
  if (edgeCapacity != 0) unchecked((VALUES[i] = <u16>n));
}

/** State i (< graphStates) is not mate in n. */
export function setChecked(i: i32, n: i32): void {
  unchecked((CHECKED[i] = <u16>n));
}

/**
 * Whether some attempt of state i (< graphStates) leads under every answer to mate, to a state
 * valued ≤ n − 1 after the reply, or to an Illegal answer's state valued ≤ n: 1 when one does, 0
 * when none does, −2 − j when one would but for the Illegal answer's state j (with a graph), not
 * yet decided at level n: decide j first (its set is smaller, so that recursion ends).
 */
export function proves(i: i32, n: i32): i32 {
  let p = unchecked(EDGE_START[i]);
  const stop = unchecked(EDGE_START[i + 1]);
  while (p < stop) {
    let ok = true;
    let open = -1;
    let word = 0;
    do {
      word = edgeAt(p++);
      const e = word >> 2;
      if (ok && e >= 0) {
        const v = i32(unchecked(VALUES[e]));
        if (v != 0) {
          if (v + 1 - (word & EDGE_FREE) > n) ok = false;
        } else if ((word & EDGE_FREE) != 0 && e < graphStates && i32(unchecked(CHECKED[e])) != n) open = e;
        else ok = false;
      }
    } while ((word & EDGE_LAST) == 0);
    if (ok) return open < 0 ? 1 : -2 - open;
  }
  return 0;
}
