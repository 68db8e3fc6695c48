// The web app's engines: a Web Worker (host/web/worker.ts) started from its source, which the build
// inlines in index.html (with the WASM core's bytes, which each worker compiles itself), spoken to in
// the messages of protocol.ts. index.html's head makes the script's Blob URL and starts the game's
// worker before the page's script has loaded (docs/web.md, Start-up); the first engine asked for two
// cores takes that worker.
import type { BackendName, Reply, Request } from '../protocol';

declare global {
  /** The JS core's script, as text: portable.js defines it (scripts/build.mjs). */
  var kriegPortableCore: string | undefined;
  /** The workers' script, a Blob URL: index.html's head makes it. */
  var kriegWorkerUrl: string;
  /** The game's worker, started by index.html's head; undefined once taken. */
  var kriegGameWorker: Worker | undefined;
}

type Request0 = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

let portable: Promise<string | undefined> | undefined;
/**
 * The JS core's script, as text, for a worker on the JS backend: portable.js, beside the page,
 * loaded once when first asked (a classic script, so from file:// too), not with the page;
 * undefined if it does not load (the worker's reply says so; the next start asks again).
 */
const portableCore = (): Promise<string | undefined> =>
  (portable ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = 'portable.js';
    script.onload = () => resolve(globalThis.kriegPortableCore);
    script.onerror = () => {
      portable = undefined;
      resolve(undefined);
    };
    document.head.append(script);
  }));

/**
 * A worker started from the bundled source (a Blob URL: works from file:// as well as http) when
 * it is first asked something (or the one index.html started), its init (the backend, and the JS
 * core's script) always its first message.
 */
export class EngineWorker {
  private worker: Worker | undefined;
  /** Resolves once the init is posted: every other message is posted after it, in order. */
  private posted: Promise<void> = Promise.resolve();
  private booted: Promise<Reply> | undefined;
  private nextId = 1;
  private readonly listeners = new Map<number, (reply: Reply) => void>();
  backend: BackendName = 'wasm';

  /** `cores`: the cores its first task needs, made as it starts (the game's: the referee's and the opponent's). */
  constructor(private readonly cores = 1) {}

  /** Starts the worker (if it is not running) and resolves with its init's reply. */
  start(): Promise<Reply> {
    if (this.booted) return this.booted;
    const started = this.cores === 2 ? globalThis.kriegGameWorker : undefined;
    if (started) globalThis.kriegGameWorker = undefined;
    const worker = (this.worker = started ?? new Worker(globalThis.kriegWorkerUrl));
    worker.onmessage = (event: MessageEvent<Reply>) => {
      const reply = event.data;
      // the game's worker's start-up as the page's marks (bench/web.ts reports them)
      if (reply.kind === 'ready' && reply.marks && this.cores === 2)
        for (const [name, at] of Object.entries(reply.marks))
          performance.mark(name, { startTime: at - performance.timeOrigin });
      this.listeners.get(reply.id)?.(reply);
    };
    const backend = this.backend;
    // the JS core's script, as text (a Blob the page made is not the worker's to load from file://)
    const core: Promise<{ core?: string }> =
      backend === 'wasm' ? Promise.resolve({}) : portableCore().then((core) => (core ? { core } : {}));
    let posted!: () => void;
    this.posted = new Promise((resolve) => (posted = resolve));
    return (this.booted = this.listen(this.nextId++, undefined, (id) =>
      core.then((core) => {
        worker.postMessage({ id, kind: 'init', backend, cores: this.cores, ...core } satisfies Request);
        posted();
      }),
    ));
  }

  /**
   * Sends `request` (starting the worker first if need be); `onReply` hears every reply to it;
   * resolves with the last (one of `final` kinds).
   */
  send(request: Request0, onReply?: (reply: Reply) => void): Promise<Reply> {
    void this.start();
    const worker = this.worker!;
    return this.listen(this.nextId++, onReply, (id) =>
      this.posted.then(() => worker.postMessage({ ...request, id } as Request)),
    );
  }

  private listen(
    id: number,
    onReply: ((reply: Reply) => void) | undefined,
    post: (id: number) => void,
  ): Promise<Reply> {
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
      post(id);
    });
  }

  /** Stops whatever it is doing (a solve) and starts afresh (on `backend`, which may have changed). */
  restart(): Promise<Reply> {
    this.worker?.terminate();
    for (const listener of this.listeners.values()) listener({ id: 0, kind: 'error', message: 'cancelled' });
    this.listeners.clear();
    this.worker = undefined;
    this.booted = undefined;
    return this.start();
  }
}

/** A state reply is final when the human is to move or the game is over (else the opponent's move follows). */
const finalState = (reply: Extract<Reply, { kind: 'state' }>) =>
  reply.state.over || reply.state.toMove === reply.state.view.as;
