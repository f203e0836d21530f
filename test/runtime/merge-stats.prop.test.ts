/**
 * "Merged shards = one run" (STYLE.md rule 10): the same events recorded by one Recorder or split
 * at random across k Recorders and merged give the same snapshot — same counters, same histogram
 * counts (so the same percentiles), same series. Merging is associative and commutative, and the
 * histogram encoding keeps every count. Custom metrics (counters, rates, gauges, trends, with
 * and without tags) are among the events.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { ERROR_KINDS, type ErrorKind } from '../../model/errors/error-kinds.js';
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  recordMicros,
} from '../../runtime/metrics/histogram.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { Recorder, RUN_ONLY } from '../../runtime/metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { summarize } from '../../runtime/metrics/summarize.js';

const ENDPOINTS = 3;
const END_OF_RUN_US = 9_000_000;
const QUANTILES = [1, 25, 50, 75, 90, 99, 99.9, 100];

type Event =
  | {
      readonly type: 'request';
      readonly endpoint: number;
      readonly status: number;
      readonly kind: ErrorKind | undefined;
      readonly endUs: number;
      readonly durationUs: number;
      readonly waitUs: number | undefined;
      /** Time to first byte, -1 when no headers came. */
      readonly ttfbUs: number;
      readonly bytesIn: number;
      readonly bytesOut: number;
    }
  | {
      readonly type: 'unsent';
      readonly endpoint: number;
      readonly kind: ErrorKind;
    }
  | {
      readonly type: 'counter';
      readonly which: 'iteration' | 'late' | 'dropped' | 'retry' | 'vu';
    }
  | { readonly type: 'iteration_duration'; readonly us: number }
  | { readonly type: 'vus'; readonly atUs: number; readonly active: number }
  | {
      readonly type: 'connection';
      readonly endpoint: number;
      readonly connectUs: number;
      /** -1: not TLS. */
      readonly tlsUs: number;
    }
  | {
      readonly type: 'ws';
      readonly endpoint: number;
      readonly status: number;
      readonly kind: ErrorKind | undefined;
      readonly connectUs: number;
      readonly endUs: number;
      readonly sessionUs: number;
    }
  | {
      readonly type: 'message';
      readonly endpoint: number;
      readonly sent: boolean;
      readonly bytes: number;
    }
  | { readonly type: 'rtt'; readonly endpoint: number; readonly us: number }
  | {
      readonly type: 'check';
      readonly name: string;
      readonly pass: boolean;
      readonly tags: Readonly<Record<string, string>> | undefined;
    }
  | { readonly type: 'auth'; readonly ok: boolean; readonly us: number }
  | {
      readonly type: 'llm';
      readonly endpoint: number;
      readonly tokens: number;
      readonly e2eUs: number;
      readonly endUs: number;
    }
  | { readonly type: 'snapshot'; readonly atUs: number }
  | {
      readonly type: 'custom';
      readonly metric: keyof typeof CUSTOM_KINDS;
      readonly value: number;
      readonly tag: string | undefined;
      readonly atUs: number;
    };

/** Custom metrics of every kind (integer values: their sums are exact in any order). */
const CUSTOM_KINDS = { hits: 'counter', ok: 'rate', level: 'gauge', size: 'trend' } as const;

const micros = fc.oneof(
  fc.integer({ min: 0, max: 3_000 }),
  fc.integer({ min: 0, max: 5_000_000 }),
  fc.double({ min: 0, max: 1e5, noNaN: true }),
  fc.constant(5e9),
);
const kind = fc.constantFrom(...ERROR_KINDS);

