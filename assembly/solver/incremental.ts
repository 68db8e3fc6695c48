// The incremental directional searches (Russell & Wolfe 2005, section 6): a belief state is
// proven one physical position at a time. A node's positions wait in its pending list; "solve-top"
// takes them one by one, integrates each (makes its successors in every child, so every child
// holds the successors of every position seen so far) and re-solves the node, so the proof built
// for the positions seen so far is extended to the next one, and one failing position disproves
// the node. Attempts are made only once legal in some position seen (build.ts integrate).
//
// - DBU (depth, breadth, uncertainty): an AND node's solve checks every child, so one proof tree
//   is refined position by position.
// - DUB (depth, uncertainty, breadth): an inner recursion checks only the first unverified child
//   of each AND node (one belief-state branch at a time); an outer recursion then verifies the
//   partial proof on the other children, deepest first, falling back to the inner recursion to
//   find a new choice where verification fails.
// Both legal-first (an ATTEMPT's legal parts before its Illegal part); gl-dbu adds greedy pruning
// (a disproved Illegal part disproves the OR node above).
//
// The recursions of the paper's figures run on an explicit frame stack (node, procedure, phase,
// child), so a search stops after any budget and resumes, like the black-box driver.
//
// Marks: a procedure returning true proves its node (for the positions seen so far); false
// disproves it for good (Theorem 2: a superset of a belief state without a mate has none).

import {
  N_FIRST,
  N_NEXT,
  N_VERIFIED,
  KIND_OR,
  KIND_ATTEMPT,
  FLAG_ILLEGAL_FAILED,
  get,
  set,
  kindOf,
  hasFlag,
  addFlag,
  isDisproven,
  prove,
  disprove,
  takePending,
  outOfRoom,
  nodesMade,
  positionsMade,
} from './tree';
import { integrate, STEP_NO_ROOM } from './build';
import { nextToSearch, RUN_DONE, RUN_MORE, RUN_NO_ROOM, RUN_STREAM_FAILED } from './dfs';
import { isStreaming, pull, PULL_MORE, PULL_FAILED } from './interleave';

/** Procedures. */
const TOP: i32 = 0; // the paper's solve-top: integrate pending positions one by one, re-solving after each
const SOLVE: i32 = 1; // solve: OR the first child that holds; AND every child (DBU) or the first unverified (DUB)
const OUTER: i32 = 2; // DUB's outer recursion
const OUTER_TOP: i32 = 3; // DUB's entry: solve-top, then outer

const FRAME_WORDS: i32 = 4; // node, procedure, phase, child
let FRAMES = new Int32Array(0);
let depth: i32 = 0;
let returned: bool = false;
let unbranched: bool = false; // DUB: the inner recursion follows one child of an AND node
let greedy: bool = false;

function push(node: i32, procedure: i32): void {
  if ((depth + 1) * FRAME_WORDS > FRAMES.length) {
    const grown = new Int32Array(max(1024, FRAMES.length * 2));
    grown.set(FRAMES);
    FRAMES = grown;
  }
  const f = depth * FRAME_WORDS;
  unchecked((FRAMES[f] = node));
  unchecked((FRAMES[f + 1] = procedure));
  unchecked((FRAMES[f + 2] = 0));
  unchecked((FRAMES[f + 3] = -1));
  depth++;
}

function finish(value: bool): void {
  depth--;
  returned = value;
}

/** Ends a TOP or OUTER frame, marking its node. */
function conclude(node: i32, value: bool): void {
  if (value) prove(node);
  else disprove(node);
  finish(value);
}

export function incrementalBegin(root: i32, isDub: bool, isGreedy: bool): void {
  unbranched = isDub;
  greedy = isGreedy;
  depth = 0;
  push(root, isDub ? OUTER_TOP : TOP);
}

/** The first child of OR node `node` after `after` (-1: from the start) not yet disproved, or -1. */
function liveChild(node: i32, after: i32): i32 {
  for (let c = after < 0 ? get(node, N_FIRST) : get(after, N_NEXT); c >= 0; c = get(c, N_NEXT))
    if (!isDisproven(c)) return c;
  return -1;
}

/** The `index`-th child of AND node `node` in search order (legal parts first), or -1. */
function childInOrder(node: i32, index: i32): i32 {
  let c = nextToSearch(node, -1, true);
  for (let i = 0; i < index && c >= 0; i++) c = nextToSearch(node, c, true);
  return c;
}

/** After a child `child` of AND node `node` failed: remember an Illegal part's failure (greedy pruning). */
function childFailed(node: i32, child: i32): void {
  if (kindOf(node) == KIND_ATTEMPT && kindOf(child) == KIND_OR) addFlag(node, FLAG_ILLEGAL_FAILED);
}

/** Searches for at most about `budget` more nodes and positions made. */
/** What a step tells the driver: go on with the next frame, or return this RUN_* status. */
const CONTINUE: i32 = -1;

