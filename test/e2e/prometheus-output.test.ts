// `--out prometheus-rw=URL` as users run it: the built CLI against the embedded target, streaming
// to a real Prometheus (native histograms) and a real VictoriaMetrics (trend_as: stats), then
// PromQL over HTTP compared with the run's own JSON report; and against receivers that refuse or
// never answer, which must cost the run nothing but a warning.
import { createServer, type ServerResponse } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import {
  PROMETHEUS,
  VICTORIA_METRICS,
  receiverSkip,
  startPrometheus,
  startVictoriaMetrics,
  type PromqlReceiver,
} from '../helpers/promql-receivers.js';
import { eventually } from '../helpers/eventually.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** A native histogram's quantile is within one schema-5 bucket (2.2 %), barrage's HDR 0.1 %. */
const NATIVE_PRECISION = 2 ** (2 ** -5) - 1 + 0.001;

interface JsonReport {
  total: number;
  endpoints: {
    name: string;
    requests: number;
    status_codes: Record<string, number>;
    latency_ms: { p95: number };
  }[];
}

/**
 * A 3 s run at 30/s over two endpoints of different latencies, with `extra` config lines, in
 * `dir` (the test's folder, which its receiver's data shares: tap recreates it on each testdir()).
 */
async function run(
  t: Test,
  dir: string,
  extra: string,
  args: readonly string[],
): Promise<SpawnResult & { report: JsonReport }> {
  const target = await startTargetServer();
  t.teardown(() => target.close());
  writeFileSync(
    join(dir, 'load.yaml'),
    [
      `target: ${target.url}`,
      'rate: 30',
      'duration: 3s',
      'concurrency: 20',
      'endpoints:',
      '  - { name: fast, url: /delay/1 }',
      '  - { name: slow, url: /delay/25 }',
      extra,
    ].join('\n'),
  );
  const result = await runCli(
    ['run', 'load.yaml', '--no-dashboard', '--out-period', '1s', '--json', 'r.json', ...args],
    { cwd: dir },
  );
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as JsonReport;
  return { ...result, report };
}

/** The run's testid, read from the receiver: one, barrage's generated form. */
async function testidOf(t: Test, receiver: PromqlReceiver): Promise<string> {
  const ids = await receiver.query('count by (testid) (barrage_http_requests_total)');
  t.equal(ids.length, 1, 'one testid');
  const testid = ids[0]?.metric.testid ?? '';
  t.match(testid, /^\d{8}T\d{6}-[0-9a-f]{4}$/, 'the testid label, generated');
  return testid;
}

/** `promql`'s value per endpoint. */
async function byEndpoint(receiver: PromqlReceiver, promql: string): Promise<Map<string, number>> {
  const vector = await receiver.query(promql);
  return new Map(vector.map((s) => [s.metric.endpoint ?? '', s.value]));
}

/**
 * The receiver holds what the report says of each of the run's two endpoints: its request count,
 * and its summary's p95 quantile (trends sent as statistics).
 */
async function summariesAreTheReports(
  t: Test,
  receiver: PromqlReceiver,
  name: string,
  testid: string,
  report: JsonReport,
): Promise<void> {
  const counts = await byEndpoint(
    receiver,
    `sum by (endpoint) (barrage_http_requests_total{testid="${testid}"})`,
  );
  const p95s = await byEndpoint(
    receiver,
    `barrage_http_req_duration_seconds{testid="${testid}", quantile="0.95"}`,
  );
  t.equal(report.endpoints.length, 2);
  for (const endpoint of report.endpoints) {
    t.equal(counts.get(endpoint.name), endpoint.requests, `${endpoint.name}: requests`);
    const sent = p95s.get(endpoint.name) ?? NaN;
    t.ok(
      Math.abs(sent - endpoint.latency_ms.p95 / 1000) < 1e-9,
      `${endpoint.name}: p95 ${sent} s from ${name}, ${endpoint.latency_ms.p95} ms in the report`,
    );
  }
}

/**
 * Waits (20 s at most) until a receiver's counts are the report's, as VictoriaMetrics shows the
 * last rows only a few seconds after taking them; what it shows then is asserted by the caller.
 */
async function settled(
  receiver: PromqlReceiver,
  testid: string,
  report: JsonReport,
): Promise<void> {
  await eventually(async () => {
    const counts = await byEndpoint(
      receiver,
      `sum by (endpoint) (barrage_http_requests_total{testid="${testid}"})`,
    );
    return report.endpoints.every((e) => counts.get(e.name) === e.requests);
  }, 20_000);
}

