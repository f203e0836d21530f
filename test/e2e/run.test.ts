import t, { type Test } from 'tap';
import { createServer, type Server, type Socket } from 'node:net';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';
import { startTargetProcess } from '../helpers/target-process.js';
import type { JsonResult } from '../../cli/render/json-report.js';

const json = (result: { readonly stdout: string }): JsonResult =>
  JSON.parse(result.stdout) as JsonResult;

async function target(
  t: Test,
  options: Parameters<typeof startTargetServer>[0] = {},
): Promise<TargetServer> {
  const server = await startTargetServer(options);
  t.teardown(() => server.close());
  return server;
}

/** A raw TCP server with a custom connection behaviour (resets, silence). */
async function tcpServer(t: Test, onConnection: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

t.test('requests: exact totals, counted by the target too', async (t) => {
  const server = await target(t);
  const result = await runInProcess([
    'run',
    '--target',
    `${server.url}/json`,
    '-n',
    '500',
    '-c',
    '10',
    '--json-output',
  ]);
  t.equal(result.code, 0, result.stderr);
  t.equal(json(result).total, 500);
  t.equal(json(result).successes, 500);
  t.equal(server.stats().byRoute.json, 500);
});

t.test('bare `barrage [flags]` and --config FILE work like run', async (t) => {
  const server = await target(t);
  const bare = await runInProcess([
    '--target',
    `${server.url}/`,
    '-n',
    '7',
    '-c',
    '2',
    '--json-output',
  ]);
  t.equal(json(bare).total, 7);
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nrequests: 9\nconcurrency: 3\n`,
  });
  const viaFlag = await runInProcess(['run', '--config', 'load.yaml', '--json-output'], {
    cwd: dir,
  });
  t.equal(json(viaFlag).total, 9, viaFlag.stderr);
});

t.test('a fixed rate sends rate × duration permits; the target counts those sent', async (t) => {
  const server = await target(t);
  const result = await runInProcess([
    'run',
    '--target',
    `${server.url}/json`,
    '-r',
    '200',
    '-d',
    '3s',
    '-c',
    '5',
    '--json-output',
  ]);
  t.equal(result.code, 0, result.stderr);
  const seen = server.stats().byRoute.json ?? 0;
  const { total, dropped } = json(result);
  t.equal(total + dropped, 600, `${total} sent and ${dropped} dropped: the 600 planned`);
  t.equal(total, seen, 'the target saw each request sent');
});

t.test('coordinated omission is made visible (target stopped 2 s at 500/s)', async (t) => {
  const proc = await startTargetProcess();
  t.teardown(() => proc.stop());
  const run = runInProcess([
    'run',
    '--target',
    `${proc.url}/json`,
    '-r',
    '500',
    '-d',
    '6s',
    '-c',
    '10',
    '--json-output',
  ]);
  // Stopped once the run is well under way, however long the machine took to start it.
  await eventually(async () => (await proc.stats()).total >= 500);
  proc.child.kill('SIGSTOP');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  proc.child.kill('SIGCONT');
  const result = json(await run);
  t.ok(
    result.intended_latency_ms !== null && result.intended_latency_ms.p99 >= 1500,
    `intended p99 ${result.intended_latency_ms?.p99}`,
  );
  // The permits that waited out the 2 s stall count it in their intended latency only: service
  // p99 stays a second and more below (a busy machine slows both alike).
  t.ok(
    result.p99_latency_ms !== null &&
      result.intended_latency_ms !== null &&
      result.p99_latency_ms < result.intended_latency_ms.p99 - 1000,
    `service p99 ${result.p99_latency_ms}, intended p99 ${result.intended_latency_ms?.p99}`,
  );
  t.ok(result.late >= 500, `late permits ${result.late}`);
  t.equal(result.failures, 0);
});

t.test('thresholds decide the exit code and print their lines', async (t) => {
  const server = await target(t);
  const base = ['run', '--target', `${server.url}/json`, '-n', '200', '-c', '4'];
  const pass = await runInProcess([
    ...base,
    '--threshold',
    'http_req_duration:p95 < 5000',
    '--threshold',
    'http_req_failed:rate < 0.01',
  ]);
  t.equal(pass.code, 0);
  t.match(pass.stdout, /✓ http_req_duration:p95 < 5000: \d+\.\d\d < 5000\.00/);
  t.match(pass.stdout, /Threshold Summary: 2\/2 passed/);
  const fail = await runInProcess([
    ...base,
    '--threshold',
    'http_requests:count > 1000',
    '--threshold',
    'http_req_failed:rate < 0.01',
  ]);
  t.equal(fail.code, 1);
  t.match(fail.stdout, /✗ http_requests:count > 1000: 200\.00 > 1000\.00/);
  t.match(fail.stdout, /Threshold Summary: 1\/2 passed/);
  const noData = await runInProcess([
    ...base,
    '--threshold',
    'http_req_duration{endpoint=nope}:p95 < 100',
  ]);
  t.equal(noData.code, 1, 'a threshold on an endpoint the run lacks is refused');
  t.match(noData.stderr, '--threshold: thresholds[0]: expected an endpoint name');
  t.equal(noData.stdout, '', 'before anything ran');
});

t.test('--json-output prints only the spec JSON result on stdout', async (t) => {
  const server = await target(t);
  const result = await runInProcess([
    'run',
    '--target',
    `${server.url}/json`,
    '-n',
    '50',
    '-c',
    '2',
    '--json-output',
    '--threshold',
    'http_req_duration:p99 < 5000',
  ]);
  const parsed = json(result) as unknown as Record<string, unknown>;
  for (const key of [
    'total',
    'successes',
    'failures',
    'requests_per_sec',
    'p95_latency_ms',
    'p99_latency_ms',
  ])
    t.type(parsed[key], 'number', key);
  t.same(Object.keys(parsed.thresholds as object), ['total', 'passed', 'failed', 'results']);
  const first = (parsed.thresholds as { results: Record<string, unknown>[] }).results[0]!;
  t.same(Object.keys(first), [
    'threshold',
    'metric',
    'aggregate',
    'operator',
    'expected',
    'actual',
    'pass',
  ]);
  t.match(first, {
    threshold: 'http_req_duration:p99 < 5000',
    metric: 'http_req_duration',
    aggregate: 'p99',
    operator: '<',
    expected: 5000,
    pass: true,
  });
});

t.test('503 then success: each attempt a request, one logical request each', async (t) => {
  const server = await target(t, { flakyEvery: 2 });
  const config = `target: ${server.url}/flaky\nrequests: 100\nconcurrency: 1\nretry: { max_attempts: 3, backoff: 1ms, budget: 1 }\n`;
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
  const parsed = json(result);
  t.equal(server.stats().byRoute.flaky, 199);
  t.equal(parsed.total, 199, 'every attempt is a request, as the server counted');
  t.same(parsed.status_codes, { '200': 100, '503': 99 }, 'the 503s retried are in the table');
  t.equal(parsed.failures, 99);
  t.equal(
    parsed.retries,
    99,
    'one retry for every request after the first (answers alternate 200, 503)',
  );
  t.same(
    parsed.total_failed,
    { rate: 0, count: 0, total: 100 },
    'every logical request was retried into a success',
  );
  const none = await runInProcess([
    'run',
    '--target',
    `${server.url}/flaky`,
    '-n',
    '10',
    '-c',
    '1',
    '--json-output',
  ]);
  t.equal(json(none).retries, 0, 'no retry key: no retries');
});

t.test('the retry budget keeps a 5xx storm from being amplified', async (t) => {
  const server = await target(t);
  const config = `target: ${server.url}/status/503\nrequests: 400\nconcurrency: 4\nretry: { max_attempts: 5, backoff: 1ms, budget: 0.1, min_retries_per_sec: 10 }\n`;
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 1, 'nothing succeeded: the run failed');
  const parsed = json(result);
  t.match(parsed.total_failed, { count: 400, total: 400 });
  // 10% of 400 requests, plus the floor: 10 at the start and 10 per second of the run, however
  // long a busy machine made it (its own recorded duration).
  const floor = 10 + 10 * Math.ceil(parsed.duration_ms / 1000);
  t.ok(parsed.retries <= 40 + floor, `retries ${parsed.retries} stay within the budget`);
  t.ok(parsed.retries >= 40, `the budget's share is used (${parsed.retries})`);
  t.equal(server.stats().byRoute.status, 400 + parsed.retries);
  t.equal(parsed.total, 400 + parsed.retries, 'the requests the server saw');
  t.equal(parsed.failures, parsed.total);
});

t.test(
  'SIGINT: in-flight requests finish, the report says interrupted, thresholds decide',
  async (t) => {
    const server = await target(t);
    const interrupt = (args: string[]) =>
      runCli(['run', '--target', `${server.url}/delay/20`, '-c', '5', '-d', '30s', ...args], {
        onSpawn: (child) => {
          const served = server.stats().total;
          // Once the run is sending (however long the machine took to start it), and a while on.
          void eventually(() => server.stats().total >= served + 20).then(() =>
            child.kill('SIGINT'),
          );
        },
      });
    const plain = await interrupt([]);
    t.equal(plain.code, 0);
    t.match(plain.stdout, /--- Load Test Results ---/);
    t.match(plain.stdout, /Interrupted/);
    const gated = await interrupt(['--threshold', 'http_requests:count > 100000', '--json-output']);
    t.equal(gated.code, 1);
    t.equal(json(gated).interrupted, true);
    t.equal(json(gated).failures, 0, 'in-flight requests were allowed to finish');
  },
);

t.test('a second SIGINT exits at once with 130, still printing what was collected', async (t) => {
  const server = await target(t);
  const result = await runCli(
    ['run', '--target', `${server.url}/delay/3000`, '-c', '3', '-d', '30s'],
    {
      onSpawn: (child) => {
        // Both once the run's requests are in flight, however long the machine took to start it.
        void eventually(() => server.stats().total >= 3).then(() => {
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 400);
        });
      },
    },
  );
  t.equal(result.code, 130);
  t.match(result.stdout, /--- Load Test Results ---/);
});

