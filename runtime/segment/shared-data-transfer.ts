/**
 * A scenario's data files on their way to a scripted segment's child process (child-host.ts,
 * child-entry.ts). IPC cannot carry a SharedArrayBuffer, and one message holding a 100 MB table
 * costs the child the message's chunks, their concatenation and then the table's own copy: three
 * times the file at its peak. So the spec crosses with empty tables, and each table's arrays follow
 * in chunks of CHUNK_BYTES, written one by one into SharedArrayBuffers of their full size in the
 * child (which its isolate then shares, shared-data-tables.ts): the child's peak is about the
 * file's size.
 */
import type { SharedData } from '../../dsl/plan/shared-data.js';
import type { SegmentSpec } from './segment-spec.js';

/** Bytes per chunk message. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/** One chunk of a data file's `bytes` or `ends`: the file's index in plan.script.data. */
export interface DataChunk {
  readonly type: 'data';
  readonly file: number;
  readonly part: 'bytes' | 'ends';
  /** The part's whole length in bytes, and where this chunk goes in it. */
  readonly total: number;
  readonly offset: number;
  readonly chunk: Uint8Array;
}

/** The spec with empty data tables, and the chunks that fill them in (in order). */
export function splitSharedData(spec: SegmentSpec): { spec: SegmentSpec; chunks: DataChunk[] } {
  const script = spec.plan.script;
  const data = script?.data;
  if (script === undefined || data === undefined || data.length === 0) return { spec, chunks: [] };
  const chunks: DataChunk[] = [];
  data.forEach((table, file) => {
    for (const part of ['bytes', 'ends'] as const) {
      const array = table[part];
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
        const chunk = bytes.subarray(offset, offset + CHUNK_BYTES);
        chunks.push({ type: 'data', file, part, total: bytes.length, offset, chunk });
      }
    }
  });
  const empty = data.map((t) => ({ ...t, bytes: new Uint8Array(0), ends: new Uint32Array(0) }));
  const plan = { ...spec.plan, script: { ...script, data: empty } };
  return { spec: { ...spec, plan }, chunks };
}

/** The child's side: collects the chunks, then puts the tables back into the spec. */
export class SharedDataReceiver {
  readonly #parts = new Map<string, Uint8Array>();

  /** Copies one chunk into its table's SharedArrayBuffer (made at its first chunk). */
  add(chunk: DataChunk): void {
    const key = `${chunk.file}:${chunk.part}`;
    let target = this.#parts.get(key);
    if (target === undefined) {
      target = new Uint8Array(new SharedArrayBuffer(chunk.total));
      this.#parts.set(key, target);
    }
    target.set(chunk.chunk, chunk.offset);
  }

  /** The spec with its data tables filled in. */
  complete(spec: SegmentSpec): SegmentSpec {
    const script = spec.plan.script;
    if (script?.data === undefined || script.data.length === 0) return spec;
    const data = script.data.map((table, file): SharedData => {
      const bytes = this.#parts.get(`${file}:bytes`) ?? new Uint8Array(0);
      const ends = this.#parts.get(`${file}:ends`);
      return {
        ...table,
        bytes,
        ends: ends === undefined ? new Uint32Array(0) : new Uint32Array(ends.buffer),
      };
    });
    this.#parts.clear();
    return { ...spec, plan: { ...spec.plan, script: { ...script, data } } };
  }
}
