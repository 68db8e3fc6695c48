// The core's seeded random numbers: the random self-play player (referee/game.ts) and the belief
// sampler (belief/stream.ts) draw from this one generator, seeded by whichever starts.
import { mul32 } from './bitboard';

let randomState: i32 = 1;

export function seedRandom(seed: i32): void {
  randomState = seed == 0 ? 0x6d2b79f5 : seed;
}

/** The generator's state, to be put back with setRandomState (a belief tracker keeps its own stream). */
export function currentRandomState(): i32 {
  return randomState;
}
export function setRandomState(state: i32): void {
  randomState = state == 0 ? 0x6d2b79f5 : state;
}

/** xorshift32, then a multiply to mix the low bits; a number in [0, bound). */
export function randomBelow(bound: i32): i32 {
  randomState ^= randomState << 13;
  randomState ^= randomState >>> 17;
  randomState ^= randomState << 5;
  const mixed = mul32(randomState, 0x2c1b3c6d) >>> 8; // 24 random bits
  return i32((<f64>mixed * <f64>bound) / 16777216.0);
}
