import t, { type Test } from 'tap';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { uncompress } from 'snappyjs';
import type { MetricKind, MetricUnit, Tags } from '../../model/metrics/metric-registry.js';
import type { OutputPlan } from '../../model/plan/output-plan.js';
import { createHistogram, recordMicros } from '../../runtime/metrics/histogram.js';
import { upperBound } from '../../runtime/outputs/exponential-buckets.js';
import type { Figures, Point } from '../../runtime/outputs/flush-window.js';
import type { Flush } from '../../runtime/outputs/output-sink.js';
import { openPrometheusOutput } from '../../runtime/outputs/prometheus-output.js';

const PROTO_DIR = new URL('../../runtime/outputs/proto/prometheus/', import.meta.url);
/** The official definitions, parsed from the vendored .proto files (not the JSON barrage loads). */
const official = protobuf.loadSync(fileURLToPath(new URL('remote.proto', PROTO_DIR)));
const WriteRequest = official.lookupType('prometheus.WriteRequest');

interface Decoded {
  timeseries: {
    labels: { name: string; value: string }[];
    samples?: { value: number; timestamp: number }[];
    histograms?: {
      countInt: number;
      sum: number;
      schema: number;
      zeroThreshold?: number;
      zeroCountInt: number;
      positiveSpans: { offset?: number; length: number }[];
      positiveDeltas: number[];
      timestamp: number;
    }[];
  }[];
  metadata: { type: number; metricFamilyName: string; help: string; unit?: string }[];
}

function decode(body: Uint8Array | string): Decoded {
  const bytes = uncompress(body as Uint8Array);
  return WriteRequest.toObject(WriteRequest.decode(bytes), {
    longs: Number,
    defaults: false,
  }) as Decoded;
}

function point(
  metric: string,
  kind: MetricKind,
  unit: MetricUnit,
  tags: Tags,
  total: Figures,
  value = 0,
): Point {
  return {
    series: {
      metric,
      kind,
      unit,
      description: `${metric} help`,
      tags,
      count: total.count,
      trues: total.trues,
      value,
      min: value,
      max: value,
    },
    total,
    delta: total,
  };
}

const TIME = 1_700_000_000_123;
/** A sink's warnings, when a test does not read them. */
const noWarn = (): void => undefined;
const TAGS: Tags = {
  testid: 't1',
  endpoint: 'home',
  'my-tag': 'x',
  '1st': 'y',
  empty: '',
  __name__: 'no',
};

/** 1 ms three times and 2 ms once, as barrage records latencies (µs). */
function latencies(): NonNullable<Figures['histogram']> {
  const h = createHistogram();
  for (const us of [1000, 1000, 1000, 2000]) recordMicros(h, us);
  return h;
}

function flush(): Flush {
  const h = latencies();
  const custom = createHistogram();
  // A custom trend's 0, 5 and 7, recorded × 1000 (barrage's latencies are never below 1 µs).
  for (const v of [0, 5000, 7000]) custom.recordValue(v);
  return {
    timeMs: TIME,
    startedAt: TIME - 5000,
    points: [
      point('http_requests', 'counter', 'count', TAGS, { count: 42, trues: 0 }),
      point('data_received', 'counter', 'bytes', { testid: 't1' }, { count: 1234, trues: 0 }),
      point('http_req_failed', 'rate', 'ratio', { testid: 't1' }, { count: 10, trues: 3 }),
      point('vus', 'gauge', 'count', { testid: 't1' }, { count: 0, trues: 0 }, 7),
      point(
        'http_req_duration',
        'trend',
        'ms',
        { testid: 't1', endpoint: 'home' },
        { count: 4, trues: 0, histogram: h },
      ),
      point(
        'cart_size',
        'trend',
        'none',
        { testid: 't1' },
        { count: 3, trues: 0, histogram: custom },
      ),
    ],
  };
}

function plan(over: Partial<OutputPlan> = {}): OutputPlan {
  return {
    kind: 'prometheus-rw',
    target: 'http://127.0.0.1:9/api/v1/write',
    headers: {},
    trendAs: 'native',
    ...over,
  };
}

