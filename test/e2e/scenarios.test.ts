// Named scenarios as users run them: the built CLI spawned against a target started in the test
// that logs, per path, when each request arrived and how many were in flight. A ramping-vus
// browse and a constant-arrival-rate checkout run together from different start times; an
// arrival-rate pool grows up to max_vus when the target slows, and drops what it cannot start;
// thresholds name a scenario; and threads split every scenario exactly.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';

/** What the target saw of one path. */
interface PathLog {
  /** Arrival times, ms since the target started. */
  readonly arrivals: number[];
  inFlight: number;
  maxInFlight: number;
}

/** A target whose /browse and /checkout answer after `delayMs()` ms, logging each path. */
async function startTarget(t: Test, delayMs: (path: string, elapsedMs: number) => number) {
  const started = performance.now();
  const logs = new Map<string, PathLog>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const log = logs.get(path) ?? { arrivals: [], inFlight: 0, maxInFlight: 0 };
    logs.set(path, log);
    const at = performance.now() - started;
    log.arrivals.push(at);
    log.inFlight++;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    setTimeout(
      () => {
        log.inFlight--;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      },
      delayMs(path, at),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const log = (path: string): PathLog =>
    logs.get(path) ?? { arrivals: [], inFlight: 0, maxInFlight: 0 };
  /** An arrival's time on the wall clock (ms since the epoch), as the run records its start. */
  const wallMs = (at: number): number => performance.timeOrigin + started + at;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, wallMs };
}

interface ScenarioJson {
  total: number;
  failures: number;
  iterations: number;
  dropped: number;
}

interface Json extends ScenarioJson {
  started_at: string;
  scenarios: Record<string, ScenarioJson>;
  thresholds?: { results: { threshold: string; pass: boolean }[] };
}

const TWO_SCENARIOS = (target: string) => `
target: ${target}
endpoints:
  - { name: browse, url: /browse }
  - { name: checkout, url: /checkout }
scenarios:
  browse:
    executor: ramping-vus
    start_vus: 1
    stages: [{ duration: 1s, target: 4 }, { duration: 1s, target: 4 }, { duration: 500ms, target: 0 }]
    graceful_ramp_down: 1s
    endpoints: [browse]
  checkout:
    executor: constant-arrival-rate
    rate: 40
    duration: 2s
    pre_allocated_vus: 2
    max_vus: 4
    endpoints: [checkout]
    start_time: 500ms
thresholds:
  - http_requests{scenario=checkout}:count > 40
  - http_requests{scenario=browse}:count < 10
`;

/**
 * Checkout's permits sent and dropped: the plan fixes their sum, while on a busy machine a permit
 * may find no virtual user free in time and be dropped.
 */
function dealt(json: Json): number {
  return json.scenarios.checkout!.total + json.scenarios.checkout!.dropped;
}

async function run(
  t: Test,
  yaml: string,
  ...flags: string[]
): Promise<{ code: number; json: Json }> {
  const file = join(t.testdir(), 'load.yaml');
  writeFileSync(file, yaml);
  const result = await runCli(['run', file, '--json-output', ...flags], { killAfterMs: 60_000 });
  t.equal(result.stderr.includes('    at '), false, 'no stack trace');
  return { code: result.code ?? -1, json: JSON.parse(result.stdout) as Json };
}

t.test('a ramping-vus browse and a constant-arrival-rate checkout run together', async (t) => {
  const target = await startTarget(t, () => 50);
  const { code, json } = await run(t, TWO_SCENARIOS(target.url));
  const browse = target.log('/browse');
  const checkout = target.log('/checkout');
  t.equal(dealt(json), 80, 'checkout: 40/s for 2 s, sent or dropped');
  t.equal(checkout.arrivals.length, json.scenarios.checkout!.total, 'the target saw those sent');
  t.equal(json.scenarios.browse!.total, browse.arrivals.length, 'browse: what the target saw');
  t.equal(browse.maxInFlight, 4, 'browse ramped up to 4 virtual users, never more');
  // checkout's start_time is 500 ms after dispatch began, which the run records as started_at
  // (whole milliseconds: 1 ms of slack).
  const firstCheckout = target.wallMs(Math.min(...checkout.arrivals)) - Date.parse(json.started_at);
  t.ok(
    firstCheckout >= 499,
    `checkout started ${firstCheckout.toFixed(0)} ms after dispatch began`,
  );
  // The checkout's pace: permits due every 25 ms. A busy machine may send some late (a stall
  // then sends a few together), which moves a few gaps; the median gap stays the schedule's.
  const sorted = [...checkout.arrivals].sort((a, b) => a - b);
  const gaps = sorted
    .slice(1)
    .map((at, k) => at - sorted[k]!)
    .sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)]!;
  t.ok(Math.abs(median - 25) <= 5, `checkout's median gap ${median.toFixed(1)} ms ≈ 25 ms`);
  t.equal(
    json.total,
    json.scenarios.browse!.total + json.scenarios.checkout!.total,
    'the run is the sum of its scenarios',
  );
  // The browse threshold fails (it ran far more than 10), the checkout one passes: exit 1.
  t.equal(code, 1);
  t.strictSame(
    json.thresholds?.results.map((r) => r.pass),
    [true, false],
  );
});

