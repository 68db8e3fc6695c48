// The long benches' resumable store (bench/lib/runStore.ts) keeps hours of measurements across
// sessions: what it holds must survive a resume, never mix two measurements (another header), and a
// read-only report must leave every file as it found it. measuredCode (bench/lib/harness.ts) keys
// such stores by the code a bench runs: it changes with that code and with nothing else.
import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunStore } from '../../bench/lib/runStore';
import { measuredCode } from '../../bench/lib/harness';

const fresh = () => mkdtempSync(join(tmpdir(), 'krieg-runstore-'));

describe('RunStore', () => {
  it('resumes what was put, skipping a line cut by a kill', () => {
    const path = join(fresh(), 'a', 'runs.jsonl');
    const store = new RunStore(path, { budget: 1 });
    store.put('x', { n: 1 });
    store.put('y', [2, 3]);
    appendFileSync(path, '{"k":"z","v":'); // a kill in the middle of a line
    const again = new RunStore(path, { budget: 1 });
    expect(again.found).toBe('same');
    expect(again.size).toBe(2);
    expect(again.get('y')).toEqual([2, 3]);
    expect(again.has('z')).toBe(false);
  });

  it('sets a store of another measurement aside when opened for writing, never over an earlier one', () => {
    const dir = fresh();
    const path = join(dir, 'runs.jsonl');
    new RunStore(path, { budget: 1 }).put('x', 1);
    const other = new RunStore(path, { budget: 2 });
    expect(other.found).toBe('other');
    expect(other.size).toBe(0);
    other.put('x', 2);
    new RunStore(path, { budget: 3 });
    const kept = readdirSync(dir).filter((f) => f.startsWith('runs.jsonl.old-'));
    expect(kept).toHaveLength(2);
    const contents = kept.map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(contents.some((c) => c.includes('"budget":1') && c.includes('"v":1'))).toBe(true);
    expect(contents.some((c) => c.includes('"budget":2') && c.includes('"v":2'))).toBe(true);
  });

  it('opened read-only, leaves every file as it is and refuses to write', () => {
    const dir = fresh();
    const path = join(dir, 'runs.jsonl');
    new RunStore(path, { budget: 1 }).put('x', 1);
    const before = readFileSync(path, 'utf8');
    const same = new RunStore(path, { budget: 1 }, 'read');
    expect(same.found).toBe('same');
    expect(same.get('x')).toBe(1);
    expect(() => same.put('y', 2)).toThrow(/read-only/);
    const other = new RunStore(path, { budget: 9 }, 'read');
    expect(other.found).toBe('other');
    expect(other.size).toBe(0);
    const missing = new RunStore(join(dir, 'none.jsonl'), { budget: 1 }, 'read');
    expect(missing.found).toBe('none');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['runs.jsonl']);
  });

  it("'fresh' starts over, keeping the old file aside", () => {
    const dir = fresh();
    const path = join(dir, 'runs.jsonl');
    new RunStore(path, { budget: 1 }).put('x', 1);
    const store = new RunStore(path, { budget: 1 }, 'fresh');
    expect(store.size).toBe(0);
    expect(new RunStore(path, { budget: 1 }).size).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('runs.jsonl.old-'))).toHaveLength(1);
  });
});

describe('measuredCode', () => {
  // a miniature repository: an entry under bench/ importing a host file, and a built file
  const repo = () => {
    const root = fresh();
    mkdirSync(join(root, 'bench'));
    mkdirSync(join(root, 'host'));
    mkdirSync(join(root, 'build'));
    writeFileSync(join(root, 'bench', 'entry.ts'), "import { f } from '../host/f';\nconsole.log(f());\n");
    writeFileSync(join(root, 'host', 'f.ts'), 'export const f = () => 1;\n');
    writeFileSync(join(root, 'host', 'unused.ts'), 'export const g = 2;\n');
    writeFileSync(join(root, 'build', 'core.wasm'), 'core');
    return root;
  };

  it('changes with the code the bench takes in and with its built files, and with nothing else', async () => {
    const root = repo();
    const code = (r: string) => measuredCode(r, 'bench/entry.ts', ['build/core.wasm']);
    const base = await code(root);
    expect(await code(root)).toBe(base);

    const copy = fresh();
    cpSync(root, copy, { recursive: true });
    expect(await code(copy)).toBe(base); // the same files elsewhere: the same code

    writeFileSync(join(root, 'bench', 'entry.ts'), "import { f } from '../host/f';\nconsole.log('report', f());\n");
    writeFileSync(join(root, 'host', 'unused.ts'), 'export const g = 3;\n');
    expect(await code(root)).toBe(base); // the bench's own code and files it does not take in

    writeFileSync(join(root, 'host', 'f.ts'), 'export const f = () => 2;\n');
    const changed = await code(root);
    expect(changed).not.toBe(base);

    writeFileSync(join(root, 'build', 'core.wasm'), 'core 2');
    expect(await code(root)).not.toBe(changed);
  });
});
