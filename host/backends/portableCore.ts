// The portable (plain JS) build of the core: AssemblyScript's portable prelude first (it defines
// i32(), ctz(), unchecked() … as globals), then the very same assembly/ sources the WASM is made of.
import 'assemblyscript/std/portable/index.js';
export * from '../../assembly/index';
