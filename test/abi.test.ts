// The host's description of the core ABI (host/abi.ts) must match what the WASM really exports,
// and the JS backend must offer the same functions: the two backends are interchangeable. The
// core's arenas read zero when made, though the WASM core writes no zeros into new memory
// (assembly/chess/arena.ts).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CORE_EXPORTS, type Core } from '../host/abi';
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

describe("the core's arenas", () => {
  it('the WASM runtime never lowers its offset (newArena leaves the memory above it as it is: zero)', () => {
    // the stub runtime hands out memory above its offset; only these functions lower it, after which
    // memory written before could come back in a new array, which newArena does not zero
    const wat = readFileSync(wasmPath().replace(/\.wasm$/, '.wat'), 'utf8');
    expect(wat).toMatch(/\(func \$~lib\/rt\/stub\/__new\b/);
    for (const lowers of ['__free', '__realloc', '__renew', '__reset'])
      expect(wat.includes(`(func $~lib/rt/stub/${lowers} `), `${lowers} in build/krieg.wat`).toBe(false);
  });

  /** Every word of the arenas the host sees: the positions, the move lists, the event log, the view. */
  const arenas = (core: Core) => {
    const x = core.exports;
    return [x.positionArena(), x.moveBuffer(), x.eventBuffer(), x.viewBuffer()].map((ref) => core.view(ref));
  };
  const written = (view: Int32Array) => view.findIndex((word) => word !== 0);

  it.each(['wasm', 'js'] as const)(
    '%s: arenas read zero when made, and when made again after a use wrote them',
    (backend) => {
      const engine = createEngine(backend, 64);
      for (const view of arenas(engine.core)) expect(written(view)).toBe(-1);
      for (let handle = 0; handle < 64; handle++) engine.setFen(handle, 'startpos');
      expect(engine.perft(0, 3, true)).toBe(8902); // move lists written
      const useAll = () => arenas(engine.core).forEach((view) => view.fill(-1)); // every word of every arena
      useAll();
      engine.resize(16); // the position arena kept, cleared
      expect(written(arenas(engine.core)[0])).toBe(-1);
      useAll();
      engine.core.exports.init(16, 1 << 17); // new event and view arenas, above all that was written
      const [positions, , events, view] = arenas(engine.core); // the move lists are the same
      for (const arena of [positions, events, view]) expect(written(arena)).toBe(-1);
      useAll();
      engine.resize(4096); // a new position arena
      expect(written(arenas(engine.core)[0])).toBe(-1);
      engine.setFen(4090, 'startpos');
      expect(engine.perft(4090, 3, true)).toBe(8902);
    },
  );
});