t.test(
  'Prometheus: per-endpoint counts equal the report, native histogram p95 within 2.3 %',
  { skip: receiverSkip(PROMETHEUS, process.env) },
  async (t) => {
    const dir = t.testdir();
    const prometheus = await startPrometheus(t, dir);
    const result = await run(t, dir, '', [
      '--quiet',
      '--out',
      `prometheus-rw=${prometheus.writeUrl}`,
    ]);
    t.equal(result.code, 0, result.stderr);
    t.notMatch(result.stderr, /output prometheus-rw/, 'no send failed');
    const testid = await testidOf(t, prometheus);
    const counts = await byEndpoint(
      prometheus,
      `sum by (endpoint) (barrage_http_requests_total{testid="${testid}"})`,
    );
    const p95s = await byEndpoint(
      prometheus,
      `histogram_quantile(0.95, sum by (endpoint) (barrage_http_req_duration_seconds{testid="${testid}"}))`,
    );
    t.equal(result.report.endpoints.length, 2);
    for (const endpoint of result.report.endpoints) {
      t.equal(counts.get(endpoint.name), endpoint.requests, `${endpoint.name}: requests`);
      const own = endpoint.latency_ms.p95 / 1000;
      const sent = p95s.get(endpoint.name) ?? NaN;
      t.ok(
        Math.abs(sent - own) / own <= NATIVE_PRECISION,
        `${endpoint.name}: p95 ${sent} s from Prometheus, ${own} s in the report`,
      );
    }
  },
);

t.test(
  'Prometheus without native histograms (its defaults): the counters arrive, the trends as summaries, said once',
  { skip: receiverSkip(PROMETHEUS, process.env) },
  async (t) => {
    const dir = t.testdir();
    const prometheus = await startPrometheus(t, dir, { nativeHistograms: false });
    const result = await run(t, dir, '', ['--out', `prometheus-rw=${prometheus.writeUrl}`]);
    t.equal(result.code, 0, result.stderr);
    const fallbacks = result.stderr.match(
      /native histograms are disabled; the trends are sent as summaries/g,
    );
    t.equal(fallbacks?.length, 1, `the fallback said once: ${result.stderr}`);
    t.notMatch(result.stderr, /samples lost/, 'nothing lost');
    const testid = await testidOf(t, prometheus);
    await summariesAreTheReports(t, prometheus, 'Prometheus', testid, result.report);
    const total = await prometheus.query(`sum (barrage_http_requests_total{testid="${testid}"})`);
    t.equal(total[0]?.value, result.report.total, "the total is the report's");
  },
);

t.test(
  'VictoriaMetrics with trend_as stats: counts equal the report, the p95 quantile is its p95',
  { skip: receiverSkip(VICTORIA_METRICS, process.env) },
  async (t) => {
    const dir = t.testdir();
    const vm = await startVictoriaMetrics(t, dir);
    const outputs = `outputs:\n  - { type: prometheus-rw, url: "${vm.writeUrl}", trend_as: stats }`;
    const result = await run(t, dir, outputs, ['--quiet']);
    t.equal(result.code, 0, result.stderr);
    t.notMatch(result.stderr, /output prometheus-rw/, 'no send failed');
    const testid = await testidOf(t, vm);
    await settled(vm, testid, result.report).catch(() => undefined);
    // One outcome per endpoint, so its one series' quantile is the endpoint's.
    for (const endpoint of result.report.endpoints)
      t.same(Object.keys(endpoint.status_codes), ['200'], `${endpoint.name}: all 200`);
    await summariesAreTheReports(t, vm, 'VictoriaMetrics', testid, result.report);
  },
);

/** A loopback server that answers 500 quoting the request's Authorization, or never answers. */
async function badReceiver(t: Test, kind: 'refuse' | 'hang'): Promise<string> {
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if (kind === 'hang') hanging.push(res);
    else res.writeHead(500).end(`no thanks, ${req.headers.authorization ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`;
}

t.test(
  'receivers that refuse or never answer: the run ends, exit code and report its own, losses counted',
  async (t) => {
    const TOKEN = 'prw-token-3c9e1f';
    const refusing = await badReceiver(t, 'refuse');
    const hanging = await badReceiver(t, 'hang');
    const outputs = [
      'outputs:',
      `  - { type: prometheus-rw, url: "${refusing}", token: ${TOKEN} }`,
      `  - { type: prometheus-rw, url: "${hanging}", token: ${TOKEN} }`,
    ].join('\n');
    const result = await run(t, t.testdir(), outputs, [
      '--threshold',
      'http_req_failed:rate < 0.5',
    ]);
    t.equal(result.code, 0, 'the threshold holds: the receivers do not change the exit code');
    t.equal(result.report.total, 90, 'the report has every request (30/s for 3 s)');
    t.match(result.stdout, /Total Requests: 90/, 'the text report too');
    t.match(
      result.stderr,
      /output prometheus-rw http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write: the receiver answered 500/,
    );
    for (const [url, reason] of [
      [refusing, /the receiver answered 500/],
      [
        hanging,
        /no answer within 10 s|still unanswered when the run stopped waiting for its outputs/,
      ],
    ] as const) {
      const line = result.stderr
        .split('\n')
        .find((l) => l.includes(url) && / samples lost$/.test(l));
      const lost = /(\d+) of (\d+) samples lost$/.exec(line ?? '');
      t.ok(lost !== null, `a loss line for ${url}: ${line}`);
      t.ok(Number(lost?.[1]) > 0 && lost?.[1] === lost?.[2], `${url}: every sample lost, counted`);
      t.match(line, reason);
    }
    t.notMatch(result.stdout + result.stderr, TOKEN, 'the token appears nowhere');
  },
);
