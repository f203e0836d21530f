/**
 * Builds a SharedData table (model/plan/shared-data.ts) one record at a time: each record's JSON text,
 * its non-ASCII characters escaped, written into a SharedArrayBuffer sized from the file and grown
 * by half when a record would not fit (escapes can make a record longer than its source), and its
 * end into a shared Uint32Array sized for the most records the file can hold.
 */
import type { SharedData, SharedDataKind } from '../../model/plan/shared-data.js';

/** Anything JSON.stringify would write outside ASCII (DEL included, harmlessly). */
const NOT_ASCII = /[\u007f-\uffff]/g;

/** A character as its JSON escape (JSON.stringify leaves lone surrogates escaped already). */
const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Accumulates the records of one data file. */
export class SharedDataBuilder {
  #bytes: Buffer;
  #used = 0;
  readonly #ends: Uint32Array;
  #count = 0;

  /** `byteHint`: the file's size; `maxRecords`: the most records add() will be given. */
  constructor(byteHint: number, maxRecords: number) {
    this.#bytes = Buffer.from(new SharedArrayBuffer(Math.max(byteHint, 64)));
    this.#ends = new Uint32Array(new SharedArrayBuffer(4 * Math.max(maxRecords, 1)));
  }

  /** One record: any value JSON can hold. */
  add(value: unknown): void {
    const text = (JSON.stringify(value) ?? 'null').replace(NOT_ASCII, escape);
    if (this.#used + text.length > this.#bytes.length) this.#grow(this.#used + text.length);
    this.#used += this.#bytes.write(text, this.#used, 'latin1');
    this.#ends[this.#count++] = this.#used;
  }

  /** The table; the builder must not be used afterwards. */
  finish(name: string, kind: SharedDataKind, fields: readonly string[]): SharedData {
    return {
      name,
      kind,
      fields,
      count: this.#count,
      bytes: new Uint8Array(this.#bytes.buffer, 0, this.#used),
      ends: this.#ends.subarray(0, this.#count),
    };
  }

  #grow(needed: number): void {
    const bigger = Buffer.from(
      new SharedArrayBuffer(Math.max(needed, Math.ceil(this.#bytes.length * 1.5))),
    );
    this.#bytes.copy(bigger, 0, 0, this.#used);
    this.#bytes = bigger;
  }
}
