/**
 * A scenario's shared data file (docs/scenarios.md, "Shared data"): read once per process before
 * any traffic, and read by every virtual user from the same memory. Each record is kept as JSON
 * text in ASCII (every other character written as a \u escape), one after the other in `bytes`,
 * with `ends` saying where each ends: the sandbox turns a record's bytes into a string code unit
 * by code unit and JSON.parse decodes the escapes, so the isolate needs no UTF-8 decoder. Both
 * arrays sit on SharedArrayBuffers, which isolated-vm hands to an isolate without a copy.
 */

/** The formats of `data.json()` and `data.csv()`. */
export type SharedDataKind = 'json' | 'csv';

/** One opened data file and its records. */
export interface SharedData {
  /** The name as the scenario passed it to data.json()/data.csv(), which looks it up by it. */
  readonly name: string;
  readonly kind: SharedDataKind;
  /** CSV: the header's field names (a record is the JSON array of its values); JSON: empty. */
  readonly fields: readonly string[];
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/** A data file a scenario's top level opened, as the options reader saw it. */
export interface OpenedData {
  readonly name: string;
  readonly kind: SharedDataKind;
}

/** Why a data file's records cannot be read at the top level (the options reader's and the sandbox's). */
export const READ_AT_TOP_LEVEL =
  'records are read in iterations and setup(), not at the top level of the scenario';
