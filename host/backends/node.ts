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

export function createCore(backend: BackendName): Core {
  if (backend === 'wasm') return createWasmCore(readFileSync(wasmPath()));
  if (backend === 'js') return createJsCore();
  throw fail('bad-backend', { backend: backend as string });
}
