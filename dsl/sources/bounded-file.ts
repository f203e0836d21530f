/**
 * Reads whole files of bounded size (DESIGN.md §9): configurations, feeders, HARs, multipart
 * files and merged results. The size is checked before anything is read, and a path that is not a
 * regular file (a FIFO, a device) is refused instead of blocking or reading forever.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { ConfigIssue } from '../issues.js';
import { err, ok, type Result } from '../result.js';

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
