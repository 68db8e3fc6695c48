// The search algorithms (SPEC §6; Russell & Wolfe 2005 §4-6) and what each is made of. solve.ts
// chooses the driver and its switches from these properties, never from the order of the codes, so
// an algorithm appended here runs as its row says. Constants and a pure lookup only: the host's
// copy of the codes (host/constants.ts) is generated from this file.
//
// | code | name   | family        | legal-first | greedy | early termination | incremental | unbranched |
// |------|--------|---------------|-------------|--------|-------------------|-------------|------------|
// | 0    | dfs    | depth-first   |             |        |                   |             |            |
// | 1    | l-dfs  | depth-first   | yes         |        |                   |             |            |
// | 2    | gl-dfs | depth-first   | yes         | yes    |                   |             |            |
// | 3    | gx-dfs | depth-first   |             | yes    |                   |             |            |
// | 4    | le-dfs | depth-first   | yes         |        | yes               |             |            |
// | 5    | pns    | proof-number  |             |        |                   |             |            |
// | 6    | e-pns  | proof-number  |             |        | yes               |             |            |
// | 7    | l-dub  | directional   | yes         |        |                   | yes         | yes        |
// | 8    | l-dbu  | directional   | yes         |        |                   | yes         |            |
// | 9    | gl-dbu | directional   | yes         | yes    |                   | yes         |            |
// | 10   | ipns   | incremental pn|             |        |                   | yes         |            |
//
// family: the driver (dfs.ts, pns.ts, incremental.ts, ipns.ts). legal-first: at an ATTEMPT node the
// legal parts before the Illegal part. greedy: a disproved Illegal part disproves the OR node above
// it (Theorem 2). early termination: a build stops at the first failing position. incremental:
// positions wait in pending lists and are integrated one at a time (§6). unbranched: depth-
// uncertainty-breadth, whose inner recursion follows one child of an AND node (l-dub; the others of
// the directional family are depth-breadth-uncertainty). Only the directional family can take its
// root's positions streamed from the estimator (solveStartInterleaved).

export const ALGO_DFS: i32 = 0;
export const ALGO_L_DFS: i32 = 1;
export const ALGO_GL_DFS: i32 = 2;
export const ALGO_GX_DFS: i32 = 3;
export const ALGO_LE_DFS: i32 = 4;
export const ALGO_PNS: i32 = 5;
export const ALGO_E_PNS: i32 = 6;
export const ALGO_L_DUB: i32 = 7;
export const ALGO_L_DBU: i32 = 8;
export const ALGO_GL_DBU: i32 = 9;
export const ALGO_IPNS: i32 = 10;
export const ALGO_COUNT: i32 = 11;

// properties: the family in bits 0..1, then one bit per property
export const FAMILY_DEPTH_FIRST: i32 = 0;
export const FAMILY_PROOF_NUMBER: i32 = 1;
export const FAMILY_DIRECTIONAL: i32 = 2;
export const FAMILY_IPNS: i32 = 3;
export const FAMILY_MASK: i32 = 3;
export const ALGO_LEGAL_FIRST: i32 = 1 << 2;
export const ALGO_GREEDY: i32 = 1 << 3;
export const ALGO_EARLY: i32 = 1 << 4;
export const ALGO_INCREMENTAL: i32 = 1 << 5;
export const ALGO_UNBRANCHED: i32 = 1 << 6;

/** The row of the table above: family | property bits, or -1 for an unknown code. */
export function algorithmProperties(algo: i32): i32 {
  if (algo == ALGO_DFS) return FAMILY_DEPTH_FIRST;
  if (algo == ALGO_L_DFS) return FAMILY_DEPTH_FIRST | ALGO_LEGAL_FIRST;
  if (algo == ALGO_GL_DFS) return FAMILY_DEPTH_FIRST | ALGO_LEGAL_FIRST | ALGO_GREEDY;
  if (algo == ALGO_GX_DFS) return FAMILY_DEPTH_FIRST | ALGO_GREEDY;
  if (algo == ALGO_LE_DFS) return FAMILY_DEPTH_FIRST | ALGO_LEGAL_FIRST | ALGO_EARLY;
  if (algo == ALGO_PNS) return FAMILY_PROOF_NUMBER;
  if (algo == ALGO_E_PNS) return FAMILY_PROOF_NUMBER | ALGO_EARLY;
  if (algo == ALGO_L_DUB) return FAMILY_DIRECTIONAL | ALGO_LEGAL_FIRST | ALGO_INCREMENTAL | ALGO_UNBRANCHED;
  if (algo == ALGO_L_DBU) return FAMILY_DIRECTIONAL | ALGO_LEGAL_FIRST | ALGO_INCREMENTAL;
  if (algo == ALGO_GL_DBU) return FAMILY_DIRECTIONAL | ALGO_LEGAL_FIRST | ALGO_GREEDY | ALGO_INCREMENTAL;
  if (algo == ALGO_IPNS) return FAMILY_IPNS | ALGO_INCREMENTAL;
  return -1;
}
