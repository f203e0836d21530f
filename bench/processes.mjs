// Running load generators as child processes: pinning to a core, CPU time, peak memory.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI (BENCH_BIN: another build's bin.js, to compare builds phase by phase). */
export const BIN =
  process.env.BENCH_BIN ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const HAS_TASKSET = spawnSync('taskset', ['--version']).status === 0;

/** [command, args] pinned to `core` with taskset when available. */
export function pinned(core, command, args) {
  return HAS_TASKSET && core !== undefined
    ? ['taskset', ['-c', String(core), command, ...args]]
    : [command, args];
}

/** True when a program is on PATH. */
export function has(program) {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

/**
 * Runs a command to completion under GNU time when present; returns { stdout, cpuSeconds,
 * maxRssMb } (cpu and memory undefined without /usr/bin/time).
 */
export function measure(core, command, args, options = {}) {
  const timed = has('/usr/bin/time');
  const [cmd, argv] = pinned(core, command, args);
  const full = timed ? ['/usr/bin/time', ['-f', 'BENCH_TIME %U %S %M', cmd, ...argv]] : [cmd, argv];
  return new Promise((resolve, reject) => {
    const child = spawn(full[0], full[1], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    options.onSpawn?.(child);
    child.on('error', reject);
    child.on('close', () => {
      const time = /BENCH_TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      resolve({
        stdout,
        stderr,
        cpuSeconds: time ? Number(time[1]) + Number(time[2]) : undefined,
        maxRssMb: time ? Number(time[3]) / 1024 : undefined,
      });
    });
  });
}