/** TOP (solve-top): integrate the node's pending positions one at a time, re-solving after each. */
function stepTop(f: i32, node: i32, phase: i32): i32 {
  if (phase == 1 && !returned) {
    conclude(node, false);
    return CONTINUE;
  }
  if (isDisproven(node)) {
    finish(false);
    return CONTINUE;
  }
  if (kindOf(node) == KIND_ATTEMPT) {
    // holds no positions of its own: its parts do
    if (phase == 0) {
      unchecked((FRAMES[f + 2] = 2));
      push(node, SOLVE);
    } else conclude(node, returned);
    return CONTINUE;
  }
  const h = takePending(node);
  if (h < 0 && isStreaming(node)) {
    // interleaved: the next position from the estimator
    const pulled = pull();
    if (pulled == PULL_MORE) return RUN_MORE;
    if (pulled == PULL_FAILED) return RUN_STREAM_FAILED;
    return CONTINUE; // added (or done, or out of room: the driver's checks see to it)
  }
  if (h < 0) {
    conclude(node, true);
    return CONTINUE;
  }
  if (integrate(node, h) == STEP_NO_ROOM) return CONTINUE;
  if (isDisproven(node)) {
    finish(false);
    return CONTINUE;
  }
  unchecked((FRAMES[f + 2] = 1));
  push(node, SOLVE);
  return CONTINUE;
}

/** SOLVE at an OR node: the first child that holds (greedy: a failed Illegal part disproves the node). */
function solveOr(f: i32, node: i32, phase: i32): void {
  let child = -1;
  if (phase == 0) child = liveChild(node, -1);
  else {
    if (returned) {
      finish(true);
      return;
    }
    const failed = unchecked(FRAMES[f + 3]);
    if (greedy && hasFlag(failed, FLAG_ILLEGAL_FAILED)) {
      finish(false);
      return;
    }
    child = liveChild(node, failed);
  }
  if (child < 0) {
    finish(false);
    return;
  }
  unchecked((FRAMES[f + 2] = 1));
  unchecked((FRAMES[f + 3] = child));
  push(child, TOP);
}

/** SOLVE at an AND node: every child (DBU), or the first unverified one (DUB's inner recursion). */
function solveAnd(f: i32, node: i32, phase: i32): void {
  let child = -1;
  if (phase == 0) child = unbranched ? childInOrder(node, get(node, N_VERIFIED)) : nextToSearch(node, -1, true);
  else {
    const last = unchecked(FRAMES[f + 3]);
    if (!returned) {
      childFailed(node, last);
      finish(false);
      return;
    }
    child = unbranched ? -1 : nextToSearch(node, last, true);
  }
  if (child < 0) {
    finish(true);
    return;
  }
  unchecked((FRAMES[f + 2] = 1));
  unchecked((FRAMES[f + 3] = child));
  push(child, TOP);
}

/** DUB's entry: solve-top, then the outer recursion. */
function stepOuterTop(f: i32, node: i32, phase: i32): void {
  if (phase == 0) {
    unchecked((FRAMES[f + 2] = 1));
    push(node, TOP);
    return;
  }
  if (phase == 1 && returned) {
    unchecked((FRAMES[f + 2] = 2));
    push(node, OUTER);
    return;
  }
  finish(returned);
}

/** DUB's outer recursion at an OR node: verify the proof below the chosen child, else solve again without it. */
function outerOr(f: i32, node: i32, phase: i32): void {
  if (phase == 1) {
    if (returned) {
      conclude(node, true);
      return;
    }
    const failed = unchecked(FRAMES[f + 3]);
    disprove(failed);
    if (greedy && hasFlag(failed, FLAG_ILLEGAL_FAILED)) {
      conclude(node, false);
      return;
    }
    unchecked((FRAMES[f + 2] = 2));
    push(node, SOLVE);
    return;
  }
  if (phase == 2 && !returned) {
    conclude(node, false);
    return;
  }
  const child = liveChild(node, -1);
  if (child < 0) {
    conclude(node, false);
    return;
  }
  unchecked((FRAMES[f + 2] = 1));
  unchecked((FRAMES[f + 3] = child));
  push(child, OUTER);
}

/** DUB's outer recursion at an AND node: verify the children one by one, re-solving after each. */
function outerAnd(f: i32, node: i32, phase: i32): void {
  if (phase == 1) {
    const last = unchecked(FRAMES[f + 3]);
    if (!returned) {
      childFailed(node, last);
      conclude(node, false);
      return;
    }
    set(node, N_VERIFIED, get(node, N_VERIFIED) + 1);
    if (childInOrder(node, get(node, N_VERIFIED)) < 0) {
      conclude(node, true);
      return;
    }
    unchecked((FRAMES[f + 2] = 2));
    push(node, SOLVE);
    return;
  }
  if (phase == 2 && !returned) {
    conclude(node, false);
    return;
  }
  const child = childInOrder(node, get(node, N_VERIFIED));
  if (child < 0) {
    conclude(node, true);
    return;
  }
  unchecked((FRAMES[f + 2] = 1));
  unchecked((FRAMES[f + 3] = child));
  push(child, OUTER);
}

export function incrementalRun(budget: f64): i32 {
  const stopAt = nodesMade + positionsMade + budget;
  while (depth > 0) {
    if (outOfRoom) return RUN_NO_ROOM;
    if (nodesMade + positionsMade >= stopAt) return RUN_MORE;
    const f = (depth - 1) * FRAME_WORDS;
    const node = unchecked(FRAMES[f]);
    const procedure = unchecked(FRAMES[f + 1]);
    const phase = unchecked(FRAMES[f + 2]);
    const isOr = kindOf(node) == KIND_OR;
    if (procedure == TOP) {
      const status = stepTop(f, node, phase);
      if (status != CONTINUE) return status;
    } else if (procedure == SOLVE) {
      if (isOr) solveOr(f, node, phase);
      else solveAnd(f, node, phase);
    } else if (procedure == OUTER_TOP) {
      stepOuterTop(f, node, phase);
    } else if (isOr) {
      outerOr(f, node, phase);
    } else {
      outerAnd(f, node, phase);
    }
  }
  return RUN_DONE;
}
