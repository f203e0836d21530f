/**
 * Builds a FeederTable (model/plan/plan.ts) one record at a time, so a feeder never exists as an
 * object and a string per value: each value is written as UTF-8 straight into a SharedArrayBuffer
 * sized from the file (values are at most as long as the file, give or take a JSON number written
 * back longer, as 1e21 → "1e+21"; the buffer then grows by half), and its end offset into a
 * shared Uint32Array sized for the most records the file can hold (its line count for CSV and
 * NDJSON). Both are over-sized rather than grown and copied: pages never written are never
 * touched, so they cost address space, not memory.
 */
import { VALUE_MISSING, VALUE_TYPED, type FeederTable } from '../../model/plan/plan.js';

/** Accumulates records whose fields are known in advance. */
export class FeederTableBuilder {
  readonly #fields: readonly string[];
  #bytes: Buffer;
  #used = 0;
  readonly #ends: Uint32Array;
  #values = 0;
  #kinds: Uint8Array | undefined;
  #count = 0;

  /** `byteHint`: the file's size; `maxRecords`: the most records add() will be given. */
  constructor(fields: readonly string[], byteHint: number, maxRecords: number) {
    this.#fields = fields;
    this.#bytes = Buffer.from(new SharedArrayBuffer(Math.max(byteHint, 64)));
    this.#ends = new Uint32Array(new SharedArrayBuffer(4 * fields.length * maxRecords));
  }

  /**
   * One record: a value per field, in `fields` order; undefined where it has no such field.
   * `typed[f]` marks a value that is the JSON text of a non-string (a JSON record's 1070).
   */
  add(values: readonly (string | undefined)[], typed?: readonly boolean[]): void {
    for (let f = 0; f < this.#fields.length; f++) {
      const value = values[f];
      if (value === undefined) this.#mark(VALUE_MISSING);
      else {
        if (typed?.[f] === true) this.#mark(VALUE_TYPED);
        this.#write(value);
      }
      if (this.#values === this.#ends.length) throw new Error('more records than maxRecords');
      this.#ends[this.#values++] = this.#used;
    }
    this.#count++;
  }

  /** The table; the builder must not be used afterwards. */
  finish(): FeederTable {
    return {
      fields: this.#fields,
      count: this.#count,
      bytes: new Uint8Array(this.#bytes.buffer, 0, this.#used),
      ends: this.#ends.subarray(0, this.#values),
      kinds: this.#kinds?.subarray(0, this.#values),
    };
  }

  /** Sets the kind of the value being added (the table stays without kinds while all are text). */
  #mark(kind: number): void {
    this.#kinds ??= new Uint8Array(new SharedArrayBuffer(this.#ends.length));
    this.#kinds[this.#values] = kind;
  }

  #write(value: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: count exactly only near the end.
    if (this.#used + value.length * 3 > this.#bytes.length) {
      const needed = this.#used + Buffer.byteLength(value, 'utf8');
      if (needed > this.#bytes.length) this.#grow(needed);
    }
    this.#used += this.#bytes.write(value, this.#used, 'utf8');
  }

  #grow(needed: number): void {
    const bigger = Buffer.from(
      new SharedArrayBuffer(Math.max(needed, Math.ceil(this.#bytes.length * 1.5))),
    );
    this.#bytes.copy(bigger, 0, 0, this.#used);
    this.#bytes = bigger;
  }
}
