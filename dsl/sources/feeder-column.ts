/**
 * One field's values in a feeder table (model/plan/plan.ts's FeederTable), record by record, read
 * at load time by what needs them before traffic (per-user multipart files).
 */
import { VALUE_MISSING, type FeederTable } from '../../model/plan/plan.js';

/** The values of field `name`, one a record (undefined where a record lacks it). */
export function feederColumn(table: FeederTable, name: string): (string | undefined)[] {
  const f = table.fields.indexOf(name);
  const width = table.fields.length;
  const bytes = Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength);
  const values: (string | undefined)[] = [];
  for (let row = 0; row < table.count; row++) {
    const at = row * width + f;
    const start = at === 0 ? 0 : table.ends[at - 1]!;
    const missing = f < 0 || table.kinds?.[at] === VALUE_MISSING;
    values.push(missing ? undefined : bytes.toString('utf8', start, table.ends[at]));
  }
  return values;
}