t.test('an arrival-rate pool grows to max_vus when the target slows, then drops', async (t) => {
  // 10 ms for the first second, then 200 ms: 50/s needs 1 VU, then 10.
  const target = await startTarget(t, (_path, at) => (at < 1000 ? 10 : 200));
  const yaml = `
target: ${target.url}
endpoints: [{ name: checkout, url: /checkout }]
scenarios:
  checkout:
    executor: constant-arrival-rate
    rate: 50
    duration: 3s
    pre_allocated_vus: 1
    max_vus: 5
`;
  const { code, json } = await run(t, yaml);
  t.equal(code, 0);
  const checkout = target.log('/checkout');
  t.equal(checkout.maxInFlight, 5, 'the pool grew to max_vus, never past it');
  const own = json.scenarios.checkout!;
  t.ok(own.dropped > 0, `${own.dropped} iterations dropped for want of a virtual user`);
  t.equal(own.total + own.dropped, 150, 'sent and dropped are the 150 planned');
  t.equal(checkout.arrivals.length, own.total);
});

t.test('two threads split every scenario exactly', async (t) => {
  const target = await startTarget(t, () => 20);
  const { json } = await run(t, TWO_SCENARIOS(target.url), '--threads', '2');
  t.equal(dealt(json), 80, 'sent and dropped: the 80 planned');
  t.equal(target.log('/checkout').arrivals.length, json.scenarios.checkout!.total);
  t.ok(target.log('/browse').maxInFlight <= 4, 'still at most 4 browsing users over both threads');
});

t.test('Poisson arrivals: a seeded, uneven schedule with the planned mean', async (t) => {
  const target = await startTarget(t, () => 1);
  const yaml = `
target: ${target.url}
seed: 11
endpoints: [{ name: checkout, url: /checkout }]
scenarios:
  checkout:
    executor: constant-arrival-rate
    rate: 200
    duration: 2s
    pre_allocated_vus: 5
    max_vus: 20
    arrivals: poisson
`;
  const first = await run(t, yaml);
  const sent = first.json.scenarios.checkout!.total;
  // 400 expected; a Poisson count has a standard deviation of 20.
  t.ok(Math.abs(dealt(first.json) - 400) <= 80, `${dealt(first.json)} arrivals for a mean of 400`);
  const arrivals = target.log('/checkout').arrivals.slice(0, sent);
  const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  // Exponential gaps: standard deviation ≈ mean (evenly spaced ones would have almost none).
  t.ok(sd > mean * 0.6, `gaps: mean ${mean.toFixed(2)} ms, sd ${sd.toFixed(2)} ms`);
  const again = await run(t, yaml);
  t.equal(dealt(again.json), dealt(first.json), 'the same seed draws the same arrivals');
});

t.test('three --segment processes split every scenario; merged, they are the whole', async (t) => {
  const target = await startTarget(t, () => 20);
  const dir = t.testdir({ 'load.yaml': TWO_SCENARIOS(target.url) });
  const runs = await Promise.all(
    [1, 2, 3].map((i) =>
      runCli(['run', 'load.yaml', '--segment', `${i}/3`, '--raw', `s${i}.json`, '--json-output'], {
        cwd: dir,
        killAfterMs: 60_000,
      }),
    ),
  );
  const parts = runs.map((r) => dealt(JSON.parse(r.stdout) as Json));
  t.strictSame(parts.sort(), [26, 27, 27], 'checkout: 80 dealt out exactly');
  const merged = await runCli(['merge', 's1.json', 's2.json', 's3.json', '--json-output'], {
    cwd: dir,
  });
  const json = JSON.parse(merged.stdout) as Json;
  t.equal(dealt(json), 80, 'merged: the whole checkout');
  t.equal(target.log('/checkout').arrivals.length, json.scenarios.checkout!.total);
  t.equal(json.scenarios.browse!.total, target.log('/browse').arrivals.length);
  t.ok(target.log('/browse').maxInFlight <= 4, 'at most 4 browsing users over three processes');
});

t.test(
  'a TypeScript file: options.scenarios, each running the function its exec names',
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const scenario = join(import.meta.dirname, '../fixtures/scenarios/scenarios-exec.ts');
    const result = await runCli(
      ['run', '--scenario', scenario, '--target', server.url, '--json-output'],
      { killAfterMs: 60_000 },
    );
    const json = JSON.parse(result.stdout) as Json & {
      scenarios: Record<string, { checks?: { by_name: Record<string, unknown> } }>;
      thresholds?: { failed: number };
    };
    // Its count threshold fails when a busy machine made buy drop an iteration: then exit 1.
    t.equal(result.code, (json.thresholds?.failed ?? 0) > 0 ? 1 : 0, result.stderr);
    t.equal(json.scenarios.buy!.total + json.scenarios.buy!.dropped, 20, 'buy: 20/s for 1 s');
    t.ok(json.scenarios.browse!.total > 0);
    t.strictSame(Object.keys(json.scenarios.buy!.checks!.by_name), ['bought']);
    t.strictSame(Object.keys(json.scenarios.browse!.checks!.by_name), ['browse ok']);
    t.equal(json.failures, 0, 'the default export, which throws, never ran');
  },
);
