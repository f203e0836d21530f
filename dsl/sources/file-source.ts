/**
 * Reads a YAML or JSON configuration (JSON is read by the YAML 1.2 parser, so both get line and
 * column positions) with the limits of DESIGN.md §9: a size cap checked before reading, the alias
 * cap kept, nesting bounded. The result keeps the parsed document to locate any key path later.
 */
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
import { readBoundedFile } from './bounded-file.js';

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