const event: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('request' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      status: fc.constantFrom(0, 200, 204, 301, 404, 500, 503, 1234),
      kind: fc.option(kind, { nil: undefined }),
      endUs: fc.integer({ min: 0, max: END_OF_RUN_US - 1 }),
      durationUs: micros,
      waitUs: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
      ttfbUs: fc.oneof(fc.constant(-1), micros),
      bytesIn: fc.nat(100_000),
      bytesOut: fc.nat(10_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('unsent' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      kind,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('counter' as const),
      which: fc.constantFrom(
        'iteration' as const,
        'late' as const,
        'dropped' as const,
        'retry' as const,
        'vu' as const,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('iteration_duration' as const), us: micros }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('vus' as const),
      atUs: fc.integer({ min: 0, max: END_OF_RUN_US - 1 }),
      active: fc.nat(50),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('connection' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      connectUs: micros,
      tlsUs: fc.oneof(fc.constant(-1), micros),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('ws' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      status: fc.constantFrom(0, 101, 403),
      kind: fc.option(kind, { nil: undefined }),
      connectUs: fc.oneof(fc.constant(-1), micros),
      endUs: fc.integer({ min: 0, max: END_OF_RUN_US - 1 }),
      sessionUs: micros,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('message' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      sent: fc.boolean(),
      bytes: fc.nat(10_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('rtt' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      us: micros,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('check' as const),
      name: fc.constantFrom('status', 'body', 'header'),
      pass: fc.boolean(),
      tags: fc.constantFrom(undefined, { endpoint: 'a' }, { group: 'g', page: 'p' }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('auth' as const), ok: fc.boolean(), us: micros }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('llm' as const),
      endpoint: fc.integer({ min: 0, max: ENDPOINTS - 1 }),
      tokens: fc.nat(500),
      e2eUs: micros,
      endUs: fc.integer({ min: 0, max: END_OF_RUN_US - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('snapshot' as const),
      atUs: fc.integer({ min: 0, max: END_OF_RUN_US }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('custom' as const),
      metric: fc.constantFrom('hits' as const, 'ok' as const, 'level' as const, 'size' as const),
      value: fc.oneof(fc.nat(1000), fc.constant(0), fc.integer({ min: 0, max: 2 ** 40 })),
      tag: fc.constantFrom(undefined, 'a', 'b'),
      atUs: fc.integer({ min: 0, max: END_OF_RUN_US }),
    }),
  },
);

function play(r: Recorder, e: Event): void {
  switch (e.type) {
    case 'request': {
      const start = e.endUs - e.durationUs;
      const intended = e.waitUs === undefined ? -1 : start - e.waitUs;
      r.recordRequest(
        e.endpoint,
        e.status,
        e.kind,
        start,
        e.endUs,
        intended,
        e.bytesIn,
        e.bytesOut,
        e.ttfbUs,
      );
      return;
    }
    case 'unsent':
      return r.recordUnsent(e.kind, `in endpoint ${e.endpoint}`);
    case 'counter':
      if (e.which === 'iteration') r.recordIteration();
      else if (e.which === 'late') r.recordLate();
      else if (e.which === 'dropped') r.recordDropped();
      else if (e.which === 'vu') r.recordVuStarted();
      else r.recordRetry();
      return;
    case 'iteration_duration':
      return r.recordTrend(FIGURE.iteration_duration, RUN_ONLY, e.us);
    case 'vus':
      return r.sampleVus(e.atUs, e.active);
    case 'connection':
      return r.recordConnection(e.endpoint, e.connectUs, e.tlsUs);
    case 'ws':
      return r.recordWsSession(
        e.endpoint,
        e.status,
        e.kind,
        e.connectUs,
        e.endUs - e.sessionUs,
        e.endUs,
      );
    case 'message':
      return r.recordWsMessage(e.endpoint, e.sent, e.bytes);
    case 'rtt':
      return r.recordWsRtt(e.endpoint, e.us);
    case 'check':
      return e.tags === undefined
        ? r.recordCheck(e.name, e.pass)
        : r.recordCheck(e.name, e.pass, e.tags);
    case 'auth':
      return r.recordAuthFetch(e.ok, e.us);
    case 'llm':
      // As record-llm.ts: the request and its output tokens in the second it ended.
      r.recordTrend(FIGURE.llm_request_duration, e.endpoint, e.e2eUs, e.endUs);
      return r.recordCount(FIGURE.llm_output_tokens, e.endpoint, e.tokens, e.endUs);
    case 'snapshot':
      // Live snapshots in the middle must not change the final figures.
      r.snapshot(e.atUs);
      return;
    case 'custom': {
      const kind = CUSTOM_KINDS[e.metric];
      const value = kind === 'rate' ? Number(e.value !== 0) : e.value;
      return r.recordCustom(e.metric, kind, value, e.tag === undefined ? {} : { t: e.tag }, e.atUs);
    }
  }
}

function shardOf(
  events: readonly Event[],
  index: number,
  count: number,
  openModel: boolean,
): ShardSnapshot {
  const r = new Recorder({
    endpointCount: ENDPOINTS,
    segment: { index, count },
    // One dispatch start for every shard, as the threads of a run share: a gauge's latest value
    // is judged by the time it was set.
    startedAt: 1_000,
    openModel,
  });
  for (const e of events) play(r, e);
  return r.snapshot(END_OF_RUN_US);
}

function withoutSegments(s: ShardSnapshot): Omit<ShardSnapshot, 'segments' | 'startedAt'> {
  const { segments: _segments, startedAt: _startedAt, ...rest } = s;
  return rest;
}

const split = fc
  .tuple(fc.array(event, { maxLength: 120 }), fc.integer({ min: 1, max: 5 }), fc.boolean())
  // A custom sample's time is its place in the run (distinct ms), as one recorder sees it: two
  // gauge values set in the same ms are told apart by the greater one only across shards. A vus
  // sample gets a second of its own: a shard samples once a second, and samples of one second
  // add up across shards (other VUs) but not within one (the same VUs, sampled again).
  .map(([events, k, openModel]) =>
    fc.tuple(
      fc.constant(
        events.map((e, j) =>
          e.type === 'custom'
            ? { ...e, atUs: j * 1000 }
            : e.type === 'vus'
              ? { ...e, atUs: j * 1_000_000 }
              : e,
        ),
      ),
      fc.constant(k),
      fc.constant(openModel),
    ),
  )
  .chain((tuple) => tuple)
  .chain(([events, k, openModel]) =>
    fc.tuple(
      fc.constant(events),
      fc.array(fc.integer({ min: 0, max: k - 1 }), {
        minLength: events.length,
        maxLength: events.length,
      }),
      fc.constant(k),
      fc.constant(openModel),
    ),
  );

/** The values at QUANTILES of an encoded histogram. */
function quantiles(encoded: string): number[] {
  const h = decodeHistogram(encoded);
  return QUANTILES.map((q) => h.getValueAtPercentile(q));
}

// Properties throw (node:assert) so that fast-check shrinks a failure to a minimal example.
t.test('one recorder = the merge of k recorders given the same events', async (t) => {
  fc.assert(
    fc.property(split, ([events, owners, k, openModel]) => {
      const whole = shardOf(events, 1, 1, openModel);
      const parts = Array.from({ length: k }, (_, i) =>
        shardOf(
          events.filter((_, j) => owners[j] === i),
          i + 1,
          k,
          openModel,
        ),
      );
      const merged = mergeSnapshots(parts);
      assert.deepStrictEqual(withoutSegments(merged), withoutSegments(whole));
      assert.deepStrictEqual(
        merged.segments,
        Array.from({ length: k }, (_, i) => ({ index: i + 1, count: k })),
      );
      assert.deepStrictEqual(quantiles(merged.latency), quantiles(whole.latency));
      assert.deepStrictEqual(quantiles(merged.intended), quantiles(whole.intended));
      assert.deepStrictEqual(
        merged.series.map((s) => [s.second, s.requests, ...quantiles(s.latency)]),
        whole.series.map((s) => [s.second, s.requests, ...quantiles(s.latency)]),
      );
      assert.deepStrictEqual(summarize(merged, ['a', 'b', 'c']), summarize(whole, ['a', 'b', 'c']));
      // The per-second LLM figures add up to the run's.
      const llm = events.filter((e) => e.type === 'llm');
      const perSecond = (key: 'llmOutputTokens' | 'llmRequests'): number =>
        merged.series.reduce((n, s) => n + (s[key] ?? 0), 0);
      assert.equal(perSecond('llmRequests'), llm.length);
      assert.equal(
        perSecond('llmOutputTokens'),
        llm.reduce((n, e) => n + e.tokens, 0),
      );
    }),
    { numRuns: 60 },
  );
  t.pass('60 random runs split across 1–5 shards');
});

t.test('merge is associative and commutative', async (t) => {
  const shard = fc
    .tuple(fc.array(event, { maxLength: 40 }), fc.integer({ min: 1, max: 9 }))
    .map(([events, index]) => shardOf(events, index, 9, true));
  fc.assert(
    fc.property(shard, shard, shard, (a, b, c) => {
      const abc = mergeSnapshots([a, b, c]);
      assert.deepStrictEqual(mergeSnapshots([mergeSnapshots([a, b]), c]), abc);
      assert.deepStrictEqual(mergeSnapshots([a, mergeSnapshots([b, c])]), abc);
      assert.deepStrictEqual(mergeSnapshots([c, b, a]), abc);
      assert.deepStrictEqual(mergeSnapshots([b, a]), mergeSnapshots([a, b]));
    }),
    { numRuns: 40 },
  );
  t.pass('40 random triples of shards');
});

t.test('encode/decode keeps every count', async (t) => {
  fc.assert(
    fc.property(fc.array(micros, { maxLength: 300 }), (values) => {
      const h = createHistogram();
      for (const v of values) recordMicros(h, v);
      const encoded = encodeHistogram(h);
      const back = decodeHistogram(encoded);
      assert.equal(back.totalCount, values.length);
      for (let i = 0; i < h.countsArrayLength; i++) {
        assert.equal(back.getCountAtIndex(i), h.getCountAtIndex(i), `count at index ${i}`);
      }
      assert.equal(encodeHistogram(back), encoded);
    }),
    { numRuns: 100 },
  );
  t.pass('100 random histograms');
});
