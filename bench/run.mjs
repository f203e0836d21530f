// `npm run bench`: barrage against its peers in one run, as ratios (never absolute goals: the
// machine decides absolute numbers). Not part of `npm test`.
//   BENCH_SECONDS         length of each throughput/rate phase (default 10)
//   BENCH_MEMORY_SECONDS  length of the memory phase (default 60; use 600 for the 10-minute check)
//   BENCH_FEEDER_MB       size of the feeder phase's CSV (default 100)
//   BENCH_STARTUP_ROUNDS  runs of each command in the startup phase (default 15)
// Phases: throughput, scripted, rate, paced, memory, dashboard, feeder, outputs, http2, startup; name some to run only those
// (`npm run bench -- dashboard`).
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dashboardPhase } from './dashboard.mjs';
import { featureCostsPhase } from './feature-costs.mjs';
import { feederPhase } from './feeder.mjs';
import { http2Phase } from './http2.mjs';
import { fileURLToPath } from 'node:url';
import { outputsPhase } from './outputs.mjs';
import { pacedPhase } from './paced.mjs';
import { runAutocannon, runBarrage, runUndiciLoop, runUndiciPaced, runWrk } from './generators.mjs';
import { BIN, pinned } from './processes.mjs';
import { scriptedVusPhase } from './scripted-vus.mjs';
import { startupPhase } from './startup.mjs';
import { startBarrageTarget, startDelayTarget, startNginx } from './targets.mjs';
import { table } from './table.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MEMORY_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const GENERATOR_CORE = 0;
const TARGET_CORE = 1;

const fmt = (n, digits = 2) =>
  n === undefined || n === null || Number.isNaN(n) ? 'n/a' : Number(n).toFixed(digits);

async function throughput() {
  const target = (await startNginx(TARGET_CORE)) ?? (await startBarrageTarget(TARGET_CORE));
  console.log(
    `\n## Throughput: concurrency 50, ${SECONDS}s, target ${target.name} on core ${TARGET_CORE}, generator on core ${GENERATOR_CORE}`,
  );
  const options = { url: target.url, concurrency: 50, seconds: SECONDS, core: GENERATOR_CORE };
  try {
    const rows = [await runBarrage(options), await runAutocannon(options)];
    const wrk = await runWrk(options);
    if (wrk !== undefined) rows.push(wrk);
    // The ceiling of barrage's HTTP path: what undici does with nothing recorded around it.
    rows.push(await runUndiciLoop(options));
    // Two threads need two cores: this row's generator is not pinned (it shares the target's core).
    rows.push(await runBarrage({ ...options, core: undefined, threads: 2 }));
    const autocannon = rows[1].rps;
    table(rows, [
      ['tool', (r) => r.tool],
      ['req/s', (r) => fmt(r.rps, 0)],
      ['p50 ms', (r) => fmt(r.p50)],
      ['p99 ms', (r) => fmt(r.p99)],
      ['CPU s', (r) => fmt(r.cpuSeconds)],
      // CPU per request: the generator's efficiency even when the target, not it, is the limit.
      ['CPU µs/req', (r) => fmt((r.cpuSeconds / (r.rps * SECONDS)) * 1e6, 1)],
      ['max RSS MB', (r) => fmt(r.maxRssMb, 0)],
      ['× autocannon', (r) => fmt(r.rps / autocannon)],
    ]);
    const ratio = rows[0].rps / autocannon;
    console.log(
      `goal: barrage ≥ 1.10 × autocannon → ${fmt(ratio)} ${ratio >= 1.1 ? 'met' : 'NOT met'}`,
    );
  } finally {
    target.stop();
  }
}

async function scripted() {
  const target = await startBarrageTarget(TARGET_CORE);
  console.log(
    `\n## TypeScript scenario vs YAML: one GET /json per iteration, concurrency 50, ${SECONDS}s, target ${target.name}`,
  );
  try {
    const options = { concurrency: 50, seconds: SECONDS, core: GENERATOR_CORE };
    const yaml = await runBarrage({ ...options, url: `${target.url}/json` });
    const script = await runBarrage({
      ...options,
      url: target.url,
      scenario: fileURLToPath(new URL('./scenarios/get-json.ts', import.meta.url)),
    });
    table(
      [yaml, script],
      [
        ['tool', (r) => r.tool],
        ['req/s', (r) => fmt(r.rps, 0)],
        ['p50 ms', (r) => fmt(r.p50)],
        ['p99 ms', (r) => fmt(r.p99)],
        ['failures', (r) => r.result.failures],
      ],
    );
    const ratio = script.rps / yaml.rps;
    console.log(
      `goal: scripted ≥ 0.50 × YAML requests/s → ${fmt(ratio)} ${ratio >= 0.5 ? 'met' : 'NOT met'}`,
    );
  } finally {
    target.stop();
  }
}

