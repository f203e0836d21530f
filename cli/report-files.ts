/**
 * Writes the report files a run asked for, each atomically (atomic-write.ts): a file is whole or
 * not there. A file that cannot be written (missing folder rights, disk full, a file-size limit)
 * is reported by name with the reason; the other files are still written. A file marked `append`
 * (the GitHub step summary) is added to, never replaced.
 */
import { closeSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { appendFileAtomic, writeFileAtomic } from './atomic-write.js';
import { heldPipe } from './output-paths.js';

/** One file to write. */
export interface ReportFile {
  /** What it is, for messages: "JSON result", "HTML report"… */
  readonly what: string;
  readonly path: string;
  readonly render: () => string;
  /** Add to the end of the file instead of replacing it. */
  readonly append?: boolean;
}

/** Writes each file; returns one message per failure. */
export function writeReportFiles(cwd: string, files: readonly ReportFile[]): string[] {
  const failures: string[] = [];
  for (const file of files) {
    const path = resolve(cwd, file.path);
    const pipe = heldPipe(path);
    try {
      if (pipe !== undefined) {
        // A pipe whose reader the run's start found (output-paths.ts): written on that descriptor.
        writeFileSync(pipe, file.render());
        continue;
      }
      mkdirSync(dirname(path), { recursive: true });
      if (file.append === true) appendFileAtomic(path, file.render());
      else writeFileAtomic(path, file.render());
    } catch (error) {
      failures.push(`could not write the ${file.what} to ${file.path}: ${fileError(error)}`);
    } finally {
      if (pipe !== undefined) closeSync(pipe);
    }
  }
  return failures;
}

/** A file system error as users read it: its code, and what it means when we know. */
export function fileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return `${code}${REASONS[code] === undefined ? '' : ` (${REASONS[code]})`}`;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent is not a directory',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'larger than the file system or the file-size limit (ulimit -f) allows',
};
