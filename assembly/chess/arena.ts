// Zeroed arenas without writing the zeros. AssemblyScript's `new Int32Array(n)` fills its n words
// with zeros, touching every page: for the solver's arenas, sized for the whole memory budget
// (256 MiB by default), that was most of the cost of a small solve (issue #33), and for the static
// tables and the game's event log (5.5 MB) most of a core's start in the web app's worker (issue
// #37: the first touch of a page costs the OS about 8 µs here, 1,400 of them 40–100 ms). The zeros
// are there already: the runtime (`"runtime": "stub"` of asconfig.json) is a bump allocator whose
// offset only rises — the core never frees, so the module has no `__free`, `__realloc` or `__reset`,
// the only functions that lower it (test/abi.test.ts checks the build) — and memory above it was
// never handed out, so it is as the WASM spec makes fresh and grown memory: zero (the static data
// lies below the heap's base). A new array is the next block above that offset, and only what a
// caller wrote into an array before needs zeroing again (an arena reused, as `initPositions`
// does). The portable JS build's `new Int32Array(n)` is lazily zeroed by the JS engine and the
// OS: it stays as it is.

/** Bytes the runtime adds to an array's data (block and object headers, alignment), at most. */
const HEADER_BYTES: usize = 64;
/** Arrays from this length (64 KiB) grow the memory by what they take, not by the runtime's doubling. */
const BIG: i32 = 1 << 14;

/** A new Int32Array of `length` words, all zero, as `new Int32Array(length)` gives it. */
export function newArena(length: i32): Int32Array {
  if (ASC_TARGET == 0) return new Int32Array(length);
  const bytes = (<usize>length) << 2;
  // the memory a big arena takes, grown here for the runtime: it would double the memory, which for
  // the solver's arenas (the memory budget) may not fit; if it cannot grow, the runtime tries again
  // and traps as it always did
  // @ts-ignore: AssemblyScript's memory builtins (WASM only)
  if (length >= BIG) memory.grow(<i32>((bytes + HEADER_BYTES + 0xffff) >>> 16));
  // @ts-ignore: the runtime's allocation, above all it handed out before: zero (WASM only)
  const data: usize = __new(bytes, idof<ArrayBuffer>());
  // @ts-ignore: AssemblyScript's typed-array view of a buffer (WASM only)
  return Int32Array.wrap(changetype<ArrayBuffer>(data));
}
