/**
 * The hub (runtime/script/sandbox.ts): a context of its own that holds no user code and carries
 * the records between host and isolate in batches. `main` returns [add, pump, take, post]:
 *   add(vu, entry)    registers a virtual user's entry function
 *   pump(records)     delivers a flat array of records [vu, kind, a, b, c, …] to the entries
 *   take()            the flat array of records [vu, kind, a, b, c] posted since the last take;
 *                     it runs no code of the scenario's
 *   post(vu, kind, a, b, c)   how an entry posts a record (primitives, or a BYTES record's buffer)
 * Records cross both ways copied (structured clone), not as JSON: JSON would escape the JSON
 * texts they carry, and measured slower both ways.
 */
import {
  MAX_LOGS_PER_TAKE,
  RECORD,
  RECORD_WIDTH,
  RESPONSE_WIDTH,
  type Entry,
  type Post,
  type RecordValue,
} from './records.js';

/** The hub's functions. */
export type Hub = readonly [
  add: (vu: number, entry: Entry) => void,
  pump: (records: readonly RecordValue[]) => void,
  take: () => RecordValue[],
  post: Post,
];

const entries = new Map<RecordValue | undefined, Entry>();
let out: RecordValue[] = [];
let logs = 0;
let dropped = 0;

const post: Post = (vu, kind, a, b, c) => {
  if (kind === RECORD.LOG && logs++ >= MAX_LOGS_PER_TAKE) dropped++;
  else out.push(vu, kind, a, b, c);
};

const add = (vu: number, entry: Entry): void => {
  entries.set(vu, entry);
};

/** What an entry threw, as text: its message read under a try, as the scenario made it. */
const describe = (error: unknown): string => {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return 'an error that cannot be described';
  }
};

/** Delivers one record at `i`; returns its width. */
const deliver = (records: readonly RecordValue[], i: number): number => {
  const kind = records[i + 1];
  const entry = entries.get(records[i]);
  try {
    if (entry !== undefined && kind === RECORD.RESPONSE)
      entry(
        kind,
        records[i + 2],
        records[i + 3],
        records[i + 4],
        records[i + 5],
        records[i + 6],
        records[i + 7],
        records[i + 8],
        records[i + 9],
        records[i + 10],
        records[i + 11],
        records[i + 12],
        records[i + 13],
        records[i + 14],
      );
    else if (entry !== undefined) entry(kind, records[i + 2], records[i + 3], records[i + 4]);
  } catch (error) {
    // The entry threw (the scenario broke a built-in it relies on): the host ends what runs there.
    out.push(records[i]!, RECORD.FAULT, describe(error), '', 0);
  }
  return kind === RECORD.RESPONSE ? RESPONSE_WIDTH : RECORD_WIDTH;
};

const pump = (records: readonly RecordValue[]): void => {
  for (let i = 0; i < records.length;) i += deliver(records, i);
};

const take = (): RecordValue[] => {
  if (dropped > 0) out.push(0, RECORD.LOG, '', '', dropped);
  logs = 0;
  dropped = 0;
  const taken = out;
  out = [];
  return taken;
};

/** The hub's functions (see the file comment). */
export function main(): Hub {
  return [add, pump, take, post];
}
