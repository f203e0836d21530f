/** Feeder tables from plain records and back, for tests of the feeder's compact storage. */
import { FeederTableBuilder } from '../../dsl/feeder/feeder-table-builder.js';
import type { FeederTable } from '../../model/plan/plan.js';
import { recordReader, type FeederRecord } from '../../runtime/feeder/feeder.js';

/** A table of `records` (fields: the union of their keys, in order of appearance). */
export function tableOf(records: readonly Readonly<Record<string, string>>[]): FeederTable {
  const fields = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const builder = new FeederTableBuilder(fields, 0, records.length);
  for (const r of records) builder.add(fields.map((f) => r[f]));
  return builder.finish();
}

/** A record as an object of the fields it has. */
export function objectOf(record: FeederRecord): Record<string, string> {
  const out: Record<string, string> = {};
  record.fields.forEach((field, f) => {
    const value = record.values[f];
    if (value !== undefined) out[field] = value;
  });
  return out;
}

/** Every record of a table, as objects. */
export function rowsOf(table: FeederTable): Record<string, string>[] {
  const read = recordReader(table);
  return Array.from({ length: table.count }, (_, row) => objectOf(read(row)));
}
