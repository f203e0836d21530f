/**
 * Feeder files → records, read before any traffic (spec §2.3). CSV goes through csv-parse (a
 * real parser: quotes, escapes, embedded newlines), with a header row naming the fields; JSON is
 * an array of flat objects; NDJSON one object per line. Values become strings (numbers and
 * booleans as written; nested values as JSON), and a JSON record's non-strings are marked typed:
 * a JSON body sends them as numbers, booleans, objects or arrays. Every problem names the file and the line.
 */
import { Parser } from 'csv-parse';
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';
import { extname } from 'node:path';
import type { ConfigIssue, Source } from '../issues.js';
import type { FeederPlan, FeederTable } from '../../model/plan/plan.js';
import { err, ok, type Result } from '../result.js';
import { readBoundedBytes, withBoundedFile } from '../sources/bounded-file.js';
import { ColumnTypes, unknownColumns, type ColumnType } from './column-types.js';
import { FeederTableBuilder } from './feeder-table-builder.js';
import { MAX_SHAREGPT_BYTES, parseShareGpt, type ShareGptMaxTokens } from './read-sharegpt.js';

/** Largest feeder file read (records live in memory for the whole run). */
export const MAX_FEEDER_BYTES = 256 * 1024 * 1024;

/** What the loader needs to read a feeder. */
export interface FeederInput {
  /** Absolute path. */
  readonly path: string;
  /** As the user wrote it, for messages. */
  readonly shown: string;
  readonly format: 'csv' | 'json' | 'ndjson' | 'sharegpt' | undefined;
  /** A ShareGPT file's max_tokens of each record (read-sharegpt.ts). */
  readonly maxTokens?: ShareGptMaxTokens;
  /** Typed CSV columns (feeder.types); a JSON record's values keep their own types. */
  readonly types?: Readonly<Record<string, ColumnType>> | undefined;
  /** Bytes of a CSV or ShareGPT file read at a time (a test varies the boundaries). */
  readonly chunkBytes?: number;
}

