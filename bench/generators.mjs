// The load generators compared: barrage, autocannon, wrk, and the bare undici loop. Each returns
// { tool, rps, p50, p99, cpuSeconds, maxRssMb } for the same target, concurrency and duration.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BIN, has, measure } from './processes.mjs';

const require = createRequire(import.meta.url);

/** barrage run, closed model (or at `rate`), no dashboard, JSON result. */
export async function runBarrage({
  url,
  concurrency,
  seconds,
  core,
  rate,
  threads = 1,
  extra = [],
  scenario,
}) {
  // As the bin's shebang starts it: plain node (a scenario's isolates run in child processes).
  const args = [
    BIN,
    'run',
    '--target',
    url,
    '-c',
    String(concurrency),
    '-d',
    `${seconds}s`,
    '--threads',
    String(threads),
    '--json-output',
    ...extra,
  ];
  if (rate !== undefined) args.push('-r', String(rate));
  if (scenario !== undefined) args.push('--scenario', scenario);
  const run = await measure(core, process.execPath, args);
  const result = JSON.parse(run.stdout);
  return {
    tool: `barrage${scenario === undefined ? '' : ' (TypeScript scenario)'}${threads > 1 ? ` (${threads} threads)` : ''}`,
    rps: result.requests_per_sec,
    p50: result.p50_latency_ms,
    p99: result.p99_latency_ms,
    cpuSeconds: run.cpuSeconds,
    maxRssMb: run.maxRssMb,
    result,
  };
}

/**
 * barrage under each of `configs` ([name, extra flags]), `rounds` times, the configurations
 * alternating within each round so that a noisy spell falls on all of them; the runs of each.
 */
export async function alternateBarrage(configs, rounds, options) {
  const runs = configs.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [i, [, extra]] of configs.entries())
      runs[i].push(await runBarrage({ ...options, extra: [...extra, ...(options.extra ?? [])] }));
  return runs;
}

/** autocannon (devDependency), same concurrency and duration. */
export async function runAutocannon({ url, concurrency, seconds, core }) {
  const cli = require.resolve('autocannon/autocannon.js');
  const run = await measure(core, process.execPath, [
    cli,
    '-c',
    String(concurrency),
    '-d',
    String(seconds),
    '-j',
    url,
  ]);
  const result = JSON.parse(run.stdout);
  return {
    tool: 'autocannon',
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuSeconds: run.cpuSeconds,
    maxRssMb: run.maxRssMb,
  };
}

/**
 * bench/undici-loop.mjs: undici's `Client.dispatch()` with nothing else (no latency figures);
 * `h2` offers HTTP/2 by ALPN.
 */
export async function runUndiciLoop({ url, concurrency, seconds, core, h2 = false }) {
  const script = fileURLToPath(new URL('./undici-loop.mjs', import.meta.url));
  const run = await measure(core, process.execPath, [
    script,
    url,
    String(concurrency),
    String(seconds),
    ...(h2 ? ['h2'] : []),
  ]);
  return {
    tool: `undici dispatch() loop${h2 ? ', h2' : ''}`,
    rps: JSON.parse(run.stdout).rps,
    p50: undefined,
    p99: undefined,
    cpuSeconds: run.cpuSeconds,
    maxRssMb: run.maxRssMb,
  };
}

/** bench/undici-paced.mjs: bare undici Clients at a fixed rate, paced by a timer; { p50 }. */
export async function runUndiciPaced({ url, rate, seconds, core }) {
  const script = fileURLToPath(new URL('./undici-paced.mjs', import.meta.url));
  const run = await measure(core, process.execPath, [script, url, String(rate), String(seconds)]);
  return { p50: JSON.parse(run.stdout).p50_ms };
}

/** wrk with one thread, when installed. */
export async function runWrk({ url, concurrency, seconds, core }) {
  if (!has('wrk')) return undefined;
  const run = await measure(core, 'wrk', [
    '-t1',
    `-c${concurrency}`,
    `-d${seconds}s`,
    '--latency',
    url,
  ]);
  const ms = (text) => {
    const m = /^([\d.]+)(us|ms|s)$/.exec(text);
    return m === null ? undefined : Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  return {
    tool: 'wrk',
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1]),
    p50: ms(/50%\s+(\S+)/.exec(run.stdout)?.[1] ?? ''),
    p99: ms(/99%\s+(\S+)/.exec(run.stdout)?.[1] ?? ''),
    cpuSeconds: run.cpuSeconds,
    maxRssMb: run.maxRssMb,
  };
}
