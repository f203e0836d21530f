// `--out otlp=URL` as a user runs it: the built CLI against the embedded target, streaming to a
// loopback receiver that stands in for an OpenTelemetry Collector (none is packaged for Debian)
// and decodes each request with the official definitions parsed from the vendored .proto files.
import t, { type Test } from 'tap';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { loadOtlpProto } from '../helpers/otlp-proto.js';
import { runCli } from '../helpers/run-cli.js';

const REQUEST = loadOtlpProto().lookupType(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
);

interface Attribute {
  key: string;
  value: { stringValue: string };
}
interface DataPoint {
  attributes?: Attribute[];
  startTimeUnixNano?: string;
  timeUnixNano: string;
  asInt?: string;
  count?: string;
  scale?: number;
  zeroCount?: string;
  positive?: { offset?: number; bucketCounts?: string[] };
}
interface Metric {
  name: string;
  unit: string;
  sum?: { dataPoints: DataPoint[]; aggregationTemporality: string; isMonotonic?: boolean };
  gauge?: { dataPoints: DataPoint[] };
  exponentialHistogram?: { dataPoints: DataPoint[]; aggregationTemporality: string };
}
interface ExportRequest {
  resourceMetrics: {
    resource: { attributes: Attribute[] };
    scopeMetrics: { scope: { name: string }; metrics: Metric[] }[];
  }[];
}

/** A request the receiver got. */
interface Received {
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: ExportRequest;
}

/** A loopback OTLP/HTTP receiver that records and decodes every request, answering `status`. */
async function receiver(t: Test, status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = REQUEST.toObject(REQUEST.decode(Buffer.concat(chunks)), {
        longs: String,
        enums: String,
      }) as unknown as ExportRequest;
      received.push({ path: req.url, headers: req.headers, body });
      res.statusCode = status;
      res.end(status === 200 ? '' : 'unsupported metric');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

/** A run of two endpoints of the embedded target, 3 s at 40/s, its JSON report in r.json. */
async function run(t: Test, outputs: string, flags: readonly string[]) {
  const target = await startTargetServer({ port: 0 });
  t.teardown(() => target.close());
  const dir = t.testdir({
    'load.yaml': [
      `target: ${target.url}`,
      'concurrency: 4',
      'rate: 40',
      'duration: 3s',
      'tags: { testid: otlp-e2e }',
      'endpoints:',
      '  - { name: catalog, url: /json }',
      '  - { name: slow, url: /delay/5, method: POST, body: "{}" }',
      outputs,
    ].join('\n'),
  });
  const result = await runCli(
    ['run', 'load.yaml', '--no-dashboard', ...flags, '--json', 'r.json'],
    {
      cwd: dir,
    },
  );
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    endpoints: { name: string; requests: number; latency_ms: { p95: number } }[];
  };
  return { result, report };
}

function metricsOf(request: ExportRequest): Map<string, Metric> {
  return new Map(request.resourceMetrics[0]!.scopeMetrics[0]!.metrics.map((m) => [m.name, m]));
}

function attributesOf(point: DataPoint): Record<string, string> {
  return Object.fromEntries((point.attributes ?? []).map((a) => [a.key, a.value.stringValue]));
}

/** The p95 of exponential histogram points: the upper bound of the bucket of the 95th percentile. */
function p95Of(points: readonly DataPoint[]): number {
  const counts = new Map<number, number>();
  let total = 0;
  for (const p of points) {
    (p.positive?.bucketCounts ?? []).forEach((c, i) => {
      const index = (p.positive?.offset ?? 0) + i;
      counts.set(index, (counts.get(index) ?? 0) + Number(c));
    });
    total += Number(p.count);
  }
  const rank = Math.ceil(0.95 * total);
  let seen = 0;
  for (const [index, count] of [...counts].sort(([a], [b]) => a - b)) {
    seen += count;
    // OpenTelemetry's bucket i is (base^i, base^(i+1)], base = 2^(2^−scale).
    if (seen >= rank) return 2 ** ((index + 1) / 2 ** points[0]!.scale!);
  }
  return Number.NaN;
}

