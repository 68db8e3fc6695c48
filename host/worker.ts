// The worker pool's worker (bundled to dist/worker.js; host/pool/pool.ts starts it): runs the
// tasks its parent sends, one at a time, with engines of its own (each task kind keeps its
// engines in its module, and every worker thread loads its own copy of the modules), and answers
// each with its output or its error.
import { parentPort } from 'node:worker_threads';
import { replyError, type TaskMessage, type ReplyMessage } from './pool/pool';
import { runSplitTask, type TaskInput } from './belief/parallel.node';
import { playMatchGame, type MatchTask } from './players/match.node';
import { playDbGame, type DbGameTask } from './db/generate.node';
import { benchTask, type BenchTask } from './db/bench.node';
import { buildTableTask, type TableRequest } from './players/egtbBuild.node';

/** The task kinds: information-set and belief branches, match games, database games, benchmark solves, tablebase builds, and ping. */
const TASKS: Record<string, (input: never) => unknown> = {
  ping: (input: unknown) => input, // a worker's start-up, measured by the scaling bench
  split: (input: TaskInput) => runSplitTask(input),
  'match-game': (input: MatchTask) => playMatchGame(input),
  'db-game': (input: DbGameTask) => playDbGame(input),
  'db-bench': (input: BenchTask) => benchTask(input),
  'egtb-build': (input: TableRequest) => buildTableTask(input),
};

parentPort!.on('message', async (task: TaskMessage) => {
  let reply: ReplyMessage;
  try {
    const run = TASKS[task.kind];
    if (!run) throw new Error(`no task kind '${task.kind}'`);
    // a match game with an outside program answers in its own time (a promise); the pool sends a
    // worker its next task only after this reply
    reply = { run: task.run, id: task.id, output: await run(task.input as never) };
  } catch (error) {
    reply = { run: task.run, id: task.id, error: replyError(error) };
  }
  parentPort!.postMessage(reply);
});
