// The web app's engines: a Web Worker (host/web/worker.ts, built as worker.js with the WASM core's
// bytes, which each worker compiles itself), spoken to in the messages of protocol.ts.
// index.html's head starts the game's worker from worker.js before the page's script has loaded
// (docs/web.md, Start-up); the first engine asked for two cores takes that worker. Opened from disk
// (file://), where a page may not start a worker from a file, the workers start from a Blob of the
// same script, which worker-source.js carries as text.
import { GAME_WORKER, type BackendName, type Reply, type Request } from '../protocol';

declare global {
  /** The JS core's script, as text: portable.js defines it (scripts/build.mjs). */
  var kriegPortableCore: string | undefined;
  /** The workers' script as text: worker-source.js defines it (scripts/build.mjs). */
  var kriegWorkerSource: string | undefined;
  /** The workers' script's URL: worker.js, set by index.html's head; undefined where that cannot start a worker (file://). */
  var kriegWorkerUrl: string | undefined;
  /** The game's worker, started by index.html's head; undefined once taken. */
  var kriegGameWorker: Worker | undefined;
}

type Request0 = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * A classic script beside the page, loaded once when first asked (from file:// too), and the
 * global it defines; undefined if it does not load (the next call asks again).
 */
function scriptGlobal<T>(src: string, read: () => T): () => Promise<T | undefined> {
  let loading: Promise<T | undefined> | undefined;
  return () =>
    (loading ??= new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => resolve(read());
      script.onerror = () => {
        loading = undefined;
        resolve(undefined);
      };
      document.head.append(script);
    }));
}

/** The JS core's script, as text, for a worker on the JS backend: portable.js, not loaded with the page. */
const portableCore = scriptGlobal('portable.js', () => globalThis.kriegPortableCore);
/** The workers' script from a Blob (a page opened from disk), made once. */
const sourceUrl = scriptGlobal('worker-source.js', () =>
  globalThis.kriegWorkerSource === undefined
    ? undefined
    : URL.createObjectURL(new Blob([globalThis.kriegWorkerSource], { type: 'text/javascript' })),
);

const NO_WORKER = 'the engine did not start (worker-source.js did not load)';

/**
 * A worker started from the workers' script when it is first asked something (or the one
 * index.html started), its init (the backend, and the JS core's script) always its first message.
 */
export class EngineWorker {
  private worker: Worker | undefined;
  /** Resolves with the worker once its init is posted (undefined if none could start): every other message is posted after it, in order. */
  private posted: Promise<Worker | undefined> = Promise.resolve(undefined);
  private booted: Promise<Reply> | undefined;
  /** Counts the starts: a worker made for an earlier one (restarted meanwhile) is terminated. */
  private starts = 0;
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
    const backend = this.backend;
    const start = ++this.starts;
    // the worker (from a Blob where the page cannot start one from worker.js: the game's named as
    // index.html would have), and for the JS backend the JS core's script, as text (a Blob the page
    // made is not the worker's to load from file://)
    const url = globalThis.kriegWorkerUrl;
    const worker: Promise<Worker | undefined> = started
      ? Promise.resolve(started)
      : url
        ? Promise.resolve(new Worker(url))
        : sourceUrl().then((url) => (url ? new Worker(url, this.cores === 2 ? { name: GAME_WORKER } : {}) : undefined));
    const core: Promise<{ core?: string }> =
      backend === 'wasm' ? Promise.resolve({}) : portableCore().then((core) => (core ? { core } : {}));
    let posted!: (worker: Worker | undefined) => void;
    this.posted = new Promise((resolve) => (posted = resolve));
    return (this.booted = this.listen(this.nextId++, undefined, (id) =>
      Promise.all([worker, core]).then(([worker, core]) => {
        if (start !== this.starts) return worker?.terminate(); // restarted meanwhile
        if (worker) {
          this.worker = worker;
          worker.onmessage = (event: MessageEvent<Reply>) => {
            const reply = event.data;
            // the game's worker's start-up as the page's marks (bench/web.ts reports them)
            if (reply.kind === 'ready' && reply.marks && this.cores === 2)
              for (const [name, at] of Object.entries(reply.marks))
                performance.mark(name, { startTime: at - performance.timeOrigin });
            this.listeners.get(reply.id)?.(reply);
          };
          worker.postMessage({ id, kind: 'init', backend, cores: this.cores, ...core } satisfies Request);
        } else this.listeners.get(id)?.({ id, kind: 'error', message: NO_WORKER });
        posted(worker);
      }),
    ));
  }

  /**
   * Sends `request` (starting the worker first if need be); `onReply` hears every reply to it;
   * resolves with the last (one of `final` kinds).
   */
  send(request: Request0, onReply?: (reply: Reply) => void): Promise<Reply> {
    void this.start();
    const posted = this.posted;
    return this.listen(this.nextId++, onReply, (id) =>
      posted.then((worker) =>
        worker
          ? worker.postMessage({ ...request, id } as Request)
          : this.listeners.get(id)?.({ id, kind: 'error', message: NO_WORKER }),
      ),
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