function byName(decoded: Decoded, name: string): Decoded['timeseries'] {
  return decoded.timeseries.filter((s) =>
    s.labels.some((l) => l.name === '__name__' && l.value === name),
  );
}

function labelsOf(series: Decoded['timeseries'][number]): Record<string, string> {
  return Object.fromEntries(series.labels.map((l) => [l.name, l.value]));
}

t.test(
  'the committed JSON descriptor is the vendored .proto files (node scripts/write-prometheus-proto.mjs if not)',
  async (t) => {
    const committed: unknown = JSON.parse(
      readFileSync(new URL('remote-write.json', PROTO_DIR), 'utf8'),
    );
    t.same(committed, official.toJSON());
  },
);

t.test('a flush as a WriteRequest: names, labels, values, timestamps', async (t) => {
  const payload = openPrometheusOutput(plan(), noWarn).encode(flush())!;
  const decoded = decode(payload.body);
  t.equal(payload.samples, decoded.timeseries.length, 'one sample per series');
  t.equal(decoded.timeseries.length, 7);

  const [requests] = byName(decoded, 'barrage_http_requests_total');
  t.same(requests!.samples, [{ value: 42, timestamp: TIME }]);
  t.same(
    requests!.labels.map((l) => l.name),
    ['_1st', '__name__', 'endpoint', 'my_tag', 'testid'],
    'sanitized, sorted by name; the empty tag and a tag named __name__ left out',
  );
  t.same(labelsOf(requests!), {
    __name__: 'barrage_http_requests_total',
    _1st: 'y',
    endpoint: 'home',
    my_tag: 'x',
    testid: 't1',
  });

  t.equal(byName(decoded, 'barrage_data_received_bytes_total')[0]?.samples?.[0]?.value, 1234);
  t.equal(
    byName(decoded, 'barrage_http_req_failed_total')[0]?.samples?.[0]?.value,
    3,
    'true samples',
  );
  t.equal(
    byName(decoded, 'barrage_http_req_failed_samples_total')[0]?.samples?.[0]?.value,
    10,
    'all samples',
  );
  t.equal(byName(decoded, 'barrage_vus')[0]?.samples?.[0]?.value, 7);

  const types = Object.fromEntries(
    decoded.metadata.map((m) => [m.metricFamilyName, [m.type, m.unit ?? '']]),
  );
  t.same(types['barrage_http_requests_total'], [1, ''], 'counter');
  t.same(types['barrage_data_received_bytes_total'], [1, 'bytes']);
  t.same(types['barrage_vus'], [2, ''], 'gauge');
  t.same(types['barrage_http_req_duration_seconds'], [3, 'seconds'], 'histogram');
});

t.test(
  'a ms trend as a native histogram in seconds: schema 5, zero bucket, spans and deltas',
  async (t) => {
    const decoded = decode(openPrometheusOutput(plan(), noWarn).encode(flush())!.body);
    const [duration] = byName(decoded, 'barrage_http_req_duration_seconds');
    t.same(labelsOf(duration!), {
      __name__: 'barrage_http_req_duration_seconds',
      endpoint: 'home',
      testid: 't1',
    });
    t.same(duration!.samples ?? [], []);
    const h = duration!.histograms![0]!;
    t.equal(h.countInt, 4);
    t.equal(h.zeroCountInt ?? 0, 0, 'no latency is 0');
    t.equal(h.schema, 5);
    t.equal(h.timestamp, TIME);
    t.ok(Math.abs(h.sum - 0.005) < 1e-12, `sum ${h.sum} s`);
    // 1 ms is in bucket ceil(32·log2(0.001)) = −318, 2 ms in −286: two spans, a gap of 31.
    t.same(h.positiveSpans, [
      { offset: -318, length: 1 },
      { offset: 31, length: 1 },
    ]);
    t.same(h.positiveDeltas, [3, -2], 'counts 3 then 1, delta-encoded');
    t.ok(
      upperBound(-318) >= 0.001 && upperBound(-319) < 0.001,
      '1 ms is in (base^−319, base^−318]',
    );
    t.ok(
      upperBound(-286) >= 0.002 && upperBound(-287) < 0.002,
      '2 ms is in (base^−287, base^−286]',
    );

    const [custom] = byName(decoded, 'barrage_cart_size');
    const c = custom!.histograms![0]!;
    t.equal(c.countInt, 3, 'a custom trend keeps its unit, no _seconds');
    t.equal(c.zeroCountInt, 1, 'its 0 is in the zero bucket');
    t.ok(
      Math.abs(c.sum - 12) / 12 < 0.001,
      `sum ${c.sum}: HDR's median equivalent values, within 0.1 %`,
    );
    t.same(
      c.positiveSpans,
      [
        { offset: 75, length: 1 },
        { offset: 14, length: 1 },
      ],
      '5 → ⌈32·log2 5⌉ = 75, 7 → 90',
    );
    t.same(c.positiveDeltas, [1, 0]);
  },
);

