/**
 * Feeders hand out records (spec §2.3). `sequential` walks one order shared by every worker of the
 * segment, `shuffle` walks a seeded permutation (reshuffled each cycle), `random` draws with
 * replacement. Without `cycle`, next() returns undefined once every record was used, and the run
 * ends (the caller stops dispatch).
 *
 * Records stay in the Plan's FeederTable (shared by every thread, never copied); a segment owns
 * the strided slice first, first + stride, first + 2·stride… (split-plan.ts) and decodes one
 * record's values when it hands it out.
 */
import {
  VALUE_MISSING,
  VALUE_TYPED,
  type FeederPlan,
  type FeederTable,
} from '../../model/plan/plan.js';
import type { Random } from '../../model/random.js';

/** A segment's records: table rows first, first + stride, … below table.count. */
export interface FeederSlice {
  readonly first: number;
  readonly stride: number;
}

/**
 * One record: its values in `fields` order, undefined where it has no such field, and which are
 * typed (JSON text of a JSON record's non-string). The feeder reuses it: it is valid until the
 * next call of next().
 */
export interface FeederRecord {
  readonly fields: readonly string[];
  readonly values: readonly (string | undefined)[];
  readonly typed: readonly boolean[];
}

/** Source of feeder records for one segment. */
export interface Feeder {
  /** The next record, or undefined when the feeder is exhausted. */
  next(): FeederRecord | undefined;
}

/** The number of rows of a slice. */
export function sliceSize(table: FeederTable, slice: FeederSlice): number {
  return slice.first >= table.count ? 0 : Math.ceil((table.count - slice.first) / slice.stride);
}

/** A feeder over this segment's slice of the table, with its own seeded random source. */
export function createFeeder(
  plan: Pick<FeederPlan, 'order' | 'cycle' | 'records'>,
  slice: FeederSlice,
  random: Random,
): Feeder {
  const size = sliceSize(plan.records, slice);
  if (size === 0) return { next: () => undefined };
  const read = recordReader(plan.records);
  const at = (i: number): FeederRecord => read(slice.first + i * slice.stride);
  if (plan.order === 'random') {
    let left = plan.cycle ? Infinity : size;
    return { next: () => (left-- > 0 ? at(random.int(size)) : undefined) };
  }
  let order = plan.order === 'shuffle' ? shuffled(size, random) : undefined;
  let position = 0;
  return {
    next: () => {
      if (position === size) {
        if (!plan.cycle) return undefined;
        position = 0;
        if (order !== undefined) order = shuffled(size, random);
      }
      const index = order === undefined ? position : order[position]!;
      position++;
      return at(index);
    },
  };
}

/** Decodes table rows into one reused record. */
export function recordReader(table: FeederTable): (row: number) => FeederRecord {
  const { fields, ends, kinds } = table;
  const bytes = Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength);
  const values = new Array<string | undefined>(fields.length);
  const typed = new Array<boolean>(fields.length).fill(false);
  const record: FeederRecord = { fields, values, typed };
  return (row) => {
    const first = row * fields.length;
    let start = first === 0 ? 0 : ends[first - 1]!;
    for (let f = 0; f < fields.length; f++) {
      const end = ends[first + f]!;
      const kind = kinds?.[first + f];
      values[f] = kind === VALUE_MISSING ? undefined : bytes.toString('utf8', start, end);
      typed[f] = kind === VALUE_TYPED;
      start = end;
    }
    return record;
  };
}

/** A uniformly random permutation of 0..n-1 (Fisher–Yates). */
function shuffled(n: number, random: Random): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}