/** Reads the records into a compact table (FeederTable), fields named once. */
export function readFeeder(input: FeederInput): Result<Pick<FeederPlan, 'records'>, ConfigIssue[]> {
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
  const types = input.types ?? {};
  if (format !== 'csv' && Object.keys(types).length > 0)
    return fail(
      'feeder_error',
      'feeder.types only with a CSV file (JSON values keep their own types)',
      `a ${format} file`,
    );
  const read =
    format === 'csv'
      ? withBoundedFile(input.path, 'feeder file', MAX_FEEDER_BYTES, (fd, size) =>
          parseCsv(fd, size, input.chunkBytes ?? CHUNK_BYTES, types),
        )
      : format === 'sharegpt'
        ? withBoundedFile(input.path, 'ShareGPT file', MAX_SHAREGPT_BYTES, (fd, size) =>
            parseShareGpt(fd, size, input.maxTokens, input.chunkBytes),
          )
        : readJson(input.path, format);
  if (!read.ok) return fail(read.error[0]!.code, read.error[0]!.expected, read.error[0]!.actual);
  const parsed = read.value;
  if (!parsed.ok)
    return fail('feeder_error', parsed.error.expected, parsed.error.actual, parsed.error.line);
  if (parsed.value.count === 0)
    return fail('feeder_error', 'at least one record', 'an empty feeder');
  return ok({ records: parsed.value });
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

/**
 * Bytes of the file read at a time: the file is never whole in memory, only its table. The UTF-8
 * check makes a string of each chunk; at 64 KiB it dies young, where 1 MiB chunks went to V8's
 * large-object space and waited for a full collection (peak 3.02 × a 100 MB CSV, now 2.82 ×).
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * CSV is read in chunks (first counting lines, the most records there can be), each written
 * synchronously into csv-parse's stream parser, whose on_record stores the row and returns null:
 * the parser keeps no rows. The header row names the fields (a repeated name keeps its last
 * column, as objects did); a strict UTF-8 decoder checks the bytes on the way.
 */
function parseCsv(
  fd: number,
  size: number,
  chunkMost: number,
  types: Readonly<Record<string, ColumnType>>,
): Result<FeederTable, ParseProblem> {
  const chunkBytes = Math.min(chunkMost, Math.max(size, 1));
  const lines = countLines(fd, size, chunkBytes);
  let builder: FeederTableBuilder | undefined;
  let columns: number[] = [];
  let row: string[] = [];
  let typing: ColumnTypes | undefined;
  let problem: ParseProblem | undefined;
  const parser = new Parser({
    skip_empty_lines: true,
    trim: false,
    bom: true,
    on_record: (record: string[], info) => {
      if (problem !== undefined) return null;
      if (builder === undefined) {
        const index = new Map<string, number>();
        for (const name of record) if (!index.has(name)) index.set(name, index.size);
        const fields = [...index.keys()];
        columns = record.map((name) => index.get(name)!);
        row = new Array<string>(fields.length);
        builder = new FeederTableBuilder(fields, size, lines);
        problem = headerProblem(fields, types, info.lines);
        typing = new ColumnTypes(fields, types);
      } else {
        for (let c = 0; c < record.length; c++) row[columns[c]!] = record[c]!;
        const wrong = typing!.apply(row);
        if (wrong === undefined) builder.add(row, typing!.typed);
        else
          problem = {
            expected: `${wrong.expected} in column ${wrong.column} (feeder.types)`,
            actual: wrong.actual,
            line: info.lines,
          };
      }
      return null;
    },
  });
  parser.on('error', () => undefined);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let notUtf8 = false;
  // A fresh buffer per chunk: csv-parse keeps the bytes after a chunk's last whole token as a
  // view of that chunk (state.previousBuf), which a reused buffer would overwrite.
  eachChunk(
    fd,
    size,
    () => Buffer.allocUnsafe(chunkBytes),
    (bytes) => {
      if (parser.errored !== null || notUtf8) return;
      try {
        utf8.decode(bytes, { stream: true });
      } catch {
        notUtf8 = true;
      }
      parser.write(bytes);
    },
  );
  if (notUtf8)
    return err({ expected: 'a feeder file in UTF-8', actual: 'bytes that are not UTF-8' });
  parser.end();
  if (problem !== undefined) return err(problem);
  const error: (Error & { lines?: number }) | null = parser.errored;
  if (error !== null)
    return err({
      expected: 'well-formed CSV with a header row',
      actual: error.message.replace(/^Invalid[^:]*:\s*/, ''),
      ...(error.lines === undefined ? {} : { line: error.lines }),
    });
  return ok((builder ?? new FeederTableBuilder([], 0, 0)).finish());
}

/** The lines of the file (one more than its newlines): the most records there can be. */
function countLines(fd: number, size: number, chunkBytes: number): number {
  const counting = Buffer.allocUnsafe(chunkBytes);
  let lines = 1;
  eachChunk(
    fd,
    size,
    () => counting,
    (bytes) => {
      for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) lines++;
    },
  );
  return lines;
}

/** A problem when feeder.types names a column the header row does not have. */
function headerProblem(
  fields: readonly string[],
  types: Readonly<Record<string, ColumnType>>,
  line: number,
): ParseProblem | undefined {
  const unknown = unknownColumns(fields, types);
  if (unknown.length === 0) return undefined;
  return {
    expected: `feeder.types naming columns of the header row (${fields.join(', ')})`,
    actual: unknown.join(', '),
    line,
  };
}

/** Calls `visit` with each successive chunk of the file, read into the buffer `next()` gives. */
function eachChunk(
  fd: number,
  size: number,
  next: () => Buffer,
  visit: (bytes: Buffer) => void,
): void {
  for (let offset = 0; offset < size;) {
    const chunk = next();
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - offset), offset);
    if (read === 0) return;
    visit(chunk.subarray(0, read));
    offset += read;
  }
}

