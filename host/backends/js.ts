// The JS backend: the same assembly/ sources run as plain JavaScript. build/krieg.js (made by
// scripts/build.mjs) wraps them in a factory, so every call is a separate core, as every WASM
// instance is.
import { createPortableCore } from '../../build/krieg.js';
import type { Core } from '../abi';

export function createJsCore(): Core {
  return { name: 'js', exports: createPortableCore(), view: (ref) => ref as Int32Array };
}
