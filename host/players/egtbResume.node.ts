// Checkpoints of a tablebase build (docs/egtb.md, "Commands"): `D/ENDING-TABLE.partial`, the
// build's memory between two slices (host/core/egtb.ts's egtbSnapshot: the entries, the bits of the
// states left unexpanded, the graph), written whole (a temporary file renamed into place) and read
// back into a new core by a build started again with the same parameters, which then goes on from
// there and writes the same table. The enumeration is most of a build's time (K+Q: 250 s of 271),
// so the checkpoint keeps its graph rather than redoing it.
//
// The file: the magic `KRIEGCP1`, the header's length (4 bytes, little-endian), a JSON header (the
// parameters, where the build stands, the sections' lengths in words), zero bytes to a multiple of
// 4, then the words of the entries, the unexpanded bits and the graph's state starts, in the
// machine's byte order (which the header names). The graph's words are in `….partial.graph`: the
// enumeration only appends to the graph, so each checkpoint appends the words added since the last
// before it renames itself into place; the checkpoint says how many of them are its own.
import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
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

/** The checkpoint's graph words, beside it (the enumeration only appends to the graph, so a checkpoint appends what it added). */
export const graphFileOf = (path: string) => `${path}.graph`;

/** The sections the checkpoint file holds (the entries, the unexpanded bits, EDGE_START); the graph's words go to its graph file. */
const OWN_SECTIONS = 3;

/** Removes a checkpoint and its graph file. */
export function removeCheckpoint(path: string): void {
  rmSync(path, { force: true });
  rmSync(graphFileOf(path), { force: true });
}

/** Appends words [from, end) of the words `parts` hold one after another to file `path` (from 0: the file made anew); bytes written. */
function appendWords(path: string, parts: Int32Array[], from: number): number {
  const fd = openSync(path, from === 0 ? 'w' : 'r+');
  let written = 0;
  try {
    let skip = from;
    for (const part of parts) {
      const bytes = new Uint8Array(
        part.buffer,
        part.byteOffset + 4 * Math.min(skip, part.length),
        4 * Math.max(0, part.length - skip),
      );
      skip = Math.max(0, skip - part.length);
      for (let done = 0; done < bytes.length;) {
        done += writeSync(fd, bytes, done, Math.min(bytes.length - done, 1 << 26), 4 * from + written + done);
      }
      written += bytes.length;
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

/**
 * Writes the engine's build (between slices) to `path` (the graph's new words appended to its graph
 * file first, then the checkpoint renamed into place, which names how many of them it holds): the
 * bytes written.
 */
export function writeCheckpoint(
  path: string,
  engine: Engine,
  params: EgtbBuildParams,
  at: EgtbAt,
  seconds: number,
): number {
  const { place, sections } = egtbSnapshot(engine);
  const graph = graphFileOf(path);
  const have = existsSync(graph) ? statSync(graph).size / 4 : 0;
  // a graph file longer than the graph (or not whole words) is not this build's: written anew
  const appended = appendWords(
    graph,
    sections.slice(OWN_SECTIONS),
    Number.isInteger(have) && have <= place.edges ? have : 0,
  );
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
  const own = sections.slice(0, OWN_SECTIONS).map((s) => new Uint8Array(s.buffer, s.byteOffset, s.byteLength));
  const chunks = [head, ...own];
  writeAtomically(path, chunks);
  return appended + chunks.reduce((sum, c) => sum + c.length, 0);
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
    const words = header.sections.slice(0, OWN_SECTIONS).reduce((sum, n) => sum + n, 0);
    if (statSync(path).size !== at + 4 * words) throw bad(`not ${words} words long`);
    const graph = graphFileOf(path);
    const edges = header.sections.slice(OWN_SECTIONS).reduce((sum, n) => sum + n, 0);
    if ((existsSync(graph) ? statSync(graph).size : 0) < 4 * edges)
      throw bad(`${graph} holds fewer than ${edges} words`);
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
  if (!existsSync(path) || restart) {
    removeCheckpoint(path); // and a graph file a build killed before its first checkpoint left
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
  const graph = graphFileOf(path);
  const files = [openSync(path, 'r'), openSync(graph, 'r+')];
  try {
    egtbRestore(engine, header.place, (sections) => {
      const position = [at, 0];
      header.sections.forEach((words, i) => {
        const view = sections[i];
        const f = i < OWN_SECTIONS ? 0 : 1;
        if (view.length !== words)
          throw fail('bad-egtb-partial', { path, why: `section ${i} is not ${view.length} words` });
        if (!readFully(files[f], new Uint8Array(view.buffer, view.byteOffset, view.byteLength), position[f]))
          throw fail('bad-egtb-partial', { path, why: 'it ends early' });
        position[f] += 4 * words;
      });
      // the words a build killed after this checkpoint appended (the last perhaps cut short) go: this build appends them again
      ftruncateSync(files[1], position[1]);
    });
  } finally {
    for (const fd of files) closeSync(fd);
  }
  return header.at;
}
