/**
 * A result file read as JSON, for the commands that read results (`merge`, `compare`, `run
 * --baseline`): bounded in size, each problem an issue naming the file, never a crash.
 */
import { resolve } from 'node:path';
import type { ConfigIssue } from '../dsl/issues.js';
import { readBoundedFile } from '../dsl/sources/bounded-file.js';
import { err, ok, type Result } from '../dsl/result.js';

/** Largest result file read (an hour-long segment with many endpoints stays far below it). */
export const MAX_RESULT_BYTES = 256 * 1024 * 1024;

/**
 * The JSON value of `file` (relative to `cwd`); `what` names it in a size or read error,
 * `expected` in a parse error.
 */
export function readResultJson(
  cwd: string,
  file: string,
  what: string,
  expected: string,
): Result<unknown, ConfigIssue[]> {
  const source = { kind: 'file', file } as const;
  const text = readBoundedFile(resolve(cwd, file), what, MAX_RESULT_BYTES);
  if (!text.ok) return err(text.error.map((issue) => ({ ...issue, source })));
  try {
    return ok(JSON.parse(text.value) as unknown);
  } catch (error) {
    return err([
      { code: 'parse_error', source, path: [], expected, actual: (error as Error).message },
    ]);
  }
}
