// The `paced` phase: CPU per request of a paced run at 1,000/s and at 10,000/s against a 10 ms
// target, then a ramp from 0 to 20,000/s over the phase, whose per-second counts must stay within
// 1 % of the plan in every second after the first.
// The CPU goal is barrage within 1.3 × the floor: bare undici Clients paced evenly by a timer
// (bench/undici-paced.mjs), what any client that spaces its requests evenly pays. Runs of barrage
// and of the floor alternate, BENCH_PACED_PAIRS times (default 3), and each row is their median.
// autocannon `-R` (the first yardstick) runs once beside them and its ratio is printed,
// but it does not pace: each connection sends its share of the second back to back from the
// second's start (lib/httpClient.js, `reqsMadeThisSecond`), so its responses come in bursts and
// share wake-ups, which an evenly paced client cannot do (docs/performance.md, "Paced runs").
//
// CPU is read from /proc/<pid>/stat (user + system, every thread) twice while the run is steady,
// WARM_S after the start and END_MARGIN_S before the phase's end, so neither tool's start-up or
// report is counted: µs/request = CPU in the window / (rate × the window's length).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, pinned } from './processes.mjs';
import { startDelayTarget } from './targets.mjs';
import { table } from './table.mjs';

const require = createRequire(import.meta.url);
const WARM_S = 2;
const END_MARGIN_S = 0.5;
const RATES = [1000, 10000];
const RAMP_TO = 20000;
const GOAL = 1.3;
const PAIRS = Number(process.env.BENCH_PACED_PAIRS ?? 3);
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

const fmt = (n, digits = 1) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) of a live process, from /proc/<pid>/stat; undefined once gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis start at field 3; utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Runs `command args` (pinned to `core`; taskset execs in place, so the pid is the program's) and
 * samples its CPU over [WARM_S, seconds - END_MARGIN_S]; resolves { stdout, windowCpu, windowS }.
 */
async function runSampled(core, command, args, seconds) {
  const [cmd, argv] = pinned(core, command, args);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const closed = new Promise((resolve) => child.on('close', resolve));
  await sleep(WARM_S * 1000);
  const first = cpuSeconds(child.pid);
  const windowS = seconds - END_MARGIN_S - WARM_S;
  await sleep(windowS * 1000);
  const last = cpuSeconds(child.pid);
  await closed;
  const windowCpu = first === undefined || last === undefined ? undefined : last - first;
  return { stdout, windowCpu, windowS, json: () => parse(stdout, stderr) };
}

/** The JSON a generator printed; its stderr (progress lines) only when there is none. */
function parse(stdout, stderr) {
  try {
    return JSON.parse(stdout);
  } catch (error) {
    process.stderr.write(stderr);
    throw error;
  }
}

/** barrage at a fixed rate: { usPerRequest, achieved } */
async function barrageAt(url, rate, seconds, core) {
  const run = await runSampled(
    core,
    process.execPath,
    [
      BIN,
      'run',
      '--target',
      url,
      '-r',
      String(rate),
      '-c',
      String(connections(rate)),
      '-d',
      `${seconds}s`,
      '--json-output',
    ],
    seconds,
  );
  return {
    tool: 'barrage',
    usPerRequest: (run.windowCpu / (rate * run.windowS)) * 1e6,
    achieved: run.json().total / seconds,
  };
}

/** autocannon at a fixed overall rate: { usPerRequest, achieved } */
async function autocannonAt(url, rate, seconds, core) {
  const cli = require.resolve('autocannon/autocannon.js');
  const run = await runSampled(
    core,
    process.execPath,
    [cli, '-c', String(connections(rate)), '-R', String(rate), '-d', String(seconds), '-j', url],
    seconds,
  );
  return {
    tool: 'autocannon -R',
    usPerRequest: (run.windowCpu / (rate * run.windowS)) * 1e6,
    achieved: run.json().requests.total / seconds,
  };
}

/** The floor: bare undici Clients paced evenly (bench/undici-paced.mjs); { usPerRequest } */
async function floorAt(url, rate, seconds, core) {
  const script = fileURLToPath(new URL('./undici-paced.mjs', import.meta.url));
  const run = await runSampled(
    core,
    process.execPath,
    [script, url, String(rate), String(seconds)],
    seconds,
  );
  const { busy } = run.json();
  return {
    tool: 'floor: bare undici, paced',
    usPerRequest: (run.windowCpu / (rate * run.windowS)) * 1e6,
    achieved: (rate * seconds - busy) / seconds,
  };
}

/** The run of median CPU per request among runs of one tool, with how many there were. */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.usPerRequest - b.usPerRequest);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], runs: runs.length };
}