/** A JSON or NDJSON feeder, read whole. */
function readJson(
  path: string,
  format: 'json' | 'ndjson',
): Result<Result<FeederTable, ParseProblem>, ConfigIssue[]> {
  const bytes = readBoundedBytes(path, 'feeder file', MAX_FEEDER_BYTES);
  if (!bytes.ok) return bytes;
  if (!isUtf8(bytes.value))
    return ok(err({ expected: 'a feeder file in UTF-8', actual: 'bytes that are not UTF-8' }));
  return ok(format === 'json' ? parseJsonArray(bytes.value) : parseNdjson(bytes.value));
}

/** A JSON array is parsed whole (JSON.parse has no streaming form): NDJSON suits large feeders. */
function parseJsonArray(bytes: Buffer): Result<FeederTable, ParseProblem> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return err({ expected: 'a JSON array of objects', actual: (error as Error).message });
  }
  if (!Array.isArray(value))
    return err({
      expected: 'a JSON array of objects',
      actual: value === null ? 'null' : typeof value,
    });
  const objects: unknown[] = value;
  for (let i = 0; i < objects.length; i++) {
    if (!isFlatRecord(objects[i]))
      return err({
        expected: `an object at index ${i}`,
        actual: JSON.stringify(objects[i])?.slice(0, 60) ?? 'undefined',
      });
  }
  return ok(tableOf(objects as object[], bytes.length));
}

/** One object per line; each line is parsed twice (field names, then values) to keep no objects. */
function parseNdjson(bytes: Buffer): Result<FeederTable, ParseProblem> {
  const names = new Set<string>();
  let records = 0;
  const problem = eachLine(bytes, (value, line) => {
    if (!isFlatRecord(value)) return line;
    for (const key of Object.keys(value)) names.add(key);
    records++;
    return undefined;
  });
  if (problem !== undefined) return err(problem);
  const builder = new FeederTableBuilder([...names], bytes.length, records);
  const index = new Map([...names].map((name, i) => [name, i]));
  eachLine(bytes, (value) => {
    addRecord(builder, value as object, index);
    return undefined;
  });
  return ok(builder.finish());
}

/** Calls `visit` with each non-blank line's JSON; stops at the first problem. */
function eachLine(
  bytes: Buffer,
  visit: (value: unknown, line: number) => number | undefined,
): ParseProblem | undefined {
  let line = 0;
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const text = bytes.toString('utf8', start, end).trim();
    start = end + 1;
    line++;
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { expected: 'one JSON object per line', actual: (error as Error).message, line };
    }
    if (visit(value, line) !== undefined)
      return { expected: 'one JSON object per line', actual: text.slice(0, 60), line };
  }
  return undefined;
}

/** JSON objects → a table whose fields are the union of their keys, in order of appearance. */
function tableOf(objects: readonly object[], byteHint: number): FeederTable {
  const index = new Map<string, number>();
  for (const object of objects)
    for (const key of Object.keys(object)) if (!index.has(key)) index.set(key, index.size);
  const builder = new FeederTableBuilder([...index.keys()], byteHint, objects.length);
  for (const object of objects) addRecord(builder, object, index);
  return builder.finish();
}

/** Adds a record's values in field order: strings as they are, other values as typed JSON text. */
function addRecord(
  builder: FeederTableBuilder,
  object: object,
  index: ReadonlyMap<string, number>,
): void {
  const values = new Array<string | undefined>(index.size);
  const typed = new Array<boolean>(index.size).fill(false);
  for (const [key, field] of Object.entries(object)) {
    const f = index.get(key)!;
    values[f] = typeof field === 'string' ? field : JSON.stringify(field);
    typed[f] = typeof field !== 'string';
  }
  builder.add(values, typed);
}

function isFlatRecord(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function at(file: string, line: number | undefined): Source {
  return line === undefined ? { kind: 'file', file } : { kind: 'file', file, line, column: 1 };
}
