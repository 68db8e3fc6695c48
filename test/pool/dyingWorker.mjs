// A worker for test/pool/pool.test.ts: echoes each task's input after `input.ms` milliseconds,
// throws for `throw`, and ends its thread (as a kill would) for `die`.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ run, id, input }) => {
  if (input.die) process.exit(7);
  if (input.throw) throw new Error('thrown outside any task handler');
  setTimeout(() => parentPort.postMessage({ run, id, output: input.value }), input.ms ?? 0);
});
