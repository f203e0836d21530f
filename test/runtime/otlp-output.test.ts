// The otlp sink on its own: a flush of known figures, encoded by the sink and decoded with the
// definitions parsed from the vendored .proto files (test/helpers/otlp-proto.ts), then sent to a
// loopback receiver.
import t, { type Test } from 'tap';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { BUILTIN_METRICS, type Tags } from '../../model/metrics/metric-registry.js';
import { createHistogram, recordMicros } from '../../runtime/metrics/histogram.js';
import type { Point } from '../../runtime/outputs/flush-window.js';
import type { Series } from '../../runtime/outputs/metric-series.js';
import { openOtlpOutput } from '../../runtime/outputs/otlp-output.js';
import type { Flush } from '../../runtime/outputs/output-sink.js';
import { loadOtlpProto } from '../helpers/otlp-proto.js';

const REQUEST = loadOtlpProto().lookupType(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
);

interface Decoded {
  resourceMetrics: {
    resource: { attributes: { key: string; value: { stringValue: string } }[] };
    scopeMetrics: { scope: { name: string }; metrics: DecodedMetric[] }[];
  }[];
}
interface DecodedPoint {
  attributes?: { key: string; value: { stringValue: string } }[];
  startTimeUnixNano?: string;
  timeUnixNano: string;
  asInt?: string;
  asDouble?: number;
  count?: string;
  sum?: number;
  scale?: number;
  zeroCount?: string;
  positive?: { offset?: number; bucketCounts: string[] };
  min?: number;
  max?: number;
}
interface DecodedMetric {
  name: string;
  unit: string;
  description: string;
  sum?: { dataPoints: DecodedPoint[]; aggregationTemporality: string; isMonotonic: boolean };
  gauge?: { dataPoints: DecodedPoint[] };
  exponentialHistogram?: { dataPoints: DecodedPoint[]; aggregationTemporality: string };
}

function decode(body: Uint8Array): Decoded {
  return REQUEST.toObject(REQUEST.decode(body), {
    longs: String,
    enums: String,
  }) as unknown as Decoded;
}

const RUN: Tags = { testid: 'run-7', segment: '1/2' };

function series(metric: string, tags: Tags, figures: Partial<Series>): Series {
  const builtin = (
    BUILTIN_METRICS as Record<string, Pick<Series, 'kind' | 'unit' | 'description'>>
  )[metric];
  return {
    metric,
    kind: builtin?.kind ?? 'counter',
    unit: builtin?.unit ?? 'none',
    description: builtin?.description ?? '',
    tags: { ...tags, ...RUN },
    count: 0,
    trues: 0,
    value: 0,
    min: 0,
    max: 0,
    ...figures,
  };
}

function point(s: Series, count: number, trues = 0): Point {
  const figures = { count, trues };
  return { series: s, total: figures, delta: figures };
}

/** 1 ms, 2 ms … 1000 ms: one sample each, and one of 1 s exactly. */
function latencies(): Point {
  const histogram = createHistogram();
  for (let ms = 1; ms <= 1000; ms++) recordMicros(histogram, ms * 1000);
  const s = series('http_req_duration', { endpoint: 'home', method: 'GET', status: '200' }, {});
  const figures = { count: histogram.totalCount, trues: 0, histogram };
  return { series: s, total: figures, delta: figures };
}

// 2026-01-02T03:04:05.678Z and 1.5 s later, half a millisecond past: exact nanoseconds differ from
// what a double holds of them.
const STARTED_AT = 1_767_323_045_678;
const FLUSH: Omit<Flush, 'points'> = { startedAt: STARTED_AT, timeMs: STARTED_AT + 1500.5 };

