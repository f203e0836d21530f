/**
 * Reads a YAML or JSON configuration (JSON is read by the YAML 1.2 parser, so both get line and
 * column positions) with the limits of DESIGN.md §9: a size cap checked before reading, the alias
 * cap kept, nesting bounded. The result keeps the parsed document to locate any key path later.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Node,
} from 'yaml';
import type { ConfigIssue, Source } from '../issues.js';
import { err, ok, type Result } from '../result.js';

/** Largest configuration file read, in bytes. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** Deepest nesting of mappings and lists accepted. */
export const MAX_NESTING = 64;
/** Most alias dereferences accepted (a "billion laughs" document exceeds it at once). */
export const MAX_ALIASES = 100;

/** A parsed input document and a way to map key paths back to file positions. */
export interface SourceDoc {
  readonly file: string;
  readonly value: unknown;
  /** The position of the value at `path` (or of its key, when `key` is true), else the nearest parent's. */
  locate(path: readonly (string | number)[], key?: boolean): Source;
}

/** Reads and parses a configuration file; every problem comes back as a ConfigIssue. */
export function readSourceFile(
  file: string,
  what = 'configuration file',
  maxBytes = MAX_CONFIG_BYTES,
): Result<SourceDoc, ConfigIssue[]> {
  const text = readBoundedFile(file, what, maxBytes);
  return text.ok ? parseSourceText(file, text.value) : text;
}

/** Reads a UTF-8 file through readBoundedBytes; bytes that are not UTF-8 are refused. */
export function readBoundedFile(
  file: string,
  what: string,
  maxBytes: number,
): Result<string, ConfigIssue[]> {
  const bytes = readBoundedBytes(file, what, maxBytes);
  if (!bytes.ok) return bytes;
  if (!isUtf8(bytes.value))
    return err([
      {
        code: 'file_unreadable',
        source: { kind: 'file', file },
        path: [],
        expected: `a ${what} in UTF-8`,
        actual: 'bytes that are not UTF-8',
      },
    ]);
  return ok(bytes.value.toString('utf8'));
}

/** Reads a regular file of at most `maxBytes` whole (see withBoundedFile). */
export function readBoundedBytes(
  file: string,
  what: string,
  maxBytes: number,
): Result<Buffer, ConfigIssue[]> {
  return withBoundedFile(file, what, maxBytes, readAtMost);
}

/**
 * Opens a regular file of at most `maxBytes` and hands `use` its descriptor and size (closed
 * after). The path is stat'ed before it is opened, so a FIFO (whose open blocks until a writer
 * comes), a device such as /dev/zero (endless, and its size reads 0), a directory or a socket is
 * refused at once, naming what it is; an oversized file is refused with its size and the limit. It
 * is then opened non-blocking and checked again on the descriptor, so a path swapped in between
 * cannot block either. `use` reads at most `size` bytes; an I/O error there is an issue too.
 */
export function withBoundedFile<T>(
  file: string,
  what: string,
  maxBytes: number,
  use: (fd: number, size: number) => T,
): Result<T, ConfigIssue[]> {
  const fail = (code: ConfigIssue['code'], expected: string, actual: string) =>
    err([{ code, source: { kind: 'file', file } as const, path: [], expected, actual }]);
  const refusal = (stat: Stats) => {
    if (!stat.isFile()) return fail('file_unreadable', `a regular ${what}`, specialKind(stat));
    if (stat.size <= maxBytes) return undefined;
    const limit = `a ${what} of at most ${formatBytes(maxBytes)}`;
    return fail('file_too_large', limit, formatBytes(stat.size));
  };
  let fd: number | undefined;
  try {
    const before = refusal(statSync(file));
    if (before !== undefined) return before;
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    return refusal(stat) ?? ok(use(fd, stat.size));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    if (code === 'ENOENT') return fail('file_not_found', `an existing ${what}`, 'no such file');
    return fail('file_unreadable', `a readable ${what}`, code);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Up to `size` bytes from the start of `fd` (fewer if the file shrank meanwhile). */
function readAtMost(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, buffer, filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

/** What a path that is not a regular file is, for messages. */
function specialKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'a special file';
}

/** Parses YAML/JSON text already in memory (used for files and for tests). */
export function parseSourceText(file: string, text: string): Result<SourceDoc, ConfigIssue[]> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): Source => {
    const pos = lines.linePos(offset);
    return { kind: 'file', file, line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return err(
      doc.errors.map((error) => {
        const deep = /call stack/i.test(error.message);
        return {
          code: deep ? 'too_deep' : 'parse_error',
          source: at(error.pos[0]),
          path: [],
          expected: deep ? `nesting at most ${MAX_NESTING} levels deep` : 'valid YAML or JSON',
          actual: deep
            ? 'a deeper document'
            : (error.message.split(' at line')[0] ?? error.message),
        };
      }),
    );
  }
  const tooDeep = findTooDeep(doc.contents);
  if (tooDeep !== undefined) {
    return err([
      {
        code: 'too_deep',
        source: at(tooDeep),
        path: [],
        expected: `nesting at most ${MAX_NESTING} levels deep`,
        actual: 'a deeper document',
      },
    ]);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) {
      return err([
        {
          code: 'alias_limit',
          source: { kind: 'file', file },
          path: [],
          expected: `at most ${MAX_ALIASES} alias expansions`,
          actual: 'an alias bomb (too many * references)',
        },
      ]);
    }
    throw error;
  }
  const locate = (path: readonly (string | number)[], key = false): Source => {
    const offset = locateOffset(doc.contents, path, key);
    return offset === undefined ? { kind: 'file', file } : at(offset);
  };
  return ok({ file, value: value ?? {}, locate });
}

/** Offset of the deepest node along `path` (its key when asked), walking maps and lists. */
function locateOffset(
  root: unknown,
  path: readonly (string | number)[],
  key: boolean,
): number | undefined {
  let node = root;
  let offset = rangeStart(node);
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(part),
      );
      if (pair === undefined) return offset;
      const last = i === path.length - 1;
      if (last && key) return rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
    } else {
      return offset;
    }
    offset = rangeStart(node) ?? offset;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return node !== null && typeof node === 'object' && 'range' in node
    ? (node as Node).range?.[0]
    : undefined;
}

/** Offset of the first collection nested deeper than MAX_NESTING, found without recursion. */
function findTooDeep(root: unknown): number | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (isAlias(node) || !(isMap(node) || isSeq(node))) continue;
    if (depth > MAX_NESTING) return rangeStart(node) ?? 0;
    for (const item of node.items) {
      if (isPair(item)) stack.push({ node: item.value, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return undefined;
}

/** 4194304 → "4 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