t.test('a run streams OTLP metrics that add up to its report', async (t) => {
  const { url, received } = await receiver(t);
  const { result, report } = await run(t, '', ['--out', `otlp=${url}`, '--out-period', '1s']);
  t.equal(result.code, 0, result.stderr);
  t.ok(received.length >= 2, `a request per period and a last one (${received.length})`);
  t.ok(
    received.every((r) => r.path === '/v1/metrics'),
    'sent to /v1/metrics',
  );
  t.ok(
    received.every((r) => r.headers['content-type'] === 'application/x-protobuf'),
    'as protobuf',
  );

  const last = received[received.length - 1]!.body;
  t.equal(last.resourceMetrics.length, 1, 'one resource');
  const resource = Object.fromEntries(
    last.resourceMetrics[0]!.resource.attributes.map((a) => [a.key, a.value.stringValue]),
  );
  t.same(resource, { 'service.name': 'barrage', 'barrage.testid': 'otlp-e2e' });
  t.equal(last.resourceMetrics[0]!.scopeMetrics[0]!.scope.name, 'barrage');

  const metrics = metricsOf(last);
  const requests = metrics.get('barrage_http_requests');
  t.ok(requests?.sum, 'http_requests is a Sum');
  t.equal(requests!.unit, '1');
  t.equal(requests!.sum!.aggregationTemporality, 'AGGREGATION_TEMPORALITY_CUMULATIVE');
  t.equal(requests!.sum!.isMonotonic, true);
  t.ok(metrics.get('barrage_http_req_failed')?.sum, 'a rate: its true samples');
  t.ok(metrics.get('barrage_http_req_failed_samples')?.sum, 'and all its samples');
  t.equal(metrics.get('barrage_data_received_bytes')?.unit, 'By');
  t.ok(metrics.get('barrage_vus')?.gauge, 'vus is a Gauge');
  const duration = metrics.get('barrage_http_req_duration_seconds');
  t.equal(duration?.unit, 's');
  t.equal(
    duration?.exponentialHistogram?.aggregationTemporality,
    'AGGREGATION_TEMPORALITY_CUMULATIVE',
  );

  for (const point of requests!.sum!.dataPoints) {
    t.ok(
      BigInt(point.startTimeUnixNano!) < BigInt(point.timeUnixNano),
      'counted from the run start to the flush',
    );
  }
  for (const endpoint of report.endpoints) {
    const mine = (points: readonly DataPoint[]) =>
      points.filter((p) => attributesOf(p).endpoint === endpoint.name);
    const points = mine(requests!.sum!.dataPoints);
    const sum = points.reduce((s, p) => s + Number(p.asInt), 0);
    t.equal(sum, endpoint.requests, `${endpoint.name}: the last request's sum is the report's`);
    const attributes = attributesOf(points[0]!);
    t.equal(
      attributes.method,
      endpoint.name === 'slow' ? 'POST' : 'GET',
      `${endpoint.name}: method`,
    );
    t.equal(attributes.status, '200', `${endpoint.name}: status`);
    t.equal(attributes.testid, 'otlp-e2e', 'testid on the point as on the resource');

    const histogram = mine(duration!.exponentialHistogram!.dataPoints);
    t.equal(histogram[0]!.scale, 5);
    const count = histogram.reduce((s, p) => s + Number(p.count), 0);
    t.equal(count, endpoint.requests, `${endpoint.name}: a sample per request`);
    const p95 = p95Of(histogram) * 1000;
    const expected = endpoint.latency_ms.p95;
    t.ok(
      Math.abs(p95 - expected) <= expected * (0.022 + 0.001),
      `${endpoint.name}: p95 from the buckets ${p95.toFixed(3)} ms, barrage's ${expected} ms`,
    );
  }
});

t.test('a token is sent as a bearer and shown nowhere', async (t) => {
  const { url, received } = await receiver(t);
  const token = 'otlp-secret-7f3a';
  const { result } = await run(
    t,
    `outputs:\n  - { type: otlp, url: "${url}", token: ${token} }\noutput_period: 1s`,
    [],
  );
  t.equal(result.code, 0, result.stderr);
  t.ok(received.length >= 1);
  t.ok(
    received.every((r) => r.headers.authorization === `Bearer ${token}`),
    'every request carries it',
  );
  t.notMatch(result.stdout, token);
  t.notMatch(result.stderr, token);
});

t.test(
  'a receiver that refuses is a warning with the lost samples, not a failed run',
  async (t) => {
    const { url, received } = await receiver(t, 400);
    const { result, report } = await run(t, '', ['--out', `otlp=${url}`, '--out-period', '1s']);
    t.equal(result.code, 0, 'the run passes');
    t.equal(report.endpoints.length, 2, 'its report is whole');
    const lost = received.reduce(
      (sum, r) =>
        sum +
        r.body.resourceMetrics[0]!.scopeMetrics[0]!.metrics.reduce(
          (n, m) =>
            n +
            (m.sum ?? m.gauge ?? m.exponentialHistogram ?? { dataPoints: [] }).dataPoints.length,
          0,
        ),
      0,
    );
    t.ok(lost > 0);
    t.match(
      result.stderr,
      `output otlp ${url}/v1/metrics: the receiver answered 400: unsupported metric`,
    );
    t.match(result.stderr, `${received.length} of ${received.length} sends failed`);
    t.match(result.stderr, `${lost} of ${lost} samples lost`);
  },
);
