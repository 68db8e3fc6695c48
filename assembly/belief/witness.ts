// Witnesses: for every position a belief tracker holds, the opponent's moves of one history that
// leads to it (the player's own moves are in his view), so that any position can be replayed and
// checked independently. The histories of a tracker share their beginnings, so they are kept as
// one tree: a node is one opponent move appended to its parent's history; node 0 is the empty
// history. A position refers to the node of its last move.
//
// Node record (two parallel Int32Arrays, index = node):
// | array  | meaning                                                                      |
// |--------|------------------------------------------------------------------------------|
// | PARENT | the node this one extends (node 0: -1); always smaller than the node itself  |
// | MOVE   | the opponent's move (move code, assembly/chess/position.ts)                  |
//
// Nodes are only appended. Histories of positions the tracker has dropped become garbage; a
// collection marks the nodes on the paths of the positions still held and compacts them in order
// (parents stay before children), and the holders renumber their references through `moved`.

export class WitnessTree {
  parent: Int32Array = new Int32Array(1024);
  move: Int32Array = new Int32Array(1024);
  /** Nodes in use: 0 … count - 1. */
  count: i32 = 1;
  /** Collection: the new index of each marked node (-1: garbage). */
  private renumber: Int32Array = new Int32Array(0);

  reset(): void {
    this.count = 1;
    unchecked((this.parent[0] = -1));
    unchecked((this.move[0] = 0));
  }

  /** A node for `move` after the history of node `parent`. */
  add(parent: i32, move: i32): i32 {
    if (this.count == this.parent.length) this.grow(this.count * 2);
    const node = this.count++;
    unchecked((this.parent[node] = parent));
    unchecked((this.move[node] = move));
    return node;
  }

  private grow(size: i32): void {
    const parent = new Int32Array(size);
    const move = new Int32Array(size);
    parent.set(this.parent.subarray(0, this.count));
    move.set(this.move.subarray(0, this.count));
    this.parent = parent;
    this.move = move;
  }

  /** The number of moves of node `node`'s history. */
  length(node: i32): i32 {
    let n = 0;
    while (node > 0) {
      n++;
      node = unchecked(this.parent[node]);
    }
    return n;
  }

  /** Writes the moves of node `node`'s history into `out` (first move first); returns how many. */
  write(node: i32, out: Int32Array): i32 {
    const n = this.length(node);
    for (let i = n - 1; i >= 0; i--) {
      unchecked((out[i] = unchecked(this.move[node])));
      node = unchecked(this.parent[node]);
    }
    return n;
  }

  // ---- collection: beginMark, mark every node held, sweep, then moved(node) for each reference ----

  beginMark(): void {
    if (this.renumber.length < this.count) this.renumber = new Int32Array(this.parent.length);
    this.renumber.fill(-1, 0, this.count);
    unchecked((this.renumber[0] = 0));
  }

  /** Marks node `node` and its ancestors. */
  mark(node: i32): void {
    while (node > 0 && unchecked(this.renumber[node]) < 0) {
      unchecked((this.renumber[node] = 0));
      node = unchecked(this.parent[node]);
    }
  }

  /** Compacts the marked nodes in order; returns how many remain. */
  sweep(): i32 {
    let kept = 1;
    for (let node = 1; node < this.count; node++) {
      if (unchecked(this.renumber[node]) < 0) continue;
      unchecked((this.renumber[node] = kept));
      unchecked((this.parent[kept] = unchecked(this.renumber[unchecked(this.parent[node])])));
      unchecked((this.move[kept] = unchecked(this.move[node])));
      kept++;
    }
    this.count = kept;
    return kept;
  }

  /** The index after the sweep of a node marked before it. */
  moved(node: i32): i32 {
    return unchecked(this.renumber[node]);
  }
}
