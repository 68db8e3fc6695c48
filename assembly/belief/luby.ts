// The Luby restart sequence (Luby, Sinclair & Zuckerman 1993): 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 …
// A randomized search whose running time has a heavy tail (a depth-first descent into a history
// tree that happens to be wide and dead) is restarted after unit × luby(i) work on its i-th try;
// for an unknown distribution of running times this schedule is within a logarithmic factor of
// the best fixed cutoff. The samplers (estimate.ts, tracker) use it.

/** The i-th term (i ≥ 0) of the Luby sequence. */
export function luby(i: i32): i32 {
  let size = 1;
  let seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  let x = i;
  while (size - 1 != x) {
    size = (size - 1) >> 1;
    seq--;
    x = x % size;
  }
  return 1 << seq;
}
