// A resumable store of measurements for long benches: one JSON line per measurement, appended (and
// flushed) as soon as it is made, so a bench killed at any point resumes where it stopped. The
// first line is a header (the options that decide what is measured). Opened for writing, a file
// whose header differs is set aside (renamed *.old-<time>, never over an earlier one) and the
// bench starts afresh; opened read-only (a report of what another run measured), it is left as it
// is and holds nothing unless it was the same measurement (`found`).
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class RunStore {
  private readonly values = new Map<string, unknown>();
  /** What the file held when opened: this measurement, another (another header), or nothing. */
  readonly found: 'same' | 'other' | 'none' = 'none';

  constructor(
    readonly path: string,
    header: object,
    private readonly mode: 'write' | 'fresh' | 'read' = 'write',
  ) {
    const head = JSON.stringify({ header });
    if (existsSync(path) && mode !== 'fresh') {
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim());
      this.found = lines[0] === head ? 'same' : 'other';
      for (const line of this.found === 'same' ? lines.slice(1) : []) {
        try {
          const { k, v } = JSON.parse(line) as { k: string; v: unknown };
          this.values.set(k, v);
        } catch {
          // a line cut by a kill: measured again
        }
      }
    }
    if (mode === 'read' || this.found === 'same') return;
    mkdirSync(dirname(path), { recursive: true });
    if (existsSync(path)) {
      const stamp = `${path}.old-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      let aside = stamp;
      for (let i = 1; existsSync(aside); i++) aside = `${stamp}-${i}`; // two set aside within a millisecond
      renameSync(path, aside);
    }
    writeFileSync(path, `${head}\n`);
  }

  get size(): number {
    return this.values.size;
  }

  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  put<T>(key: string, value: T): T {
    if (this.mode === 'read') throw new Error(`${this.path}: opened read-only`);
    this.values.set(key, value);
    appendFileSync(this.path, `${JSON.stringify({ k: key, v: value })}\n`);
    return value;
  }

  /** The stored value of `key`, or `measure()`'s, stored. */
  getOrMeasure<T>(key: string, measure: () => T): T {
    return this.has(key) ? this.get<T>(key)! : this.put(key, measure());
  }
}

/** Progress of a phase with an estimate of the time left, from the items measured in this process. */
export class PhaseProgress {
  private readonly started = performance.now();
  private measured = 0;

  constructor(
    private readonly name: string,
    private readonly total: number,
    private readonly print: (line: string) => void,
  ) {}

  step(done: number, fresh: boolean, what: string): void {
    if (fresh) this.measured++;
    const elapsed = (performance.now() - this.started) / 1000;
    const left = this.measured ? ((this.total - done) * elapsed) / this.measured : NaN;
    if (fresh || done === this.total)
      this.print(
        `${this.name}: ${done}/${this.total} ${what} — ${clock(elapsed)} elapsed${Number.isFinite(left) ? `, about ${clock(left)} left` : ''}`,
      );
  }
}

export function clock(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
