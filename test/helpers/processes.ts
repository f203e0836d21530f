/**
 * Processes as Linux's /proc shows them: for tests that check no child of barrage's outlives it
 * (a child reparented after its parent died, and never reaped, is a zombie: dead).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The command line of a process, its arguments joined by spaces ('' when it is gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** The pids of the live children of `parent` whose command line contains `command`. */
export function childrenOf(parent: number, command: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue;
    }
    if (new RegExp(`^PPid:\\s+${parent}$`, 'm').test(status) && commandLine(pid).includes(command))
      found.push(pid);
  }
  return found;
}

/** Whether a process is running: it exists, is not a zombie, and still runs `command`. */
export function isRunning(pid: number, command: string): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status) && commandLine(pid).includes(command);
  } catch {
    return false;
  }
}

/** CPU time a process has used, in clock ticks (user + system); 0 when it is gone. */
export function cpuTicks(pid: number): number {
  try {
    // The fields after the command name (which is in parentheses and may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
