// Zeroed arenas without writing the zeros. AssemblyScript's `new Int32Array(n)` fills its n words
// with zeros, touching every page: for the solver's arenas, sized for the whole memory budget
// (256 MiB by default), that was most of the cost of a small solve (issue #33). Memory that
// `memory.grow` has just added is zero already (the WASM spec; the OS maps its pages on first
// touch), so only the part of a new array below the memory's old end is filled. The portable JS
// build's `new Int32Array(n)` is lazily zeroed by the JS engine and the OS: it stays as it is.

/** Bytes the runtime adds to an array's data (block and object headers, alignment), at most. */
const HEADER_BYTES: usize = 64;
/** Arrays shorter than this (64 KiB) are made as usual: their zeros cost little, a page each would not. */
const SMALL: i32 = 1 << 14;

/** A new Int32Array of `length` words, all zero, as `new Int32Array(length)` gives it. */
export function newArena(length: i32): Int32Array {
  if (ASC_TARGET == 0 || length < SMALL) return new Int32Array(length);
  const bytes = (<usize>length) << 2;
  // @ts-ignore: AssemblyScript's memory builtins (WASM only)
  const fresh = (<usize>memory.size()) << 16;
  // the memory it takes, grown here for the runtime (which would double the memory, and the
  // next arena would then land below the end, in pages it has to fill); if it cannot grow, the
  // runtime tries again and traps as it always did
  // @ts-ignore: AssemblyScript's memory builtins (WASM only)
  memory.grow(<i32>((bytes + HEADER_BYTES + 0xffff) >>> 16));
  // @ts-ignore: the runtime's allocation, not zeroed (WASM only)
  const data: usize = __new(bytes, idof<ArrayBuffer>());
  // @ts-ignore: AssemblyScript's memory builtins (WASM only)
  if (data < fresh) memory.fill(data, 0, min(bytes, fresh - data));
  // @ts-ignore: AssemblyScript's typed-array view of a buffer (WASM only)
  return Int32Array.wrap(changetype<ArrayBuffer>(data));
}
