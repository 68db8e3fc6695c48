// JS cores side by side: the portable build of the core (backends/js.ts) is one ES module per
// process, so two JS engines share its memory (and the older one refuses to run). Players need an
// engine each — their own arena, tables and pools, none of them the referee's — so this backend
// evaluates build/krieg-core.js (the same portable build, as a script) once per engine: every
// instance has its own module state, as every WASM instance has its own memory.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Core, CoreExports } from '../abi';
import { wasmPath } from './node';
import { KriegError } from '../status';

let source: string | undefined;

/** A JS core of its own (not shared with other engines of the process). */
export function createJsInstanceCore(): Core {
  if (source === undefined) {
    const path = join(dirname(wasmPath()), 'krieg-core.js');
    try { source = readFileSync(path, 'utf8'); } catch {
      throw new KriegError('js-core-missing', `${path} not found: run \`npm install\` (or \`npm run build\`)`);
    }
  }
  const exports = new Function(`${source}\nreturn kriegCore;`)() as CoreExports;
  return {
    name: 'js',
    exports,
    view: (ref) => ref as Int32Array,
    claim: () => 1, // an instance per Engine
    owns: () => true,
  };
}