t.test('trend_as stats: a summary of the run so far', async (t) => {
  const decoded = decode(
    openPrometheusOutput(plan({ trendAs: 'stats' }), noWarn).encode(flush())!.body,
  );
  t.equal(
    decoded.timeseries.filter((s) => (s.histograms ?? []).length > 0).length,
    0,
    'no histogram',
  );
  const quantiles: Record<string, number> = Object.fromEntries(
    byName(decoded, 'barrage_http_req_duration_seconds').map((s): [string, number] => [
      labelsOf(s).quantile ?? '',
      s.samples![0]!.value,
    ]),
  );
  t.same(quantiles, {
    '0': 0.001,
    '0.5': 0.001,
    '0.9': 0.002,
    '0.95': 0.002,
    '0.99': 0.002,
    '1': 0.002,
  });
  t.equal(byName(decoded, 'barrage_http_req_duration_seconds_count')[0]?.samples?.[0]?.value, 4);
  const sum =
    byName(decoded, 'barrage_http_req_duration_seconds_sum')[0]?.samples?.[0]?.value ?? NaN;
  t.ok(Math.abs(sum - 0.005) < 1e-12, `sum ${sum}`);
  t.equal(
    byName(decoded, 'barrage_cart_size').find((s) => labelsOf(s).quantile === '1')?.samples?.[0]
      ?.value,
    7.003,
    "a custom trend in its own unit: 7's highest equivalent value, barrage's own max",
  );
  t.equal(
    decoded.metadata.find((m) => m.metricFamilyName === 'barrage_http_req_duration_seconds')?.type,
    5,
    'summary',
  );
});

t.test('nothing to send: no payload', async (t) => {
  const empty = {
    timeMs: TIME,
    startedAt: TIME,
    points: [point('x', 'trend', 'ms', {}, { count: 0, trues: 0 })],
  };
  t.equal(openPrometheusOutput(plan(), noWarn).encode(empty), undefined);
});

