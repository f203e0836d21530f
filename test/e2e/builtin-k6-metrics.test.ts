// k6's built-in metrics barrage measures (issue 26): http_req_waiting, iteration_duration and
// vus_max, through the built CLI against a target that times itself: it sends the headers 50 ms
// after a request arrives and the body 50 ms later. Client figures are compared with the
// server's own times (a client's span starts before and ends after the server's).
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCli } from '../helpers/run-cli.js';

/** What the server saw: per request, ms from arrival to its headers and to its end. */
interface Timings {
  readonly headers: number[];
  readonly total: number[];
}

/** Slack for the loopback round trip and the client's own work around the server's spans, ms. */
const SLACK_MS = 40;

async function slowHeaders(t: Test): Promise<{ url: string; timings: Timings }> {
  const timings: Timings = { headers: [], total: [] };
  const server = createServer((_req, res) => {
    const arrived = performance.now();
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      timings.headers.push(performance.now() - arrived);
      setTimeout(() => {
        res.end('ok');
        timings.total.push(performance.now() - arrived);
      }, 50);
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, timings };
}

interface Latency {
  readonly min: number;
  readonly p50: number;
  readonly max: number;
}
interface Report {
  readonly waiting_ms: Latency | null;
  readonly mean_latency_ms: number;
  readonly p50_latency_ms: number;
  readonly iteration_duration_ms: Latency | null;
  readonly vus_max: number | null;
  readonly endpoints: readonly { readonly name: string; readonly waiting_ms: Latency | null }[];
  readonly scenarios?: Readonly<Record<string, Report>>;
  readonly thresholds: {
    readonly results: readonly { threshold: string; actual: number | null; pass: boolean }[];
  };
}

function verdicts(report: Report): Record<string, boolean> {
  return Object.fromEntries(report.thresholds.results.map((r) => [r.threshold, r.pass]));
}

const FLOW_THRESHOLDS = [
  'http_req_waiting{endpoint=slow}:p50 < 2000',
  'http_req_waiting:max < 10',
  'iteration_duration:p95 < 5000',
  'iteration_duration:min < 100',
  'vus_max:value == 2',
];

for (const threads of [1, 2]) {
  t.test(`time to first byte and iteration duration (${threads} thread(s))`, async (t) => {
    const { url, timings } = await slowHeaders(t);
    const config = [
      `target: ${url}`,
      'concurrency: 2',
      'requests: 4',
      `threads: ${threads}`,
      'endpoints:',
      '  - { name: slow, url: /slow }',
      'flows:',
      '  - { name: twice, steps: [slow, slow] }',
      'thresholds:',
      ...FLOW_THRESHOLDS.map((e) => `  - '${e}'`),
    ].join('\n');
    const dir = t.testdir({ 'slow.yaml': config });
    const run = await runCli(['run', join(dir, 'slow.yaml'), '--json-output', '--quiet'], {
      cwd: dir,
    });
    t.equal(run.code, 1, `two thresholds fail: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as Report;
    t.equal(timings.headers.length, 8, '4 flows of 2 requests');
    const headersMin = Math.min(...timings.headers);
    const headersMax = Math.max(...timings.headers);
    const totalMin = Math.min(...timings.total);
    const totalMax = Math.max(...timings.total);
    const waiting = report.waiting_ms!;
    t.ok(
      // Never before the server sent them; the median within its range (the max is where a busy
      // machine's event loop shows, so it is not held to the server's).
      waiting.min >= headersMin - 1 && waiting.p50 <= headersMax + SLACK_MS,
      `waiting ${waiting.min}..${waiting.max} ms (p50 ${waiting.p50}), the server's ${headersMin}..${headersMax} ms`,
    );
    t.ok(
      report.p50_latency_ms >= totalMin - 1 && report.p50_latency_ms <= totalMax + SLACK_MS,
      `duration p50 ${report.p50_latency_ms} ms, the server's ${totalMin}..${totalMax} ms`,
    );
    t.ok(waiting.p50 < report.p50_latency_ms, 'the headers come before the body');
    t.same(report.endpoints[0]!.waiting_ms, waiting, 'one endpoint: its figures are the run’s');
    const iteration = report.iteration_duration_ms!;
    t.ok(
      iteration.min >= 2 * totalMin - 1 && iteration.p50 <= 2 * totalMax + 2 * SLACK_MS,
      `iteration ${iteration.min}..${iteration.max} ms (p50 ${iteration.p50}), two requests of ${totalMin}..${totalMax}`,
    );
    t.equal(report.vus_max, 2, 'constant VUs: all allocated, over the threads');
    t.same(verdicts(report), {
      'http_req_waiting{endpoint=slow}:p50 < 2000': true,
      'http_req_waiting:max < 10': false,
      'iteration_duration:p95 < 5000': true,
      'iteration_duration:min < 100': false,
      'vus_max:value == 2': true,
    });
  });
}

/**
 * Runs one scenario (YAML lines under `scenarios:`) against the slow target on 2 threads, with
 * these thresholds, one of which fails; its JSON report.
 */
async function runScenario(
  t: Test,
  scenario: readonly string[],
  thresholds: readonly string[],
): Promise<Report> {
  const { url } = await slowHeaders(t);
  const config = [
    `target: ${url}`,
    'threads: 2',
    'endpoints:',
    '  - { name: slow, url: /slow }',
    'scenarios:',
    ...scenario,
    'thresholds:',
    ...thresholds.map((e) => `  - '${e}'`),
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': config });
  const run = await runCli(['run', join(dir, 'load.yaml'), '--json-output', '--quiet'], {
    cwd: dir,
  });
  t.equal(run.code, 1, `one threshold fails: ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

t.test('vus_max of an arrival-rate pool that grows up to max_vus', async (t) => {
  const report = await runScenario(
    t,
    [
      '  pay:',
      '    executor: constant-arrival-rate',
      '    rate: 20',
      '    duration: 1s',
      '    pre_allocated_vus: 2',
      '    max_vus: 4',
      '    endpoints: [slow]',
    ],
    ['vus_max{scenario=pay}:value <= 4', 'vus_max:max >= 10'],
  );
  // 20/s of 100 ms requests keep 2 busy on average: the pool grows past its 2 when they bunch.
  t.ok(report.vus_max! >= 2 && report.vus_max! <= 4, `vus_max ${report.vus_max}`);
  t.equal(report.scenarios!.pay!.vus_max, report.vus_max, "the run's is its one scenario's");
  t.same(verdicts(report), {
    'vus_max{scenario=pay}:value <= 4': true,
    'vus_max:max >= 10': false,
  });
});

t.test('vus: the virtual users running, sampled once a second, over 2 threads', async (t) => {
  const report = (await runScenario(
    t,
    ['  steady: { executor: constant-vus, vus: 3, duration: 2500ms }'],
    ['vus:max == 3', 'vus{scenario=steady}:value == 3', 'vus:min > 3'],
  )) as Report & { readonly vus: { value: number; min: number; max: number } | null };
  t.same(report.vus, { value: 3, min: 3, max: 3 }, '3 VUs running in each sampled second');
  t.same(verdicts(report), {
    'vus:max == 3': true,
    'vus{scenario=steady}:value == 3': true,
    'vus:min > 3': false,
  });
});
