// Resumable tablebase builds and builds of several tables at once (host/players/egtbBuild.node.ts,
// egtbResume.node.ts; docs/egtb.md "Commands"), on small tables built around a K+R state (Kb6, Rd1,
// the king on a8 or c8, three moves deep: 8,102 states):
// - a build stopped right after each checkpoint in turn (one after every slice: in the
//   enumeration, at its end, in a level's sweep, at a level's end; its graph file then two words
//   longer, as a kill in the next checkpoint's appending may leave it) and started again each time
//   writes the same file, byte for byte, as a build never stopped (on WASM), and a checkpoint
//   written by one backend is taken up by the other, stop after stop (the same core);
// - a checkpoint of another build (another room, another depth) is refused, naming the file, and
//   --restart (`restart`) replaces it; a truncated one (or its graph file) is refused; the table
//   written, the checkpoint and its graph file are gone;
// - two tables on two worker threads: the same files as built one at a time.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KriegError } from '../../host/errors';
import { decodeTable } from '../../host/players/egtb';
import { graphFileOf, partialPath } from '../../host/players/egtbResume.node';
import {
  buildTable,
  buildTables,
  BuildStopped,
  type TableBuilt,
  type TableRequest,
} from '../../host/players/egtbBuild.node';

let ROOT = '';
let n = 0;
const fresh = () => join(ROOT, `d${n++}`);

const square = (name: string) => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);
const KINGS = ['a8', 'c8'].map(square);

function request(dir: string, backend: 'wasm' | 'js', extra: Partial<TableRequest> = {}): TableRequest {
  return {
    ending: 'krk',
    table: 'dirs-draw',
    dir,
    backend,
    log2: 14,
    around: [{ fen: '8/8/1K6/8/7k/8/8/3R4 w - - 0 1', squares: KINGS }],
    depth: 3,
    slice: 100,
    checkpointSeconds: 0,
    ...extra,
  };
}

const fileOf = (built: TableBuilt) => readFileSync(built.path);

/** Builds `req`, stopped after every checkpoint and started again until it is done: the runs it took. */
function buildStopping(req: TableRequest, backends: readonly ('wasm' | 'js')[] = [req.backend]): TableBuilt[] {
  const runs: TableBuilt[] = [];
  for (let run = 0; run < 500; run++) {
    try {
      runs.push(buildTable({ ...req, backend: backends[run % backends.length], stopAfter: 1 }));
      return runs;
    } catch (error) {
      if (!(error instanceof BuildStopped)) throw error;
      expect(existsSync(partialPath(req.dir, req.ending, req.table))).toBe(true);
      // as a kill while the next checkpoint appended its graph words: two words past this one's
      appendFileSync(
        graphFileOf(partialPath(req.dir, req.ending, req.table)),
        new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      );
      runs.push(undefined as never);
    }
  }
  throw new Error('no end');
}

beforeAll(() => {
  ROOT = mkdtempSync(join(tmpdir(), 'krieg-egtb-resume-'));
});

afterAll(() => {
  if (ROOT) rmSync(ROOT, { recursive: true, force: true });
});

