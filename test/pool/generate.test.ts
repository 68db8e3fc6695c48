// Database generation on the pool (generateOnPool, host/db/generate.node.ts): the same games and
// instances, in the same order, as the sequential generate(), on 2 and 3 workers, with the
// stopping rule (targets) deciding where both end; and a resume on the pool of a database the
// sequential run started continues it to the same content. Both backends. The sequential run both
// tests compare with is made once per backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type BackendName } from '../../host/node';
import { ProblemDb } from '../../host/db/database.node';
import {
  DEFAULT_PARAMS,
  generate,
  generateOnPool,
  selfPlayWorkers,
  type GenerateParams,
} from '../../host/db/generate.node';
import { WorkerPool } from '../../host/pool/pool';

const PARAMS: GenerateParams = { ...DEFAULT_PARAMS, seed: 5 };

describe.each(BACKENDS)('db generation on the pool (%s)', (backend: BackendName) => {
  // the JS core is about 3 times slower: a few games, on 2 workers only. On WASM the targets stop
  // the run at game 8 (seed 5: near-misses at games 1 and 3, then the first mate), 5-ply re-analyses
  // included; 3 mates took 16 games
  const targets =
    backend === 'wasm'
      ? { mates: 1, nearMisses: 3, maxGames: 40 }
      : { mates: Infinity, nearMisses: Infinity, maxGames: 5 };
  const workers = selfPlayWorkers(backend);
  const pools = backend === 'wasm' ? [new WorkerPool(2), new WorkerPool(3)] : [new WorkerPool(2)];
  let sequential: ProblemDb;
  let end: ReturnType<typeof generate>;
  beforeAll(async () => {
    sequential = await ProblemDb.create(undefined, PARAMS);
    end = generate(sequential, workers, PARAMS, targets);
  });
  afterAll(() => {
    pools.forEach((p) => p.close());
    sequential.close();
  });

  it('stores what generate() stores, stopping at the same game', async () => {
    if (backend === 'wasm') expect(end.mates).toBeGreaterThanOrEqual(targets.mates);
    for (const pool of pools) {
      const parallel = await ProblemDb.create(undefined, PARAMS);
      const parEnd = await generateOnPool(parallel, workers, PARAMS, targets, { backend, jobs: pool.jobs, pool });
      expect(parEnd).toEqual(end);
      expect(parallel.games()).toEqual(sequential.games());
      expect(parallel.instances()).toEqual(sequential.instances());
      parallel.close();
    }
  });

  it('resumes on the pool a database begun sequentially', async () => {
    const resumed = await ProblemDb.create(undefined, PARAMS);
    generate(resumed, workers, PARAMS, { ...targets, maxGames: 2 });
    expect(resumed.games()).toHaveLength(2);
    await generateOnPool(resumed, workers, PARAMS, targets, { backend, jobs: 2, pool: pools[0] });
    expect(resumed.games()).toEqual(sequential.games());
    expect(resumed.instances()).toEqual(sequential.instances());
    resumed.close();
  });
});
