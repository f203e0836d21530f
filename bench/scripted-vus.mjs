// The `vus` phase (issue 47): scripted virtual users by the thousand. A TypeScript scenario of one
// GET an iteration (bench/scenarios/get-json.ts) on 1,000 and 10,000 virtual users (BENCH_VUS,
// comma-separated) against a target that answers after 1 s, one thread, for BENCH_VUS_SECONDS
// (default 60: each virtual user's context is built before its first iteration, about 12 ms each
// on the project's machine, so 10,000 need minutes to all start). Prints requests/s against the
// closed model's ceiling (virtual users / 1 s), the peak RSS (VmHWM) of barrage and of its
// scenario's child process, and the child's peak divided by the virtual users.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BIN } from './processes.mjs';
import { table } from './table.mjs';
import { startDelayTarget } from './targets.mjs';

const SCENARIO = fileURLToPath(new URL('./scenarios/get-json.ts', import.meta.url));

/** VmHWM of a process in KiB, 0 once it is gone. */
function peakKib(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The pids of a process's children. */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** One run of `vus` scripted virtual users: its JSON result and the peaks. */
async function runVus(url, vus, seconds) {
  const args = [BIN, 'run', '--scenario', SCENARIO, '--target', url, '-c', String(vus)];
  args.push('-d', `${seconds}s`, '--threads', '1', '--no-typecheck', '--json-output');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const peaks = { barrage: 0, scenario: 0 };
  const poll = setInterval(() => {
    peaks.barrage = Math.max(peaks.barrage, peakKib(child.pid));
    for (const pid of childrenOf(child.pid))
      peaks.scenario = Math.max(peaks.scenario, peakKib(pid));
  }, 500);
  await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  return { result: JSON.parse(stdout), ...peaks };
}

/** The phase. */
export async function scriptedVusPhase() {
  const counts = (process.env.BENCH_VUS ?? '1000,10000').split(',').map(Number);
  const seconds = Number(process.env.BENCH_VUS_SECONDS ?? 60);
  const target = await startDelayTarget(1, 1000);
  const rows = [];
  try {
    for (const vus of counts) {
      const run = await runVus(target.url, vus, seconds);
      rows.push({ vus, ...run });
    }
  } finally {
    target.stop();
  }
  const mib = (kib) => (kib / 1024).toFixed(0);
  console.log(`\nScripted virtual users against a 1 s target, ${seconds} s, one thread`);
  table(rows, [
    ['VUs', (r) => String(r.vus)],
    ['req/s', (r) => r.result.requests_per_sec.toFixed(0)],
    ['× VUs/s', (r) => (r.result.requests_per_sec / r.vus).toFixed(2)],
    ['script failures', (r) => String(r.result.iterations_failed)],
    ['barrage MiB', (r) => mib(r.barrage)],
    ['scenario child MiB', (r) => mib(r.scenario)],
    ['child KB a VU', (r) => ((r.scenario * 1.024) / r.vus).toFixed(0)],
  ]);
}
