/**
 * The files of `multipart:` fields, read at load time (relative to the configuration file) so that
 * nothing is read while traffic runs and a missing file stops the run before anything is sent.
 * Every thread holds them, so their total is capped.
 *
 * A file path with placeholders (`file: "photos/{{photo}}"`) names a file per feeder record: its
 * placeholders must be feeder fields, and it is rendered with every record, each distinct path
 * read once. Those paths must lie inside the configuration's folder (by their real paths): a
 * record naming a file outside it, or one missing, is a validation error naming the record.
 */
import { resolve } from 'node:path';
import type { ConfigIssue } from '../issues.js';
import type { Provenance } from '../layers.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import { parseTemplate } from '../grammar/placeholder.js';
import { isInsideFolder } from '../script/scenario-folder.js';
import type { FeederPlan } from '../../model/plan/plan.js';
import { templateVariables } from '../../model/plan/template.js';
import { formatBytes, readBoundedBytes } from './bounded-file.js';
import { feederColumn } from './feeder-column.js';

/** Largest total of the multipart files of every endpoint. */
export const MAX_MULTIPART_BYTES = 10 * 1024 * 1024;

/** The files one multipart file part may send, by the path it renders (as written when static). */
export type MultipartFileSet = ReadonlyMap<string, Uint8Array>;

/** Every multipart file part's files, by multipartFileKey(endpoint index, field name, item). */
export type MultipartFiles = ReadonlyMap<string, MultipartFileSet>;

/** The key of a multipart file part: its endpoint's index, its field's name, its place in a list. */
export function multipartFileKey(endpoint: number, field: string, item: number): string {
  return `${endpoint}\n${field}\n${item}`;
}

type Path = readonly (string | number)[];

/** What reading the files needs, and the running total. */
interface Reader {
  readonly baseDir: string;
  readonly provenance: Provenance;
  readonly feeder: FeederPlan | undefined;
  readonly issues: ConfigIssue[];
  total: number;
}

/** Reads every multipart file; each problem names the field's file key and where it was written. */
export function readMultipartFiles(
  config: Config,
  baseDir: string,
  provenance: Provenance,
  feeder?: FeederPlan,
): Result<MultipartFiles, ConfigIssue[]> {
  const files = new Map<string, MultipartFileSet>();
  const reader: Reader = { baseDir, provenance, feeder, issues: [], total: 0 };
  (config.endpoints ?? []).forEach((endpoint, index) => {
    for (const [name, given] of Object.entries(endpoint.multipart ?? {})) {
      const items = Array.isArray(given) ? given : [given];
      items.forEach((value, item) => {
        if (typeof value !== 'object') return;
        const at = ['endpoints', index, 'multipart', name, ...(Array.isArray(given) ? [item] : [])];
        const set = readFileSet(reader, value.file, [...at, 'file']);
        if (set !== undefined) files.set(multipartFileKey(index, name, item), set);
      });
    }
  });
  return reader.issues.length > 0 ? err(reader.issues) : ok(files);
}

/** The files of one part: one, or one per distinct path its feeder records render. */
function readFileSet(reader: Reader, file: string, path: Path): MultipartFileSet | undefined {
  const parsed = parseTemplate(file);
  // An invalid placeholder is the schema's issue already.
  if (!parsed.ok) return undefined;
  const names = templateVariables(parsed.value);
  if (names.length === 0) {
    const bytes = readOne(reader, resolve(reader.baseDir, file), JSON.stringify(file), path);
    return bytes === undefined ? undefined : new Map([[file, bytes]]);
  }
  const fields = reader.feeder?.records.fields ?? [];
  const unknown = names.filter((name) => !fields.includes(name));
  if (unknown.length > 0) {
    reader.issues.push({
      code: 'unknown_variable',
      source: reader.provenance.sourceOf(path),
      path,
      expected: `placeholders that are fields of the feeder (${fields.length === 0 ? 'no feeder is set' : fields.join(', ')}): every file a record names is read before any traffic`,
      actual: `${JSON.stringify(file)}: ${unknown.map((n) => `{{${n}}}`).join(', ')}`,
    });
    return undefined;
  }
  const set = new Map<string, Uint8Array>();
  const records = reader.feeder!.records;
  const columns = new Map(names.map((name) => [name, feederColumn(records, name)]));
  for (let row = 0; row < records.count; row++) {
    const rendered = parsed.value
      .map((part) =>
        typeof part === 'string' ? part : 'var' in part ? (columns.get(part.var)![row] ?? '') : '',
      )
      .join('');
    if (set.has(rendered)) continue;
    const full = resolve(reader.baseDir, rendered);
    const named = `${JSON.stringify(rendered)} (feeder record ${row + 1})`;
    if (!isInsideFolder(reader.baseDir, full)) {
      reader.issues.push({
        code: 'invalid_value',
        source: reader.provenance.sourceOf(path),
        path,
        expected: `a file inside the configuration's folder (${reader.baseDir})`,
        actual: `${named}: outside it`,
      });
      return undefined;
    }
    const bytes = readOne(reader, full, named, path);
    if (bytes === undefined) return undefined;
    set.set(rendered, bytes);
  }
  return set;
}

/** One file's bytes, counted in the total; undefined after an issue (naming it as `named`). */
function readOne(reader: Reader, full: string, named: string, path: Path): Uint8Array | undefined {
  const read = readBoundedBytes(full, 'multipart file', MAX_MULTIPART_BYTES - reader.total);
  if (!read.ok) {
    for (const issue of read.error) {
      const tooLarge = issue.code === 'file_too_large';
      reader.issues.push({
        ...issue,
        source: reader.provenance.sourceOf(path),
        path,
        expected: tooLarge
          ? `multipart files of at most ${formatBytes(MAX_MULTIPART_BYTES)} in all`
          : issue.expected,
        actual: `${named}: ${issue.actual}`,
      });
    }
    return undefined;
  }
  reader.total += read.value.length;
  return read.value;
}