// every checkpoint in turn on WASM; the JS core's resumes are the next suite's, which alternates the
// backends stop by stop over the same checkpoints (one source: the same core, compiled twice)
describe.each(['wasm'] as const)('a resumable tablebase build on %s', (backend) => {
  it('stopped after each checkpoint in turn and started again: the same file as a build never stopped', () => {
    const whole = buildTable(request(fresh(), backend, { checkpointSeconds: -1 }));
    expect(whole.checkpoints.count).toBe(0);
    expect(whole.longest).toBeGreaterThanOrEqual(3);
    // the whole graph (one sweep a level), and a graph of the first states only (sweeps repeated)
    for (const graphLog2 of [undefined, 12]) {
      const dir = fresh();
      const runs = buildStopping(request(dir, backend, { graphLog2 }));
      const last = runs[runs.length - 1];
      // in the enumeration, at its end, within levels and at their ends: more runs than levels
      expect(runs.length).toBeGreaterThan(whole.longest + 3);
      expect(last.resumed).toBeDefined();
      if (graphLog2) expect(last.graphStates).toBeLessThan(whole.states / 10);
      else expect(last.graphStates).toBe(whole.states);
      expect(fileOf(last).equals(fileOf(whole))).toBe(true);
      expect(existsSync(partialPath(dir, 'krk', 'dirs-draw'))).toBe(false);
      expect(existsSync(graphFileOf(partialPath(dir, 'krk', 'dirs-draw')))).toBe(false);
    }
    // the file holds every state, valued
    const { header, entries } = decodeTable(gunzipSync(fileOf(whole)), whole.path);
    expect(header.byValue.reduce((a, b) => a + b, 0)).toBe(whole.states);
    expect(entries.length).toBe(whole.states * 4);
  });
});

describe('resumable builds: checkpoints across backends, refused ones, several tables at once', () => {
  it('a checkpoint written by one backend is taken up by the other: the same file', () => {
    const whole = buildTable(request(fresh(), 'wasm', { checkpointSeconds: -1 }));
    const runs = buildStopping(request(fresh(), 'wasm'), ['wasm', 'js']);
    expect(fileOf(runs[runs.length - 1]).equals(fileOf(whole))).toBe(true);
  });

  it('a checkpoint of another build is refused naming the file; restart replaces it; a truncated one is refused', () => {
    const dir = fresh();
    const partial = partialPath(dir, 'krk', 'dirs-draw');
    expect(() => buildTable(request(dir, 'wasm', { stopAfter: 3 }))).toThrow(BuildStopped);
    for (const other of [{ log2: 15 }, { depth: 2 }]) {
      let error: unknown;
      try {
        buildTable(request(dir, 'wasm', other));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KriegError);
      expect((error as KriegError).code).toBe('egtb-partial-other');
      expect((error as KriegError).message).toContain(partial);
      expect((error as KriegError).message).toMatch(other.log2 ? /log2 14, not 15/ : /depth 3, not 2/);
    }
    const size = statSync(partial).size;
    const graph = graphFileOf(partial);
    truncateSync(graph, statSync(graph).size - 4);
    expect(() => buildTable(request(dir, 'wasm'))).toThrow(/\.partial\.graph holds fewer than \d+ words/);
    truncateSync(partial, size - 4);
    expect(() => buildTable(request(dir, 'wasm'))).toThrow(
      /not a readable tablebase checkpoint \(not \d+ words long\)/,
    );
    const built = buildTable(request(dir, 'wasm', { depth: 2, restart: true }));
    expect(built.resumed).toBeUndefined();
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(graph)).toBe(false);
  });

  it('two tables on two worker threads: the files built one at a time', async () => {
    const pair = (dir: string): TableRequest[] => [
      request(dir, 'wasm', { checkpointSeconds: -1 }),
      request(dir, 'wasm', { table: 'dirs-loss', checkpointSeconds: -1 }),
    ];
    const [one, two] = [fresh(), fresh()];
    const alone: TableBuilt[] = [];
    await buildTables(pair(one), 1, (built) => alone.push(built));
    const together: TableBuilt[] = [];
    const keys = new Set<string>();
    await buildTables(pair(two), 2, (built) => together.push(built), { progress: (key) => keys.add(key) });
    expect(together.map((b) => b.table)).toEqual(['dirs-draw', 'dirs-loss']);
    for (let i = 0; i < 2; i++) {
      expect(together[i].path.startsWith(two)).toBe(true);
      expect(fileOf(together[i]).equals(fileOf(alone[i]))).toBe(true);
    }
    // under rand a stalemating move mates: another table
    expect(fileOf(alone[0]).equals(fileOf(alone[1]))).toBe(false);
    expect([...keys].sort()).toEqual(['krk dirs-draw', 'krk dirs-loss']);
  });
});
