/**
 * Feeder files → records, read before any traffic (spec §2.3). CSV goes through csv-parse (a
 * real parser: quotes, escapes, embedded newlines), with a header row naming the fields; JSON is
 * an array of flat objects; NDJSON one object per line. Values become strings (numbers and
 * booleans as written; nested values as JSON). Every problem names the file and the line.
 */
import { parse } from 'csv-parse/sync';
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { ConfigIssue, Source } from '../issues.js';
import type { FeederPlan } from '../plan/plan.js';
import { err, ok, type Result } from '../result.js';
import { formatBytes } from '../sources/file-source.js';

/** Largest feeder file read (records live in memory for the whole run). */
export const MAX_FEEDER_BYTES = 256 * 1024 * 1024;

type Record_ = Readonly<Record<string, string>>;

/** What the loader needs to read a feeder. */
export interface FeederInput {
  /** Absolute path. */
  readonly path: string;
  /** As the user wrote it, for messages. */
  readonly shown: string;
  readonly format: 'csv' | 'json' | 'ndjson' | undefined;
}

/** Reads the records and the union of their field names. */
export function readFeeder(
  input: FeederInput,
): Result<Pick<FeederPlan, 'records' | 'fields'>, ConfigIssue[]> {
  const fail = (
    code: ConfigIssue['code'],
    expected: string,
    actual: string,
    line?: number,
  ): Result<never, ConfigIssue[]> =>
    err([{ code, source: at(input.shown, line), path: ['feeder', 'file'], expected, actual }]);
  const format = input.format ?? formatOf(input.path);
  if (format === undefined)
    return fail(
      'feeder_error',
      'a .csv, .json or .ndjson file (or feeder.format)',
      JSON.stringify(extname(input.path) || 'no extension'),
    );
  let text: string;
  try {
    const size = statSync(input.path).size;
    if (size > MAX_FEEDER_BYTES)
      return fail(
        'file_too_large',
        `a feeder file of at most ${formatBytes(MAX_FEEDER_BYTES)}`,
        formatBytes(size),
      );
    text = readFileSync(input.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      code === 'ENOENT' ? 'file_not_found' : 'file_unreadable',
      'an existing, readable feeder file',
      code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable'),
    );
  }
  const parsed =
    format === 'csv'
      ? parseCsv(text)
      : format === 'json'
        ? parseJsonArray(text)
        : parseNdjson(text);
  if (!parsed.ok)
    return fail('feeder_error', parsed.error.expected, parsed.error.actual, parsed.error.line);
  if (parsed.value.length === 0)
    return fail('feeder_error', 'at least one record', 'an empty feeder');
  const fields = [...new Set(parsed.value.flatMap((record) => Object.keys(record)))];
  return ok({ records: parsed.value, fields });
}

interface ParseProblem {
  readonly expected: string;
  readonly actual: string;
  readonly line?: number;
}

function formatOf(path: string): FeederInput['format'] {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  return undefined;
}

function parseCsv(text: string): Result<Record_[], ParseProblem> {
  try {
    const rows = parse<Record<string, string>>(text, {
      columns: true,
      skip_empty_lines: true,
      trim: false,
      bom: true,
    });
    return ok(rows.map((row) => Object.assign(Object.create(null) as Record<string, string>, row)));
  } catch (error) {
    const { message, lines } = error as { message: string; lines?: number };
    return err({
      expected: 'well-formed CSV with a header row',
      actual: message.replace(/^Invalid[^:]*:\s*/, ''),
      ...(lines === undefined ? {} : { line: lines }),
    });
  }
}

function parseJsonArray(text: string): Result<Record_[], ParseProblem> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err({ expected: 'a JSON array of objects', actual: (error as Error).message });
  }
  if (!Array.isArray(value))
    return err({
      expected: 'a JSON array of objects',
      actual: value === null ? 'null' : typeof value,
    });
  const records: Record_[] = [];
  for (let i = 0; i < value.length; i++) {
    const record = toRecord(value[i]);
    if (record === undefined)
      return err({
        expected: `an object at index ${i}`,
        actual: JSON.stringify(value[i])?.slice(0, 60) ?? 'undefined',
      });
    records.push(record);
  }
  return ok(records);
}

function parseNdjson(text: string): Result<Record_[], ParseProblem> {
  const records: Record_[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return err({
        expected: 'one JSON object per line',
        actual: (error as Error).message,
        line: i + 1,
      });
    }
    const record = toRecord(value);
    if (record === undefined)
      return err({ expected: 'one JSON object per line', actual: line.slice(0, 60), line: i + 1 });
    records.push(record);
  }
  return ok(records);
}

/** A flat object → string fields (null-prototype, so "__proto__" is just a field name). */
function toRecord(value: unknown): Record_ | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = Object.create(null) as Record<string, string>;
  for (const [key, field] of Object.entries(value)) {
    record[key] = typeof field === 'string' ? field : JSON.stringify(field);
  }
  return record;
}

function at(file: string, line: number | undefined): Source {
  return line === undefined ? { kind: 'file', file } : { kind: 'file', file, line, column: 1 };
}
