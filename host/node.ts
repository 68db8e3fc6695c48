// Node entry of the host API: an Engine on the chosen backend.
import { Engine, DEFAULT_CAPACITY } from './engine';
import { createCore, type BackendName } from './backends/node';

export { Engine } from './engine';
export { BACKENDS, type BackendName } from './backends/node';
export { KriegError } from './errors';
export * from './notation/fen';
export * from './notation/move';

export function createEngine(backend: BackendName = 'wasm', capacity = DEFAULT_CAPACITY): Engine {
  return new Engine(createCore(backend), capacity);
}