/** Connections for a 10 ms target at `rate`, as the rate phase picks them (25 ms each). */
function connections(rate) {
  return Math.ceil(rate / 40);
}

/**
 * barrage ramping 0 → RAMP_TO over the phase, with a worker for each 50 ms of the peak rate (at
 * 25 ms, as above, a target slowed by the load runs out of workers and permits wait: late, not
 * the schedule's doing): per second, the completions against the plan. The
 * series counts a request in the second it completes, so the plan is the integral shifted by the
 * run's median latency: plan(k) = P(k + 1 - lag) - P(k - lag), P(t) = RAMP_TO · t² / (2 · seconds).
 */
async function ramp(url, seconds, core) {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bench-ramp-'));
  try {
    const config = join(dir, 'ramp.yaml');
    writeFileSync(
      config,
      `target: ${url}\nconcurrency: ${RAMP_TO / 20}\n` +
        `pattern: { type: ramp, from: 0, to: ${RAMP_TO}, duration: ${seconds}s }\n`,
    );
    const run = await runSampled(
      core,
      process.execPath,
      [BIN, 'run', config, '--json-output'],
      seconds,
    );
    const result = run.json();
    const lag = result.p50_latency_ms / 1000;
    const planned = (t) => (RAMP_TO * Math.max(0, t) ** 2) / (2 * seconds);
    const rows = result.series
      .filter((point) => point.second >= 1 && point.second < seconds)
      .map((point) => {
        const plan = planned(point.second + 1 - lag) - planned(point.second - lag);
        return {
          second: point.second,
          plan,
          actual: point.requests,
          deviation: point.requests / plan - 1,
        };
      });
    return {
      rows,
      total: result.total,
      planTotal: planned(seconds),
      late: result.late,
      dropped: result.dropped,
      p50: result.p50_latency_ms,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The phase: CPU per paced request against autocannon, then the ramp's accuracy. */
export async function pacedPhase({ seconds, generatorCore, targetCore }) {
  const target = await startDelayTarget(targetCore, 10);
  const url = `${target.url}/`;
  console.log(
    `\n## Paced CPU: µs of generator CPU per request between ${WARM_S}s and ${seconds - END_MARGIN_S}s of ${seconds}s runs, target ${target.name}`,
  );
  try {
    const rows = [];
    for (const rate of RATES) {
      const barrage = [];
      const floor = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        barrage.push(await barrageAt(url, rate, seconds, generatorCore));
        floor.push(await floorAt(url, rate, seconds, generatorCore));
      }
      const autocannon = await autocannonAt(url, rate, seconds, generatorCore);
      rows.push(
        ...[medianRun(barrage), autocannon, medianRun(floor)].map((row) => ({ ...row, rate })),
      );
    }
    table(rows, [
      ['rate/s', (r) => r.rate],
      ['tool', (r) => r.tool],
      ['µs/request', (r) => fmt(r.usPerRequest)],
      ['of runs', (r) => r.runs ?? 1],
      ['achieved/s', (r) => fmt(r.achieved)],
    ]);
    for (const rate of RATES) {
      const [barrage, autocannon, floor] = rows.filter((r) => r.rate === rate);
      const ratio = barrage.usPerRequest / floor.usPerRequest;
      console.log(
        `${rate}/s: barrage µs/request ${fmt(barrage.usPerRequest)}, floor ${fmt(floor.usPerRequest)}: ` +
          `× floor ${fmt(ratio, 2)}; goal ≤ ${GOAL} → ${ratio <= GOAL ? 'met' : 'NOT met'} ` +
          `(× autocannon -R ${fmt(barrage.usPerRequest / autocannon.usPerRequest, 2)}, which bursts instead of pacing)`,
      );
    }
    const {
      rows: perSecond,
      total,
      planTotal,
      late,
      dropped,
      p50,
    } = await ramp(url, seconds, generatorCore);
    console.log(
      `ramp 0 → ${RAMP_TO}/s over ${seconds}s: ${total} requests (plan ${fmt(planTotal, 0)}), ` +
        `${late} late, ${dropped} dropped, p50 ${fmt(p50, 2)} ms; completed/planned per second ` +
        perSecond.map((r) => `${r.second}: ${r.actual}/${fmt(r.plan, 0)}`).join(', '),
    );
    const worst = Math.max(...perSecond.map((r) => Math.abs(r.deviation)));
    console.log(
      `goal: every second after the first within 1 % of the plan → worst ${fmt(worst * 100, 2)} % ${worst <= 0.01 ? 'met' : 'NOT met'}`,
    );
  } finally {
    target.stop();
  }
}
