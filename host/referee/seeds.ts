// The seeds of a run's games: game i of a run seeded S is played from gameSeed(S, i), and each side's
// player of it from gameSeed of that (1 White, 2 Black), so any game replays alone.

/** The seed of game `game` of a run (a database, a match, a play run) seeded `seed`: a 32-bit mix. */
export function gameSeed(seed: number, game: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(game, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 1;
}
