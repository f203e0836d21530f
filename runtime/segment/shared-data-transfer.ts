/**
 * A scenario's data files on their way to a scripted segment's child process (child-host.ts,
 * child-entry.ts). IPC cannot carry a SharedArrayBuffer, and a message holding a 100 MB table
 * costs the child its chunks, their concatenation and then the table's own copy; in chunk
 * messages, the garbage they leave until a collection still cost the child 100 MB more than the
 * table. So the spec crosses with empty tables, a `data` message announces each table's arrays
 * (their length), and the arrays' bytes follow on a pipe of their own (the child's fd 4), which
 * the child reads synchronously straight into SharedArrayBuffers of their full size (which its
 * isolate then shares, shared-data-tables.ts): the child holds the table once, nothing more.
 */
import { readSync } from 'node:fs';
import type { SharedData } from '../../model/plan/shared-data.js';
import type { SegmentSpec } from '../split/segment-spec.js';

/** The child's file descriptor the arrays arrive on (stdin, stdout, stderr, IPC, then this). */
export const DATA_FD = 4;

/** An array of a data file: the file's index in plan.script.data, and its length in bytes. */
export interface DataPart {
  readonly type: 'data';
  readonly file: number;
  readonly part: 'bytes' | 'ends';
  readonly total: number;
}

/** The spec with empty data tables, the parts to announce, and their bytes, in order. */
export function splitSharedData(spec: SegmentSpec): {
  spec: SegmentSpec;
  parts: DataPart[];
  bytes: Uint8Array[];
} {
  const script = spec.plan.script;
  const data = script?.data;
  if (script === undefined || data === undefined || data.length === 0)
    return { spec, parts: [], bytes: [] };
  const parts: DataPart[] = [];
  const bytes: Uint8Array[] = [];
  data.forEach((table, file) => {
    for (const part of ['bytes', 'ends'] as const) {
      const array = table[part];
      parts.push({ type: 'data', file, part, total: array.byteLength });
      bytes.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
  });
  const empty = data.map((t) => ({ ...t, bytes: new Uint8Array(0), ends: new Uint32Array(0) }));
  const plan = { ...spec.plan, script: { ...script, data: empty } };
  return { spec: { ...spec, plan }, parts, bytes };
}

/** The child's side: notes the announced parts, then reads them and puts the tables back. */
export class SharedDataReceiver {
  readonly #parts: DataPart[] = [];

  /** One announced part. */
  add(part: DataPart): void {
    this.#parts.push(part);
  }

  /** The spec with its data tables read from DATA_FD (in the order they were announced). */
  complete(spec: SegmentSpec): SegmentSpec {
    const script = spec.plan.script;
    if (script?.data === undefined || this.#parts.length === 0) return spec;
    const read = new Map<string, Uint8Array>();
    for (const part of this.#parts) read.set(`${part.file}:${part.part}`, readPart(part.total));
    const data = script.data.map((table, file): SharedData => {
      const ends = read.get(`${file}:ends`)!;
      return { ...table, bytes: read.get(`${file}:bytes`)!, ends: new Uint32Array(ends.buffer) };
    });
    return { ...spec, plan: { ...spec.plan, script: { ...script, data } } };
  }
}

/** `total` bytes from DATA_FD into a SharedArrayBuffer (the pipe is blocking on this side). */
function readPart(total: number): Uint8Array {
  const target = new Uint8Array(new SharedArrayBuffer(total));
  for (let at = 0; at < total;) {
    const read = readSync(DATA_FD, target, at, total - at, null);
    if (read === 0) throw new Error(`shared data: the pipe ended after ${at} of ${total} bytes`);
    at += read;
  }
  return target;
}
