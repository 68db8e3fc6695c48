// Browser entry (bundled to dist/web/krieg.js by scripts/build.mjs): the same Engine as the CLI,
// over either backend, with the WASM bytes inlined so the page needs no fetch and no node:* module.
// Exposed both as ES-module exports and as globalThis.krieg for pages and tests.
import wasmBytes from '../../build/krieg.wasm';
import { Engine } from '../engine';
import { createWasmCore } from '../backends/wasm';
import { createJsCore } from '../backends/js';
import { KriegError, fail } from '../errors';
import { START_FEN } from '../notation/fen';

export type BackendName = 'wasm' | 'js';
export const BACKENDS: readonly BackendName[] = ['wasm', 'js'];
export const KIWIPETE_FEN = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
export { Engine, KriegError, START_FEN };
// guaranteed-checkmate search, the algorithm chosen by the learned policy (krieg solve's default)
export {
  solveAuto,
  solveByName,
  algorithmChoice,
  chooseSchedule,
  autoFeatures,
  AUTO,
  ALGORITHM_CHOICES,
} from '../solver/auto';
export { solve, ALGORITHMS } from '../solver/solve';
// the one belief request and the one solve request (as krieg belief, krieg solve and the app use them)
export { beliefOf, BELIEF_MODES, type BeliefMode, type BeliefRequest, type Belief } from '../belief/request';
export { solveRequest, type SolveRequest, type SolveAnswer, type ViewProblem } from '../solver/request';

export function createEngine(backend: BackendName = 'wasm'): Engine {
  if (backend === 'wasm') return new Engine(createWasmCore(wasmBytes));
  if (backend === 'js') return new Engine(createJsCore());
  throw fail('bad-backend', { backend: backend as string });
}

export interface PerftResult {
  backend: BackendName;
  fen: string;
  depth: number;
  bulk: boolean;
  nodes: number;
  ms: number;
  nps: number;
}

const engines = new Map<BackendName, Engine>();

/** Perft of a FEN on a (cached) engine of the given backend, timed with performance.now(). */
export function perft(fen: string, depth: number, backend: BackendName = 'wasm', bulk = false): PerftResult {
  let engine = engines.get(backend);
  if (!engine) engines.set(backend, (engine = createEngine(backend)));
  engine.setFen(0, fen);
  const t0 = performance.now();
  const nodes = engine.perft(0, depth, bulk);
  const ms = performance.now() - t0;
  return { backend, fen: engine.fen(0), depth, bulk, nodes, ms, nps: ms > 0 ? Math.round(nodes / (ms / 1000)) : 0 };
}

/**
 * Wires the demo form of host/web/index.html: #fen, #depth, #backend, #bulk, #run, #result.
 * Perft runs on the main thread, so the result element says "running" and a frame is painted first.
 */
export function mountDemo(doc: Document = document): void {
  const $ = <T extends HTMLElement>(id: string) => {
    const el = doc.getElementById(id);
    if (!el) throw new Error(`krieg demo: element #${id} missing`);
    return el as T;
  };
  const form = $<HTMLFormElement>('perft-form');
  const fen = $<HTMLInputElement>('fen');
  const depth = $<HTMLInputElement>('depth');
  const backend = $<HTMLSelectElement>('backend');
  const bulk = $<HTMLInputElement>('bulk');
  const run = $<HTMLButtonElement>('run');
  const result = $<HTMLElement>('result');
  for (const [label, value] of [
    ['start', START_FEN],
    ['kiwipete', KIWIPETE_FEN],
  ] as const) {
    doc.querySelector<HTMLButtonElement>(`[data-fen="${label}"]`)?.addEventListener('click', () => {
      fen.value = value;
    });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run.disabled = true;
    result.className = 'running';
    result.removeAttribute('data-nodes');
    result.textContent = `running perft(${depth.value}) on ${backend.value} …`;
    // two frames: let the "running" text paint before the synchronous search starts
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        try {
          const r = perft(fen.value, Number(depth.value), backend.value as BackendName, bulk.checked);
          result.className = 'ok';
          result.dataset.nodes = String(r.nodes);
          result.textContent = '';
          const rows: [string, string][] = [
            ['nodes', r.nodes.toLocaleString('en-US')],
            ['time', `${r.ms.toFixed(1)} ms`],
            ['speed', `${r.nps.toLocaleString('en-US')} nodes/s`],
            ['backend', `${r.backend}${r.bulk ? ' (bulk)' : ''}, depth ${r.depth}`],
          ];
          const dl = doc.createElement('dl');
          for (const [k, v] of rows) {
            const dt = doc.createElement('dt');
            dt.textContent = k;
            const dd = doc.createElement('dd');
            dd.textContent = v;
            dd.dataset.field = k;
            dl.append(dt, dd);
          }
          result.append(dl);
        } catch (err) {
          result.className = 'error';
          result.textContent = err instanceof KriegError ? `${err.code}: ${err.message}` : String(err);
        } finally {
          run.disabled = false;
        }
      }),
    );
  });
  run.disabled = false;
}

const api = { createEngine, perft, mountDemo, BACKENDS, START_FEN, KIWIPETE_FEN, Engine, KriegError };
export type KriegWebApi = typeof api;
declare global {
  var krieg: KriegWebApi;
}
globalThis.krieg = api;