async function rateAccuracy() {
  const target = await startDelayTarget(TARGET_CORE, 10);
  console.log(
    `\n## Fixed rate against a 10 ms target (${SECONDS}s each); overhead = barrage's p50 − the target's own p50`,
  );
  try {
    const rows = [];
    for (const rate of [1000, 5000, 20000]) {
      await target.serverP50();
      const run = await runBarrage({
        url: `${target.url}/`,
        concurrency: Math.ceil(rate / 40),
        seconds: SECONDS,
        core: GENERATOR_CORE,
        rate,
      });
      const achieved = run.result.total / SECONDS;
      const serverP50 = await target.serverP50();
      rows.push({
        rate,
        achieved,
        error: ((achieved - rate) / rate) * 100,
        serverP50,
        p50: run.p50,
        overhead: run.p50 - serverP50,
        late: run.result.late,
        dropped: run.result.dropped,
      });
      console.log(`  ${rate}/s done`);
    }
    table(rows, [
      ['rate/s', (r) => r.rate],
      ['achieved/s', (r) => fmt(r.achieved, 1)],
      ['error %', (r) => fmt(r.error)],
      ['target p50 ms', (r) => fmt(r.serverP50, 3)],
      ['barrage p50 ms', (r) => fmt(r.p50, 3)],
      ['p50 overhead ms', (r) => fmt(r.overhead, 3)],
      ['late', (r) => r.late],
      ['dropped', (r) => r.dropped],
    ]);
    // The machine's floor: the same measure for bare undici Clients woken by a timer. A process
    // that sleeps between events pays the machine's wake-up latency on every response.
    await target.serverP50();
    const paced = await runUndiciPaced({
      url: `${target.url}/`,
      rate: 5000,
      seconds: SECONDS,
      core: GENERATOR_CORE,
    });
    const floor = paced.p50 - (await target.serverP50());
    console.log(`floor: bare undici Clients at 5000/s, p50 overhead ${fmt(floor, 3)} ms`);
    const five = rows.find((r) => r.rate === 5000);
    console.log(
      `goal: 5000/s within 1% and p50 overhead < 0.3 ms → ${fmt(five.error)}%, ${fmt(five.overhead, 3)} ms ${Math.abs(five.error) <= 1 && five.overhead < 0.3 ? 'met' : 'NOT met'}`,
    );
  } finally {
    target.stop();
  }
}

async function memory() {
  const target = await startBarrageTarget(TARGET_CORE);
  console.log(`\n## Memory over ${MEMORY_SECONDS}s at 2000/s (RSS every 5 s)`);
  try {
    const [cmd, args] = pinned(GENERATOR_CORE, process.execPath, [
      BIN,
      'run',
      '--target',
      `${target.url}/json`,
      '-r',
      '2000',
      '-c',
      '50',
      '-d',
      `${MEMORY_SECONDS}s`,
      '--json-output',
      '--quiet',
    ]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const samples = [];
    const timer = setInterval(() => {
      try {
        const pid = child.pid; // taskset execs the program in place: the pid is node's own
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
        if (rss !== undefined) samples.push(Number(rss) / 1024);
      } catch {
        // the process is ending
      }
    }, 5000);
    await new Promise((resolve) => child.on('close', resolve));
    clearInterval(timer);
    console.log(`RSS MB: ${samples.map((s) => fmt(s, 0)).join(' ')}`);
    const half = Math.floor(samples.length / 2);
    if (half >= 1) {
      const early = Math.max(...samples.slice(1, half + 1));
      const late = Math.max(...samples.slice(half));
      console.log(
        `growth from the first half's peak to the second half's: ${fmt(late - early, 1)} MB ${late - early < 10 ? '(flat)' : '(GROWING)'}`,
      );
    }
  } finally {
    target.stop();
  }
}

// The live dashboard's cost: CPU per frame, then req/s with and without it in a pseudo-terminal.
async function dashboard() {
  await dashboardPhase({ seconds: SECONDS });
}

// Paced CPU per request against autocannon -R, and a ramp's per-second accuracy (bench/paced.mjs).
async function paced() {
  await pacedPhase({ seconds: SECONDS, generatorCore: GENERATOR_CORE, targetCore: TARGET_CORE });
}

// What live outputs cost the load, a failing receiver's included (bench/outputs.mjs).
async function outputs() {
  await outputsPhase({
    seconds: SECONDS,
    generatorCore: GENERATOR_CORE,
    targetCore: TARGET_CORE,
    fmt,
  });
}

// barrage over HTTP/1.1 and HTTP/2 against one TLS target, h2load beside it when installed
// (bench/http2.mjs).
async function http2() {
  await http2Phase({
    seconds: SECONDS,
    generatorCore: GENERATOR_CORE,
    targetCore: TARGET_CORE,
    fmt,
  });
}

// Start-up: each command's wall time as a ratio to `node -e 0` in the same run (bench/startup.mjs).
async function startup() {
  console.log('\n## Start-up: median over rounds, as a ratio to `node -e 0` measured alongside');
  const rows = await startupPhase({ core: GENERATOR_CORE, targetCore: TARGET_CORE });
  const base = rows[0].wallMs;
  table(rows, [
    ['command', (r) => r.name],
    ['wall ms', (r) => fmt(r.wallMs, 0)],
    ['CPU ms', (r) => fmt(r.cpuMs, 0)],
    ['× node -e 0', (r) => fmt(r.wallMs / base)],
    ['goal', (r) => (r.goal === undefined ? '' : `≤ ${r.goal}`)],
    ['', (r) => (r.goal === undefined ? '' : r.wallMs / base <= r.goal ? 'met' : 'NOT met')],
  ]);
}

const only = process.argv.slice(2);
const feeder = () => feederPhase({ megabytes: Number(process.env.BENCH_FEEDER_MB ?? 100) });
const phases = {
  throughput,
  scripted,
  rate: rateAccuracy,
  paced,
  memory,
  dashboard,
  feeder,
  outputs,
  http2,
  startup,
  vus: scriptedVusPhase,
  features: () => featureCostsPhase({ seconds: SECONDS }),
};
console.log(`barrage bench on ${process.version}, ${SECONDS}s phases`);
for (const [name, phase] of Object.entries(phases))
  if (only.length === 0 || only.includes(name)) await phase();
