/**
 * Reads a HAR file: size checked before reading (MAX_HAR_BYTES), JSON parsed (a HARP file's
 * JSONP wrapper `name({...});` taken off first), then each entry checked against har-schema.ts.
 * A malformed entry is not fatal: it is left out (undefined at its index) and counted by its
 * problem, and its issues are kept for the case where nothing replayable remains (har-import.ts).
 * Problems come back as ConfigIssues naming the file and, for an entry, its index in log.entries;
 * values are described by their type only, never quoted, since a recording holds cookies and
 * tokens.
 */
import type { z } from 'zod';
import type { ConfigIssue, Source } from '../issues.js';
import { isPlainObject } from '../layers.js';
import { err, ok, type Result } from '../result.js';
import { readBoundedFile } from '../sources/bounded-file.js';
import { harCreatorSchema, harEntrySchema, type HarEntry } from './har-schema.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** Largest HAR file read, in bytes. A browser session of a few minutes is usually 1–20 MiB. */
export const MAX_HAR_BYTES = 50 * 1024 * 1024;
/** Entries with problems reported one by one; past this, one issue counts the rest. */
const MAX_ENTRY_ISSUES = 20;

/** A parsed recording. */
export interface HarFile {
  /** The file as the user named it. */
  readonly file: string;
  /** log.entries in order; undefined where an entry is malformed. */
  readonly entries: readonly (HarEntry | undefined)[];
  /** Malformed entries by problem ("request.url: text (request URL)"), in the summary's terms. */
  readonly malformed: readonly { readonly index: number; readonly reason: string }[];
  /** The malformed entries' issues (the first 20, then a count), shown if nothing else is kept. */
  readonly issues: readonly ConfigIssue[];
  /** The recording tool, e.g. { name: 'WebInspector', version: '537.36' }. */
  readonly creator: { readonly name: string; readonly version?: string | undefined } | undefined;
}

/** Reads and checks the HAR at `path`; issues name it as `shown`. */
export function readHarFile(
  path: string,
  shown: string,
  maxBytes = MAX_HAR_BYTES,
): Result<HarFile, ConfigIssue[]> {
  const text = readBoundedFile(path, 'HAR file', maxBytes);
  if (!text.ok) return err(text.error.map((issue) => ({ ...issue, source: harSource(shown) })));
  return parseHarText(shown, text.value);
}

/** Parses HAR text already in memory. */
export function parseHarText(file: string, text: string): Result<HarFile, ConfigIssue[]> {
  const fail = (expected: string, actual: string) =>
    err([{ code: 'har_error' as const, source: harSource(file), path: [], expected, actual }]);
  // Fiddler and some Windows tools start the file with a byte order mark.
  const bare = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // HARP (HTTP Archive with Padding): the JSON inside a JSONP call, `onInputData({...});`.
  const harp = HARP.exec(bare);
  const json = harp?.[1] ?? bare;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    // The parser's message may quote the input (cookies, tokens): only its position is used.
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    let where = position === undefined ? '' : ` (${lineColumn(json, Number(position))})`;
    if (/end of JSON input/i.test(message)) where = ' (it ends too early: a cut-off file?)';
    const what = harp === null ? 'text that is not JSON' : 'a HARP file whose JSON is broken';
    return fail('a HAR file (JSON with log.entries)', `${what}${where}`);
  }
  const log = isPlainObject(value) ? value.log : undefined;
  if (!isPlainObject(log) || !Array.isArray(log.entries)) {
    const missing = isPlainObject(log) ? 'log.entries' : 'log';
    return fail(
      'a HAR file: JSON with log.entries[] (as browsers and proxies export it)',
      `${describe(value)} without ${missing}`,
    );
  }
  const entries: (HarEntry | undefined)[] = [];
  const malformed: { index: number; reason: string }[] = [];
  const issues: ConfigIssue[] = [];
  let broken = 0;
  const deep = (log.entries as unknown[]).findIndex(hasDeepBody);
  if (deep !== -1)
    return err([
      {
        code: 'har_error',
        source: harSource(file, deep),
        path: ['request', 'postData', 'text'],
        expected: `a JSON body nested at most ${MAX_JSON_DEPTH} levels`,
        actual: `HAR entry ${deep + 1}: a JSON body nested deeper than ${MAX_JSON_DEPTH} levels`,
      },
    ]);
  (log.entries as unknown[]).forEach((raw, index) => {
    const parsed = harEntrySchema.safeParse(raw);
    entries.push(parsed.success ? parsed.data : undefined);
    if (parsed.success) return;
    broken++;
    const found = entryIssues(file, index, raw, parsed.error);
    malformed.push({ index, reason: malformedReason(found[0]) });
    if (broken <= MAX_ENTRY_ISSUES) issues.push(...found);
  });
  if (broken > MAX_ENTRY_ISSUES) {
    issues.push({
      code: 'har_error',
      source: harSource(file),
      path: ['log', 'entries'],
      expected: 'HAR entries with request and response',
      actual: `${broken - MAX_ENTRY_ISSUES} more broken entries (the first ${MAX_ENTRY_ISSUES} are listed)`,
    });
  }
  return ok({ file, entries, malformed, issues, creator: harCreatorSchema.parse(log.creator) });
}

/** True for an entry whose request body is text nested deeper than MAX_JSON_DEPTH. */
function hasDeepBody(raw: unknown): boolean {
  const request = isPlainObject(raw) ? raw.request : undefined;
  const post = isPlainObject(request) ? request.postData : undefined;
  const text = isPlainObject(post) ? post.text : undefined;
  return typeof text === 'string' && nestsDeeperThan(text, MAX_JSON_DEPTH);
}

/** A JSONP call around the whole text: a name, "(", the JSON, ")" and an optional ";". */
const HARP = /^\s*[A-Za-z_$][\w$.]*\s*\(([\s\S]*)\)\s*;?\s*$/;

/** "request.postData.params[].value: text (form field value)": the same for every index. */
function malformedReason(issue: ConfigIssue | undefined): string {
  if (issue === undefined) return 'malformed entry';
  const path = issue.path
    .map((p) => (typeof p === 'number' ? '[]' : `.${p}`))
    .join('')
    .replace(/^\./, '');
  return `malformed entry (${path === '' ? 'the entry' : path}: expected ${issue.expected})`;
}

/** The source of a HAR problem: the file, or one entry of it. */
export function harSource(file: string, entry?: number): Source {
  return entry === undefined ? { kind: 'har', file } : { kind: 'har', file, entry };
}

/** One issue per zod problem in entry `index`, with the path inside the entry. */
function entryIssues(file: string, index: number, raw: unknown, error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    return {
      code: 'har_error',
      source: harSource(file, index),
      path,
      expected: issue.message,
      actual: describe(valueAt(raw, path)),
    };
  });
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/** A value's kind, never its content. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}

/** "line L, column C" (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
