// Checkpoints of a tablebase build (docs/egtb.md, "Commands"): `D/ENDING-TABLE.partial`, the
// build's memory between two slices (host/core/egtb.ts's egtbSnapshot: the entries, the bits of the
// states left unexpanded, the graph), written whole (a temporary file renamed into place) and read
// back into a new core by a build started again with the same parameters, which then goes on from
// there and writes the same table. The enumeration is most of a build's time (K+Q: 250 s of 271),
// so the checkpoint keeps its graph rather than redoing it.
//
// The file: the magic `KRIEGCP1`, the header's length (4 bytes, little-endian), a JSON header (the
// parameters, where the build stands, the sections' lengths in words), zero bytes to a multiple of
// 4, then the sections' words in the machine's byte order (which the header names).
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { endianness } from 'node:os';
import { fail } from '../errors';
import { writeAtomically } from '../io/files';
import { wasmPath } from '../backends/node';
import { egtbRestore, egtbSnapshot, type EgtbAt, type EgtbEnding, type EgtbPlace } from '../core/egtb';
import type { Engine } from '../engine';

const MAGIC = 'KRIEGCP1';

/** What makes a build's memory: a checkpoint resumes only a build of the same parameters. */
export interface EgtbBuildParams {
  ending: EgtbEnding;
  table: string;
  log2: number;
  graphLog2: number;
  /** The start states of a table built around some (FEN and squares, in words), and its depth. */
  around?: string;
  depth?: number;
  /** The core that enumerates (a hash of its WASM build, from which the JS core is compiled too). */
  core: string;
  /** The byte order of the sections. */
  byteOrder: string;
}

export interface EgtbCheckpoint {
  params: EgtbBuildParams;
  place: EgtbPlace;
  /** Where the build stood: the level whose sweep was under way (0: the enumeration), its states before `next` decided. */
  at: EgtbAt;
  /** When it was written (ISO), and the build's seconds until then (over every run). */
  written: string;
  seconds: number;
  /** The sections' lengths in words (egtbSnapshot's). */
  sections: number[];
}

/** The checkpoint file of `ending`'s table `table` in `dir`. */
export function partialPath(dir: string, ending: EgtbEnding, table: string): string {
  return join(dir, `${ending}-${table}.partial`);
}

let coreHash: string | undefined;

/** The core's identity: the first 16 hex digits of the SHA-256 of build/krieg.wasm. */
export function coreId(): string {
  coreHash ??= createHash('sha256').update(readFileSync(wasmPath())).digest('hex').slice(0, 16);
  return coreHash;
}

/** The parameters of a build (coreId and the machine's byte order added). */
export function buildParams(params: Omit<EgtbBuildParams, 'core' | 'byteOrder'>): EgtbBuildParams {
  // as JSON keeps it: no key of an undefined value
  return JSON.parse(JSON.stringify({ ...params, core: coreId(), byteOrder: endianness() }));
}

/** Writes the engine's build (between slices) to `path`: its size in bytes. */
export function writeCheckpoint(
  path: string,
  engine: Engine,
  params: EgtbBuildParams,
  at: EgtbAt,
  seconds: number,
): number {
  const { place, sections } = egtbSnapshot(engine);
  const header: EgtbCheckpoint = {
    params,
    place,
    at,
    written: new Date().toISOString(),
    seconds: Math.round(seconds * 10) / 10,
    sections: sections.map((s) => s.length),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const head = new Uint8Array(12 + json.length + ((4 - (json.length % 4)) % 4));
  head.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(head.buffer).setUint32(8, json.length, true);
  head.set(json, 12);
  const chunks = [head, ...sections.map((s) => new Uint8Array(s.buffer, s.byteOffset, s.byteLength))];
  writeAtomically(path, chunks);
  return chunks.reduce((sum, c) => sum + c.length, 0);
}

/** Reads the bytes [position, position + into.length) of file `fd` into `into`; false when the file ends first. */
function readFully(fd: number, into: Uint8Array, position: number): boolean {
  for (let done = 0; done < into.length;) {
    const n = readSync(fd, into, done, Math.min(into.length - done, 1 << 26), position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/** A checkpoint's header and where its sections begin; a one-line error when it is not one. */
export function readCheckpoint(path: string): { header: EgtbCheckpoint; at: number } {
  const bad = (why: string) => fail('bad-egtb-partial', { path, why });
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw bad((error as NodeJS.ErrnoException).code ?? String(error));
  }
  try {
    const head = new Uint8Array(12);
    if (!readFully(fd, head, 0) || new TextDecoder().decode(head.subarray(0, 8)) !== MAGIC)
      throw bad(`no ${MAGIC} magic`);
    const length = new DataView(head.buffer).getUint32(8, true);
    const json = new Uint8Array(length);
    if (!readFully(fd, json, 12)) throw bad('it ends in its header');
    let header: EgtbCheckpoint;
    try {
      header = JSON.parse(new TextDecoder().decode(json));
    } catch {
      throw bad('its header is not JSON');
    }
    if (!header.params || !header.place || !header.at || !Array.isArray(header.sections))
      throw bad('its header is not one');
    const at = 12 + length + ((4 - (length % 4)) % 4);
    const words = header.sections.reduce((sum, n) => sum + n, 0);
    if (statSync(path).size !== at + 4 * words) throw bad(`not ${words} words long`);
    return { header, at };
  } finally {
    closeSync(fd);
  }
}

/** The first parameter in which a checkpoint's build differs from `params`, in words; undefined when none does. */
export function otherBuild(header: EgtbCheckpoint, params: EgtbBuildParams): string | undefined {
  for (const key of Object.keys(params) as (keyof EgtbBuildParams)[])
    if (String(header.params[key]) !== String(params[key]))
      return `${key} ${header.params[key] ?? 'none'}, not ${params[key] ?? 'none'}`;
  for (const key of Object.keys(header.params))
    if (!(key in params)) return `${key} ${String(header.params[key as keyof EgtbBuildParams])}`;
  return undefined;
}

/**
 * The checkpoint at `path` a build of `params` takes up: undefined when there is none (or `restart`
 * removed it); refused (egtb-partial-other) when it is another build's.
 */
export function checkpointFor(path: string, params: EgtbBuildParams, restart = false): EgtbCheckpoint | undefined {
  if (!existsSync(path)) return undefined;
  if (restart) {
    rmSync(path, { force: true });
    return undefined;
  }
  const { header } = readCheckpoint(path);
  const other = otherBuild(header, params);
  if (other !== undefined) throw fail('egtb-partial-other', { path, what: other });
  return header;
}

/** Fills the engine's build from the checkpoint at `path` (after egtbInit with its parameters, in egtbBuild's `resume`): where it stood. */
export function restoreCheckpoint(engine: Engine, path: string): EgtbAt {
  const { header, at } = readCheckpoint(path);
  const fd = openSync(path, 'r');
  try {
    egtbRestore(engine, header.place, (sections) => {
      let position = at;
      header.sections.forEach((words, i) => {
        const view = sections[i];
        if (view.length !== words)
          throw fail('bad-egtb-partial', { path, why: `section ${i} is not ${view.length} words` });
        if (!readFully(fd, new Uint8Array(view.buffer, view.byteOffset, view.byteLength), position))
          throw fail('bad-egtb-partial', { path, why: 'it ends early' });
        position += 4 * words;
      });
    });
  } finally {
    closeSync(fd);
  }
  return header.at;
}
