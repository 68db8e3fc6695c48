// The web app's engines: a Web Worker (host/web/worker.ts) started from the bundled source, spoken
// to in the messages of protocol.ts.
import type { BackendName, Reply, Request } from '../protocol';

declare const __WORKER_SOURCE__: string;

type Request0 = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** A worker started from the bundled source (a Blob URL: works from file:// as well as http). */
export class EngineWorker {
  private worker: Worker;
  private nextId = 1;
  private readonly listeners = new Map<number, (reply: Reply) => void>();
  backend: BackendName = 'wasm';

  constructor() {
    this.worker = EngineWorker.spawn();
    this.worker.onmessage = (event: MessageEvent<Reply>) => this.listeners.get(event.data.id)?.(event.data);
  }

  private static url: string | undefined;
  private static spawn(): Worker {
    EngineWorker.url ??= URL.createObjectURL(new Blob([__WORKER_SOURCE__], { type: 'text/javascript' }));
    return new Worker(EngineWorker.url);
  }

  /** Sends `request`; `onReply` hears every reply to it; resolves with the last (one of `final` kinds). */
  send(request: Request0, onReply?: (reply: Reply) => void): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.listeners.set(id, (reply) => {
        onReply?.(reply);
        if (
          !['thinking', 'progress', 'tracking', 'loading'].includes(reply.kind) &&
          !(reply.kind === 'state' && onReply && !finalState(reply))
        ) {
          this.listeners.delete(id);
          resolve(reply);
        }
      });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  /** Stops whatever it is doing (a solve) and starts afresh on the same backend. */
  restart(): Promise<Reply> {
    this.worker.terminate();
    for (const listener of this.listeners.values()) listener({ id: 0, kind: 'error', message: 'cancelled' });
    this.listeners.clear();
    this.worker = EngineWorker.spawn();
    this.worker.onmessage = (event: MessageEvent<Reply>) => this.listeners.get(event.data.id)?.(event.data);
    return this.send({ kind: 'init', backend: this.backend });
  }
}

/** A state reply is final when the human is to move or the game is over (else the opponent's move follows). */
const finalState = (reply: Extract<Reply, { kind: 'state' }>) =>
  reply.state.over || reply.state.toMove === reply.state.view.as;
