/**
 * Every file a run writes — the report files (`--json`, `--html`, `--junit`, `--summary-md`,
 * `--raw`), the HTTP debug log and `--out json=` — checked before any traffic, without blocking:
 * a FIFO nothing reads (whose open(2) would wait for a reader forever, past every signal), a path
 * under /proc or /sys, a directory, a socket, or a folder barrage cannot write in is refused,
 * naming the flag and the path, and nothing is sent.
 *
 * A pipe with a reader (`--json /dev/stdout | jq`, a FIFO a reader holds open) is accepted, and
 * the descriptor the check opened is kept for the report file written at the end (heldPipe), so
 * a reader that left meanwhile fails that write (EPIPE) instead of hanging its open.
 */
import { accessSync, closeSync, constants, openSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Plan } from '../model/plan/plan.js';
import { HTTP_DEBUG_STDERR } from '../model/plan/http-debug-plan.js';
import { fileError } from './report-files.js';

/** A file a run writes, the flag (and key) that asked for it, and what it is. */
export interface OutputPath {
  readonly flag: string;
  readonly what: string;
  readonly path: string;
}

/** Write descriptors of pipes whose reader was there at the check, by resolved path. */
const held = new Map<string, number>();

/** The files `plan` writes. */
export function outputPathsOf(plan: Plan): OutputPath[] {
  const { report, httpDebug, outputs } = plan;
  const paths: OutputPath[] = [];
  const add = (flag: string, what: string, path: string | undefined): void => {
    if (path !== undefined) paths.push({ flag, what, path });
  };
  add('--json: report.json', 'the JSON result', report.json);
  add('--html: report.html', 'the HTML report', report.html);
  add('--junit: report.junit', 'the JUnit report', report.junit);
  add('--summary-md: report.summary_md', 'the Markdown summary', report.summaryMd);
  add('--raw: report.raw', 'the raw result', report.raw);
  if (httpDebug !== undefined && httpDebug.file !== HTTP_DEBUG_STDERR)
    add('--http-debug-file: http_debug.file', 'the HTTP debug log', httpDebug.file);
  for (const output of outputs.outputs)
    if (output.kind === 'json') add('--out json=: outputs', 'a JSON output', output.target);
  return paths;
}

/** The first refusal of `paths` (relative to `cwd`) as a message, or undefined when all can be written. */
export function checkOutputPaths(cwd: string, paths: readonly OutputPath[]): string | undefined {
  for (const { flag, what, path } of paths) {
    const why = refusal(resolve(cwd, path));
    if (why !== undefined)
      return `${flag}: expected a file barrage can write (${what}), got ${JSON.stringify(path)}: ${why}`;
  }
  return undefined;
}

/** The descriptor the check kept for the pipe at `path` (resolved), taken once; else undefined. */
export function heldPipe(path: string): number | undefined {
  const fd = held.get(path);
  held.delete(path);
  return fd;
}

function refusal(path: string): string | undefined {
  if (isUnder(path, '/proc') || isUnder(path, '/sys'))
    return 'a path under /proc or /sys (the kernel’s files, not a place for a report)';
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return fileError(error);
    return folderRefusal(dirname(path));
  }
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  if (stat.isFIFO()) return pipeRefusal(path);
  if (stat.isFile()) return writable(path);
  return undefined;
}

/** A file not there yet: its nearest existing folder (the rest is created) must be writable. */
function folderRefusal(folder: string): string | undefined {
  for (let dir = folder; ; dir = dirname(dir)) {
    let stat: Stats;
    try {
      stat = statSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && dirname(dir) !== dir) continue;
      return fileError(error);
    }
    if (!stat.isDirectory()) return `${JSON.stringify(dir)} is not a folder`;
    const why = writable(dir);
    return why === undefined ? undefined : `the folder ${JSON.stringify(dir)}: ${why}`;
  }
}

function writable(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return fileError(error);
  }
}

/**
 * A pipe: opened for writing without blocking, which fails with ENXIO when nothing reads it. With
 * a reader, a blocking descriptor (opened at once, as the reader is there) is kept for the end.
 */
function pipeRefusal(path: string): string | undefined {
  let probe: number;
  try {
    probe = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO')
      return 'a FIFO (named pipe) that nothing reads; start its reader first';
    return fileError(error);
  }
  try {
    if (!held.has(path)) held.set(path, openSync(path, 'w'));
  } finally {
    closeSync(probe);
  }
  return undefined;
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root + sep);
}
