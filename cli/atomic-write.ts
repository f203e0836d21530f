/**
 * Writing a file so that it is either whole or not there: the text goes to a temporary file in
 * the same folder (so the rename stays on one file system), is flushed to the disk, and is then
 * renamed over the target, which POSIX rename(2) does atomically. A failed write (a full disk,
 * EFBIG past a file-size limit, EACCES) removes the temporary file and leaves the target as it
 * was: absent, or the complete previous file. CI never picks up a half-written report.
 *
 * Only regular files are replaced this way. A symbolic link is followed (the file it points to
 * is replaced, the link stays); a device, pipe or socket (`/dev/stdout`, `/dev/full`, a FIFO) is
 * written in place, as a rename would put a plain file where the device was.
 */
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Replaces `path` with `text`, whole or not at all; throws the write's error. */
export function writeFileAtomic(path: string, text: string): void {
  const target = resolveTarget(path);
  if (target === undefined) return writeFileSync(path, text);
  // Hidden and unique, so neither a glob for reports nor a concurrent run picks it up.
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx');
    try {
      // write(2) may write less than asked (it stops at a file-size limit): loop until all is
      // written, so the shortfall surfaces as the next write's error (EFBIG, ENOSPC).
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      while (written < bytes.length)
        written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Adds `text` to the end of `path` the same way: the old content and the new are written to a
 * temporary file that replaces the old one, so a failed append leaves the old file as it was.
 */
export function appendFileAtomic(path: string, text: string): void {
  if (resolveTarget(path) === undefined) return appendFileSync(path, text);
  let before = '';
  try {
    before = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileAtomic(path, before + text);
}

/** The regular file to replace (symbolic links followed), or undefined for a special file. */
function resolveTarget(path: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    // Nothing there yet (or a dangling link): the new file goes at the path itself.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw error;
  }
  return statSync(real).isFile() ? real : undefined;
}
