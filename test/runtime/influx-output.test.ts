// The influxdb output's encoding (runtime/outputs/influx-output.ts): one line protocol line per
// series with samples in the period, its fields per kind, tags escaped by the client's Point.
import t from 'tap';
import { createHistogram, recordMicros } from '../../runtime/metrics/histogram.js';
import type { Figures, Point } from '../../runtime/outputs/flush-window.js';
import { encodeLines, openInfluxOutput } from '../../runtime/outputs/influx-output.js';
import type { Series } from '../../runtime/outputs/metric-series.js';
import type { MetricKind } from '../../model/metrics/metric-registry.js';

const TIME_MS = 1_764_000_000_123;
const NO_FIGURES: Figures = { count: 0, trues: 0 };

function series(metric: string, kind: MetricKind, extra: Partial<Series> = {}): Series {
  return {
    metric,
    kind,
    unit: kind === 'trend' ? 'ms' : 'none',
    description: '',
    tags: { testid: 'run-1' },
    count: 0,
    trues: 0,
    value: 0,
    min: 0,
    max: 0,
    ...extra,
  };
}

function point(s: Series, delta: Figures): Point {
  return { series: s, total: delta, delta };
}

function lines(...points: Point[]): string[] {
  return encodeLines({ points, timeMs: TIME_MS, startedAt: TIME_MS - 5000 });
}

t.test('each kind gets its fields, stamped with the flush time in ms', async (t) => {
  const histogram = createHistogram();
  // Below 2048 µs the histogram holds each microsecond exactly.
  for (const us of [500, 1000, 1500, 2000]) recordMicros(histogram, us);
  t.same(
    lines(
      point(series('http_requests', 'counter', { count: 40 }), { count: 7, trues: 0 }),
      point(series('http_req_failed', 'rate', { count: 40, trues: 4 }), { count: 8, trues: 2 }),
      point(series('http_req_duration', 'trend'), { count: 4, trues: 0, histogram }),
      point(series('vus', 'gauge', { value: 3, min: 1, max: 5 }), NO_FIGURES),
    ),
    [
      `http_requests,testid=run-1 value=7 ${TIME_MS}`,
      `http_req_failed,testid=run-1 count=8i,rate=0.25,trues=2i ${TIME_MS}`,
      `http_req_duration,testid=run-1 count=4i,max=2,mean=1.25,min=0.5,p50=1,p90=2,p95=2,p99=2 ${TIME_MS}`,
      `vus,testid=run-1 max=5,min=1,value=3 ${TIME_MS}`,
    ],
  );
});

t.test('a series with nothing in the period sends no line; a gauge always does', async (t) => {
  t.same(
    lines(
      point(series('http_requests', 'counter', { count: 40 }), NO_FIGURES),
      point(series('checks', 'rate', { count: 3, trues: 3 }), NO_FIGURES),
      point(series('http_req_duration', 'trend'), {
        count: 0,
        trues: 0,
        histogram: createHistogram(),
      }),
      point(series('vus_max', 'gauge', { value: 4, min: 4, max: 4 }), NO_FIGURES),
    ),
    [`vus_max,testid=run-1 max=4,min=4,value=4 ${TIME_MS}`],
  );
  t.equal(
    openInfluxOutput({
      kind: 'influxdb',
      target: 'http://127.0.0.1:1/write',
      headers: {},
      trendAs: 'native',
    }).encode({ points: [], timeMs: TIME_MS, startedAt: TIME_MS }),
    undefined,
    'an empty flush is no payload',
  );
});

t.test('tags with spaces, commas and equals signs are escaped; empty ones left out', async (t) => {
  const tags = { endpoint: 'GET /a b,c=d', 'my tag': 'x=1', empty: '', testid: 'run-1' };
  t.same(lines(point(series('http_requests', 'counter', { tags }), { count: 1, trues: 0 })), [
    `http_requests,endpoint=GET\\ /a\\ b\\,c\\=d,my\\ tag=x\\=1,testid=run-1 value=1 ${TIME_MS}`,
  ]);
});

t.test(
  'a custom metric name is escaped as a measurement; a value not finite is left out',
  async (t) => {
    t.same(
      lines(
        point(
          series('cart value,eur', 'gauge', { value: 2.5, min: -Infinity, max: Number.NaN }),
          NO_FIGURES,
        ),
        point(
          series('odd', 'gauge', { value: Infinity, min: Infinity, max: Infinity }),
          NO_FIGURES,
        ),
      ),
      [`cart\\ value\\,eur,testid=run-1 value=2.5 ${TIME_MS}`],
    );
  },
);

t.test(
  'a payload counts its lines as samples; the URL gets precision=ms unless it has one',
  async (t) => {
    const sink = openInfluxOutput({
      kind: 'influxdb',
      target: 'http://127.0.0.1:1/write?db=barrage',
      headers: {},
      trendAs: 'native',
    });
    const payload = sink.encode({
      points: [
        point(series('iterations', 'counter'), { count: 2, trues: 0 }),
        point(series('vus', 'gauge', { value: 1, min: 1, max: 1 }), NO_FIGURES),
      ],
      timeMs: TIME_MS,
      startedAt: TIME_MS,
    });
    t.equal(payload?.samples, 2);
    t.equal(
      payload?.body,
      `iterations,testid=run-1 value=2 ${TIME_MS}\nvus,testid=run-1 max=1,min=1,value=1 ${TIME_MS}`,
    );
    t.equal(sink.target, 'http://127.0.0.1:1/write?db=barrage', 'messages show the URL as given');
  },
);