t.test('faults of the target are measured failures, never crashes', async (t) => {
  const down = await tcpServer(t, () => undefined);
  const closedPort = down.replace(/:\d+$/, ':1');
  const refused = await runInProcess([
    'run',
    '--target',
    closedPort,
    '-n',
    '5',
    '-c',
    '1',
    '--json-output',
  ]);
  t.equal(refused.code, 1, 'nothing succeeded: exit 1, thresholds or not');
  t.match(refused.stderr, 'barrage: the run failed: none of its 5 requests succeeded (refused: 5)');
  t.same(json(refused).errors, { refused: 5 });
  const text = await runInProcess(['run', '--target', closedPort, '-n', '5', '-c', '1']);
  t.match(text.stdout, /WARNING: the run failed \(exit 1\): none of its 5 requests succeeded/);

  const resetter = await tcpServer(t, (socket) => socket.resetAndDestroy());
  t.match(
    json(await runInProcess(['run', '--target', resetter, '-n', '6', '-c', '2', '--json-output']))
      .errors,
    { reset: 6 },
  );

  const silent = await tcpServer(t, () => undefined);
  const hung = await runInProcess([
    'run',
    '--target',
    silent,
    '-n',
    '4',
    '-c',
    '4',
    '--timeout',
    '300ms',
    '--json-output',
  ]);
  t.same(json(hung).errors, { timeout: 4 }, 'a silent target times out at the deadline');

  const server = await target(t);
  const drip = await runInProcess([
    'run',
    '--target',
    `${server.url}/drip?bytes=50&interval=50`,
    '-n',
    '2',
    '-c',
    '2',
    '--timeout',
    '400ms',
    '--json-output',
  ]);
  t.same(
    json(drip).errors,
    { timeout: 2 },
    'the deadline covers a slow-drip body, not just the gap between chunks',
  );

  const fiveHundred = await runInProcess([
    'run',
    '--target',
    `${server.url}/status/503`,
    '-n',
    '3',
    '-c',
    '1',
    '--json-output',
  ]);
  t.same(json(fiveHundred).errors, { http_5xx: 3 });
  t.same(json(fiveHundred).status_codes, { '503': 3 });
});

