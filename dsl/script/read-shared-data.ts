/**
 * The data files a scenario's top level opened (`data.json('users.json')`, `data.csv(…)`; the
 * options reader saw the calls) → SharedData tables, read before any traffic (docs/scenarios.md,
 * "Shared data"). A file must lie inside the scenario's folder by its real path, like an import
 * (scenario-folder.ts), be a regular file of at most MAX_SHARED_DATA_BYTES, and hold records: a JSON
 * array (of any values), or a CSV file with a header row, read by the feeders' CSV reader
 * (csv-parse). Every problem is a ConfigIssue naming the file as the scenario wrote it.
 */
import { join, resolve } from 'node:path';
import type { ConfigIssue, Source } from '../issues.js';
import { MAX_FEEDER_BYTES, readFeeder } from '../feeder/read-feeder.js';
import type { FeederTable } from '../../model/plan/plan.js';
import type { OpenedData, SharedData } from '../../model/plan/shared-data.js';
import { err, ok, type Result } from '../result.js';
import { readBoundedFile } from '../sources/bounded-file.js';
import { isInsideFolder } from './scenario-folder.js';
import { SharedDataBuilder } from './shared-data-builder.js';

/**
 * Largest data file read, the feeders' limit (which the CSV reader applies): barrage's own process
 * parses a JSON file whole (several times its size in objects, for a moment) and V8's strings end
 * at about 512 MiB; each segment process then keeps the records once, about the file's size.
 */
export const MAX_SHARED_DATA_BYTES = MAX_FEEDER_BYTES;

/** Where the scenario is: its real folder, and its folder as the user names it (for messages). */
export interface DataFolder {
  readonly folder: string;
  readonly shownDir: string;
}

/** Reads every opened file; all problems come back at once. */
export function readSharedData(
  opened: readonly OpenedData[],
  where: DataFolder,
): Result<SharedData[], ConfigIssue[]> {
  const tables: SharedData[] = [];
  const issues: ConfigIssue[] = [];
  for (const file of opened) {
    const read = readOne(file, where);
    if (read.ok) tables.push(read.value);
    else issues.push(...read.error);
  }
  return issues.length > 0 ? err(issues) : ok(tables);
}

function readOne(file: OpenedData, where: DataFolder): Result<SharedData, ConfigIssue[]> {
  const shown = join(where.shownDir, file.name);
  const issue = (code: ConfigIssue['code'], expected: string, actual: string, line?: number) =>
    err([
      { code, source: at(shown, line), path: ['scenario', `data.${file.kind}`], expected, actual },
    ]);
  const path = resolve(where.folder, file.name);
  if (!isInsideFolder(where.folder, path))
    return issue(
      'script_error',
      `a data file inside the scenario's folder (${where.folder})`,
      `data.${file.kind}(${JSON.stringify(file.name)}), which is outside it`,
    );
  if (file.kind === 'csv') {
    const read = readFeeder({ path, shown, format: 'csv' });
    if (!read.ok) return err(read.error.map((e) => ({ ...e, path: ['scenario', 'data.csv'] })));
    return ok(csvTable(file.name, read.value.records));
  }
  const text = readBoundedFile(path, 'data file', MAX_SHARED_DATA_BYTES);
  if (!text.ok) {
    const first = text.error[0]!;
    return issue(first.code, first.expected, first.actual);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.value);
  } catch (error) {
    return issue('script_error', 'a JSON array of records', (error as Error).message);
  }
  if (!Array.isArray(value))
    return issue('script_error', 'a JSON array of records', value === null ? 'null' : typeof value);
  const records: unknown[] = value;
  if (records.length === 0) return issue('script_error', 'at least one record', 'an empty array');
  const builder = new SharedDataBuilder(Buffer.byteLength(text.value), records.length);
  for (const record of records) builder.add(record);
  return ok(builder.finish(file.name, 'json', []));
}

/** A CSV feeder table → records as JSON arrays of their values, in the header's order. */
function csvTable(name: string, table: FeederTable): SharedData {
  const width = table.fields.length;
  const builder = new SharedDataBuilder(table.bytes.length + 4 * table.ends.length, table.count);
  const bytes = Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength);
  const values = new Array<string>(width);
  for (let r = 0; r < table.count; r++) {
    for (let f = 0; f < width; f++) {
      const v = r * width + f;
      values[f] = bytes.toString('utf8', v === 0 ? 0 : table.ends[v - 1], table.ends[v]);
    }
    builder.add(values);
  }
  return builder.finish(name, 'csv', table.fields);
}

function at(file: string, line: number | undefined): Source {
  return line === undefined ? { kind: 'file', file } : { kind: 'file', file, line, column: 1 };
}
