// The host's description of the core ABI (host/abi.ts) must match what the WASM really exports,
// and the JS backend must offer the same functions: the two backends are interchangeable.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CORE_EXPORTS } from '../host/abi';
import { wasmPath } from '../host/backends/node';
import { createJsCore } from '../host/backends/js';
import { createEngine } from '../host/node';

describe('core ABI', () => {
  const wasmModule = new WebAssembly.Module(readFileSync(wasmPath()));
  const exported = WebAssembly.Module.exports(wasmModule).map((e) => e.name);
  // the loader's runtime helpers (--exportRuntime) and memory are not part of the krieg ABI
  const ownExports = exported.filter((name) => !name.startsWith('__') && name !== 'memory');

  it('lists exactly the functions the WASM exports', () => {
    expect(new Set(ownExports)).toEqual(new Set(CORE_EXPORTS));
  });

  it('the JS backend exports the same functions', () => {
    const js = createJsCore().exports as unknown as Record<string, unknown>;
    for (const name of CORE_EXPORTS) expect(typeof js[name], name).toBe('function');
  });

  it('perftFrom answers -1 rather than running past the arena', () => {
    for (const backend of ['wasm', 'js'] as const) {
      const engine = createEngine(backend, 4);
      engine.setFen(0, 'startpos');
      expect(engine.core.exports.perftFrom(0, 5, 1)).toBe(-1);
      expect(() => engine.perft(0, 5)).toThrow(/outside the arena/);
      expect(engine.perft(0, 2, true)).toBe(400);
    }
  });

  it.each(['wasm', 'js'] as const)('engines on the %s backend are independent cores', (backend) => {
    const older = createEngine(backend, 64);
    older.setFen(5, '8/8/8/4k3/8/8/8/4K3 w - - 0 1');
    const newer = createEngine(backend, 16);
    newer.setFen(5, 'startpos');
    expect(newer.perft(5, 2, true)).toBe(400);
    expect(older.fen(5)).toBe('8/8/8/4k3/8/8/8/4K3 w - - 0 1');
    expect(older.capacity).toBe(64);
    expect(older.perft(5, 2, true)).toBe(40); // 5 king moves × 8
  });
});