t.test('a target killed mid-run: failures with their kind, the run ends normally', async (t) => {
  const proc = await startTargetProcess();
  const run = runInProcess([
    'run',
    '--target',
    `${proc.url}/json`,
    '-r',
    '200',
    '-d',
    '3s',
    '-c',
    '4',
    '--timeout',
    '1s',
    '--json-output',
  ]);
  // Killed once it has served part of the run, however long the machine took to start it.
  await eventually(async () => (await proc.stats()).total >= 40);
  await proc.stop();
  const result = await run;
  t.equal(result.code, 0, result.stderr);
  const parsed = json(result);
  t.ok(
    parsed.successes > 0 && parsed.failures > 0,
    `${parsed.successes} ok, ${parsed.failures} failed`,
  );
  t.ok(
    Object.keys(parsed.errors).every((kind) => ['refused', 'reset', 'socket'].includes(kind)),
    JSON.stringify(parsed.errors),
  );
});

t.test('a report file that cannot be written: named, others still written, exit 1', async (t) => {
  const server = await target(t);
  const dir = t.testdir({});
  const result = await runInProcess(
    ['run', '--target', `${server.url}/json`, '-n', '5', '-c', '1', '--json', '/dev/full'],
    { cwd: dir },
  );
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /could not write the JSON result to \/dev\/full: ENOSPC \(no space left on the device\)/,
  );
  t.match(result.stdout, /--- Load Test Results ---/);
});

t.test('bad configuration with --json-output: stdout empty, exit 1, nothing sent', async (t) => {
  const server = await target(t);
  const result = await runInProcess([
    'run',
    '--target',
    `${server.url}/json`,
    '-c',
    '0',
    '--json-output',
  ]);
  t.equal(result.code, 1);
  t.equal(result.stdout, '');
  t.match(result.stderr, /--concurrency: concurrency: expected a positive integer/);
  t.equal(server.stats().total, 0);
});