/** A loopback receiver answering `status` with `answer`; records what it received. */
async function receiver(
  t: Test,
  status: number,
  answer: (headers: IncomingHttpHeaders) => string,
): Promise<{ url: string; received: { headers: IncomingHttpHeaders; body: Buffer }[] }> {
  const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end(answer(req.headers));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`,
    received,
  };
}

t.test('sends with the headers remote write 1.0 requires and the output’s own', async (t) => {
  const target = await receiver(t, 204, () => '');
  const sink = openPrometheusOutput(
    plan({
      target: target.url,
      headers: { Authorization: 'Bearer s3cret-token', 'X-Scope-OrgID': 'team' },
    }),
    noWarn,
  );
  await sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
  const { headers, body } = target.received[0]!;
  t.match(headers, {
    'content-encoding': 'snappy',
    'content-type': 'application/x-protobuf',
    'x-prometheus-remote-write-version': '0.1.0',
    'user-agent': 'barrage',
    authorization: 'Bearer s3cret-token',
    'x-scope-orgid': 'team',
  });
  t.equal(decode(body).timeseries.length, 7, 'the body is the snappy-compressed request');
});

t.test('a refusal says the status and the answer, never the output’s credentials', async (t) => {
  const target = await receiver(t, 500, (h) => `bad request from ${String(h.authorization)}`);
  const sink = openPrometheusOutput(
    plan({ target: target.url, headers: { Authorization: 'Bearer s3cret-token' } }),
    noWarn,
  );
  const refused = sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
  await t.rejects(refused, { message: /^the receiver answered 500: bad request from/ });
  await refused.catch((error: Error) => t.notMatch(error.message, /s3cret/));
});

/** A receiver refusing native histograms as Prometheus 2.42 does without its feature flag. */
async function noHistograms(t: Test): Promise<{ url: string; received: Decoded[] }> {
  const received: Decoded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const decoded = decode(Buffer.concat(chunks));
      received.push(decoded);
      const native = decoded.timeseries.some((s) => (s.histograms ?? []).length > 0);
      res.writeHead(native ? 500 : 204).end(native ? 'native histograms are disabled\n' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`,
    received,
  };
}

t.test(
  'a receiver refusing native histograms gets the flush again as summaries, and every later one, told once',
  async (t) => {
    const target = await noHistograms(t);
    const warnings: string[] = [];
    const sink = openPrometheusOutput(plan({ target: target.url }), (w) => warnings.push(w));
    await sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
    await sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
    t.equal(target.received.length, 3, 'refused once, then the resend, then the next flush');
    for (const request of target.received.slice(1)) {
      t.equal(
        request.timeseries.filter((s) => (s.histograms ?? []).length > 0).length,
        0,
        'no native histogram',
      );
      t.equal(byName(request, 'barrage_http_requests_total')[0]?.samples?.[0]?.value, 42);
      t.equal(
        byName(request, 'barrage_http_req_duration_seconds_count')[0]?.samples?.[0]?.value,
        4,
        'the trend as a summary',
      );
    }
    t.equal(warnings.length, 1, 'said once');
    t.match(warnings[0], /native histograms are disabled; the trends are sent as summaries/);
    t.match(warnings[0], /--enable-feature=native-histograms/);
  },
);

t.test('a refusal not naming histograms is not sent again', async (t) => {
  const target = await receiver(t, 400, () => 'out of order sample');
  const warnings: string[] = [];
  const sink = openPrometheusOutput(plan({ target: target.url }), (w) => warnings.push(w));
  await t.rejects(sink.send(sink.encode(flush())!, AbortSignal.timeout(5000)), {
    message: /answered 400: out of order sample/,
  });
  t.equal(target.received.length, 1);
  t.same(warnings, []);
});

t.test(
  'a request refused as too large (413) goes again in halves, and later flushes in parts, told once',
  async (t) => {
    const accepted: Decoded[] = [];
    let refused = 0;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const decoded = decode(Buffer.concat(chunks));
        if (decoded.timeseries.length > 4) {
          refused++;
          res.writeHead(413).end('request too large');
          return;
        }
        accepted.push(decoded);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`;
    const warnings: string[] = [];
    const sink = openPrometheusOutput(plan({ target: url }), (w) => warnings.push(w));
    const names = (requests: readonly Decoded[]): string[] =>
      requests.flatMap((r) => r.timeseries.map((s) => labelsOf(s).__name__ ?? '')).sort();
    const whole = names([decode(sink.encode(flush())!.body)]);
    t.equal(whole.length, 7, 'a flush of 7 series');
    await sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
    t.equal(refused, 1, 'refused once');
    t.same(names(accepted), whole, 'every series taken, in smaller requests');
    const parts = accepted.length;
    await sink.send(sink.encode(flush())!, AbortSignal.timeout(5000));
    t.equal(refused, 1, 'the next flush goes in parts at once');
    t.same(names(accepted.slice(parts)), whole);
    t.equal(warnings.length, 1, 'said once');
    t.match(warnings[0], /answered 413: request too large; each flush is sent in smaller requests/);
  },
);
