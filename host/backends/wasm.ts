// The WASM backend: instantiates build/krieg.wasm (its bytes or its compiled module supplied by the
// caller, so Node and the browser share this file) through @assemblyscript/loader, whose views read
// the core's typed arrays.
import { instantiateSync, type ASUtil } from '@assemblyscript/loader';
import type { Core, CoreExports } from '../abi';

export function createWasmCore(wasm: BufferSource | WebAssembly.Module): Core {
  const { exports } = instantiateSync<Record<string, unknown>>(wasm, {});
  const util = exports as unknown as ASUtil & CoreExports;
  return {
    name: 'wasm',
    exports: util,
    view: (ref) => util.__getInt32ArrayView(ref as number),
  };
}
