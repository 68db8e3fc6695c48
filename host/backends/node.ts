// Backend selection for Node: finds build/krieg.wasm next to the package, whether running from
// source (vitest) or from the bundled dist/cli.js.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Core } from '../abi';
import { createWasmCore } from './wasm';
import { createJsCore } from './js';
import { fail } from '../errors';

export type BackendName = 'wasm' | 'js';
export const BACKENDS: readonly BackendName[] = ['wasm', 'js'];

export function wasmPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'build', 'krieg.wasm');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw fail('wasm-missing');
    dir = parent;
  }
}

let compiled: WebAssembly.Module | undefined;

/**
 * build/krieg.wasm compiled once per process. The worker pool hands it to its threads
 * (host/pool/pool.ts): V8 shares a module's machine code between the threads that hold it, so a
 * worker neither compiles the core again nor runs it in baseline code while its own copy tiers up.
 */
export function wasmModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(readFileSync(wasmPath())));
}

/** A worker thread takes its parent's compiled module (see wasmModule). */
export function useWasmModule(module: WebAssembly.Module): void {
  compiled = module;
}

export function createCore(backend: BackendName): Core {
  if (backend === 'wasm') return createWasmCore(wasmModule());
  if (backend === 'js') return createJsCore();
  throw fail('bad-backend', { backend: backend as string });
}
