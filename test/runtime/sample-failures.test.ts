// The reports' sample failures: a shard keeps the first 3 failed requests of each endpoint and
// error kind, 50 in all, asking nothing once full; merges keep, in time order, the first 3 of each
// endpoint name and kind and 50 in all, whatever the grouping (threads, segments, `merge`).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import {
  MAX_SAMPLES,
  mergeSampleFailures,
  SAMPLES_PER_KEY,
  SampleFailures,
} from '../../runtime/metrics/sample-failures.js';

function record(endpoint: string, kind: string, atMs: number, vu = 0): ExchangeRecord {
  return {
    time: new Date(Date.UTC(2025, 0, 1) + atMs).toISOString(),
    endpoint,
    vu,
    method: 'GET',
    url: `http://127.0.0.1/${endpoint}`,
    request: { headers: {}, body: '', body_bytes: 0 },
    response: { status: 500, headers: {}, body: null, body_bytes: 0 },
    timings: { waiting_ms: 1, duration_ms: 2 },
    error_kind: kind,
  };
}

t.test('a shard keeps 3 per endpoint and kind, 50 in all', async (t) => {
  const samples = new SampleFailures();
  let kept = 0;
  for (let i = 0; i < 10; i++) {
    if (!samples.wants(0, 'http_5xx')) continue;
    samples.keep(0, 'http_5xx', record('a', 'http_5xx', i));
    kept++;
  }
  t.equal(kept, SAMPLES_PER_KEY);
  t.ok(samples.wants(0, 'timeout'), 'another kind of the same endpoint');
  t.ok(samples.wants(1, 'http_5xx'), 'the same kind of another endpoint');
  for (let endpoint = 1; endpoint < 40; endpoint++)
    for (let i = 0; i < 3; i++)
      if (samples.wants(endpoint, 'http_5xx'))
        samples.keep(endpoint, 'http_5xx', record(`e${endpoint}`, 'http_5xx', i));
  t.equal(samples.snapshot()?.length, MAX_SAMPLES);
  t.notOk(samples.wants(99, 'refused'), 'nothing more once 50 are kept');
  t.equal(new SampleFailures().snapshot(), undefined, 'none: absent');
});

t.test('a merge keeps the earliest 3 per endpoint and kind', async (t) => {
  const a = [record('x', 'http_5xx', 5), record('x', 'http_5xx', 7), record('x', 'timeout', 1)];
  const b = [record('x', 'http_5xx', 1), record('x', 'http_5xx', 6), record('y', 'http_5xx', 9)];
  const merged = mergeSampleFailures([a, b]) ?? [];
  t.same(
    merged.map((r) => `${r.endpoint} ${r.error_kind} ${r.time.slice(20, 23)}`),
    ['x http_5xx 001', 'x timeout 001', 'x http_5xx 005', 'x http_5xx 006', 'y http_5xx 009'],
  );
  t.equal(mergeSampleFailures([undefined, undefined]), undefined);
});

t.test('merging merges = merging all (any grouping, any order)', async (t) => {
  const arbitraryRecord = fc
    .tuple(
      fc.constantFrom('a', 'b', 'c'),
      fc.constantFrom('http_5xx', 'timeout'),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 3 }),
    )
    .map(([endpoint, kind, atMs, vu]) => record(endpoint, kind, atMs, vu));
  fc.assert(
    fc.property(
      fc.array(arbitraryRecord, { maxLength: 120 }),
      fc.array(arbitraryRecord, { maxLength: 120 }),
      (left, right) => {
        const whole = mergeSampleFailures([left, right]);
        const grouped = mergeSampleFailures([
          mergeSampleFailures([right]),
          mergeSampleFailures([left]),
        ]);
        assert.deepEqual(grouped, whole);
      },
    ),
  );
  t.pass('100 random pairs merged alike');
  const many = Array.from({ length: 30 }, (_, i) => record(`e${i}`, 'http_5xx', i));
  t.equal(mergeSampleFailures([many, many.map((r) => ({ ...r, vu: 1 }))])?.length, MAX_SAMPLES);
});