t.test('a flush encodes as one resource, one scope and a metric per name', async (t) => {
  const endpoint = { endpoint: 'home', method: 'GET', status: '200' };
  const sink = openOtlpOutput({
    kind: 'otlp',
    target: 'http://127.0.0.1:9/v1/metrics',
    headers: {},
    trendAs: 'native',
  });
  const payload = sink.encode({
    ...FLUSH,
    points: [
      point(series('http_requests', endpoint, { count: 7 }), 7),
      point(series('http_requests', { ...endpoint, status: '503' }, { count: 2 }), 2),
      point(series('http_req_failed', endpoint, { count: 9, trues: 2 }), 9, 2),
      point(series('data_received', { scenario: 'default' }, { count: 4096 }), 4096),
      point(series('vus', { scenario: 'default' }, { value: 3 }), 0),
      point(series('carts', { scenario: 'default' }, { count: 2.5 }), 2.5),
      latencies(),
    ],
  });
  t.ok(payload, 'something to send');
  t.equal(payload!.samples, 8, 'data points: 2 + 2 (a rate) + 1 + 1 + 1 + 1 (a histogram)');
  const decoded = decode(payload!.body as Uint8Array);
  t.equal(decoded.resourceMetrics.length, 1);
  const [resource] = decoded.resourceMetrics;
  t.same(
    resource!.resource.attributes.map((a) => [a.key, a.value.stringValue]),
    [
      ['service.name', 'barrage'],
      ['barrage.testid', 'run-7'],
      ['barrage.segment', '1/2'],
    ],
  );
  t.equal(resource!.scopeMetrics.length, 1);
  t.equal(resource!.scopeMetrics[0]!.scope.name, 'barrage');
  const metrics = new Map(resource!.scopeMetrics[0]!.metrics.map((m) => [m.name, m]));
  t.same([...metrics.keys()].sort(), [
    'barrage_carts',
    'barrage_data_received_bytes',
    'barrage_http_req_duration_seconds',
    'barrage_http_req_failed',
    'barrage_http_req_failed_samples',
    'barrage_http_requests',
    'barrage_vus',
  ]);

  const requests = metrics.get('barrage_http_requests')!;
  t.equal(requests.unit, '1');
  t.equal(requests.sum!.aggregationTemporality, 'AGGREGATION_TEMPORALITY_CUMULATIVE');
  t.equal(requests.sum!.isMonotonic, true);
  t.same(
    requests.sum!.dataPoints.map((p) => p.asInt),
    ['7', '2'],
  );
  const [first] = requests.sum!.dataPoints;
  t.same(
    first!.attributes!.map((a) => `${a.key}=${a.value.stringValue}`),
    ['endpoint=home', 'method=GET', 'status=200', 'testid=run-7', 'segment=1/2'],
    'the run tags name the resource, and stay on the points',
  );
  t.equal(first!.startTimeUnixNano, '1767323045678000000', 'the run start, exact');
  t.equal(first!.timeUnixNano, '1767323047178500000', 'the flush, exact to the nanosecond');

  t.equal(metrics.get('barrage_http_req_failed')!.sum!.dataPoints[0]!.asInt, '2', 'true samples');
  t.equal(metrics.get('barrage_http_req_failed_samples')!.sum!.dataPoints[0]!.asInt, '9');
  t.equal(metrics.get('barrage_data_received_bytes')!.unit, 'By');
  t.equal(metrics.get('barrage_data_received_bytes')!.sum!.dataPoints[0]!.asInt, '4096');
  t.equal(metrics.get('barrage_vus')!.gauge!.dataPoints[0]!.asInt, '3');
  t.equal(metrics.get('barrage_carts')!.sum!.dataPoints[0]!.asDouble, 2.5, 'a custom counter');

  const duration = metrics.get('barrage_http_req_duration_seconds')!;
  t.equal(duration.unit, 's');
  t.equal(
    duration.exponentialHistogram!.aggregationTemporality,
    'AGGREGATION_TEMPORALITY_CUMULATIVE',
  );
  const h = duration.exponentialHistogram!.dataPoints[0]!;
  t.equal(h.scale, 5);
  t.equal(h.count, '1000');
  t.equal(h.zeroCount ?? '0', '0');
  const counts = h.positive!.bucketCounts.map(Number);
  t.equal(
    counts.reduce((a, b) => a + b, 0),
    1000,
    'the buckets hold every sample',
  );
  // OpenTelemetry's bucket i holds (base^i, base^(i+1)], base = 2^(2^−scale): 1 ms falls in the
  // first, the largest sample (1 s as HDR holds it, to 3 digits) in the last.
  const base = 2 ** (1 / 32);
  const offset = h.positive!.offset ?? 0;
  t.ok(base ** offset < 0.001 && 0.001 <= base ** (offset + 1), `1 ms in bucket ${offset}`);
  const last = offset + counts.length - 1;
  t.ok(base ** last < h.max! && h.max! <= base ** (last + 1), `${h.max} s in bucket ${last}`);
  t.ok(Math.abs(h.sum! - 500.5) / 500.5 < 0.001, `sum ${h.sum} s ≈ Σ 1…1000 ms`);
  t.ok(Math.abs(h.min! - 0.001) < 0.000_01, `min ${h.min} s`);
  t.ok(Math.abs(h.max! - 1) < 0.001, `max ${h.max} s`);
});

t.test('an empty flush sends nothing', async (t) => {
  const sink = openOtlpOutput({
    kind: 'otlp',
    target: 'http://127.0.0.1:9/v1/metrics',
    headers: {},
    trendAs: 'native',
  });
  t.equal(sink.encode({ ...FLUSH, points: [] }), undefined);
});

/** A loopback receiver that records each request's headers and answers `status`. */
async function receiver(
  t: Test,
  status: number,
): Promise<{ url: string; requests: { headers: IncomingHttpHeaders; body: Buffer }[] }> {
  const requests: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = status;
      res.end(status === 200 ? '' : 'metric name missing');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1/metrics`, requests };
}

t.test('a payload is POSTed as protobuf with the output headers', async (t) => {
  const { url, requests } = await receiver(t, 200);
  const sink = openOtlpOutput({
    kind: 'otlp',
    target: url,
    headers: { Authorization: 'Bearer abc', 'content-type': 'text/plain', 'X-Scope-OrgID': 'team' },
    trendAs: 'native',
  });
  const payload = sink.encode({ ...FLUSH, points: [latencies()] })!;
  await sink.send(payload, AbortSignal.timeout(10_000));
  await sink.close();
  t.equal(requests.length, 1);
  const [request] = requests;
  t.equal(
    request!.headers['content-type'],
    'application/x-protobuf',
    'the body is protobuf whatever',
  );
  t.equal(request!.headers.authorization, 'Bearer abc');
  t.equal(request!.headers['x-scope-orgid'], 'team');
  t.same(new Uint8Array(request!.body), payload.body, 'the body as encoded');
});

t.test('a refusal rejects with the status and the start of the answer', async (t) => {
  const { url } = await receiver(t, 400);
  const sink = openOtlpOutput({ kind: 'otlp', target: url, headers: {}, trendAs: 'native' });
  const payload = sink.encode({ ...FLUSH, points: [latencies()] })!;
  await t.rejects(sink.send(payload, AbortSignal.timeout(10_000)), {
    message: 'the receiver answered 400: metric name missing',
  });
});
