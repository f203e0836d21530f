// stream: sse endpoints against a Server-Sent Events server written with plain Node streams in the
// test, which measures its own pacing: when each request arrived and when it wrote each event.
// barrage's figures are compared with the server's own measurements, never with wall-clock bounds.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median, pacedStreamServer, streamSlackMs } from '../helpers/paced-stream-server.js';
import { runJsonConfig, type SpawnResult } from '../helpers/run-cli.js';

interface Trend {
  readonly p50: number;
  readonly p95: number;
}

interface Json {
  readonly total: number;
  readonly failures: number;
  readonly dropped: number;
  readonly waiting_ms: Trend | null;
  readonly errors: Readonly<Record<string, number>>;
  readonly sse?: {
    readonly events: number;
    readonly time_to_first_event_ms: Trend | null;
    readonly event_gap_ms: Trend | null;
  };
  readonly endpoints: readonly {
    readonly waiting_ms: Trend | null;
    readonly sse?: { readonly events: number };
  }[];
  readonly checks?: { readonly passes: number; readonly fails: number };
  readonly thresholds?: {
    readonly results: readonly { readonly threshold: string; readonly pass: boolean }[];
  };
}

/** Runs a configuration with the built CLI; its JSON result and how it ended. */
function run(
  t: Test,
  config: string,
  flags: readonly string[] = [],
): Promise<{ json: Json; result: SpawnResult }> {
  return runJsonConfig<Json>(t, config, flags);
}

t.test('50 concurrent streams of 20 events at 50 ms: times as the server paced them', async (t) => {
  const { url, paced } = await pacedStreamServer(t, 20, 50);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      // 50 streams started 10 ms apart, all 50 open at once by the last start: a burst of 50
      // requests at one instant would time the client's and the server's queues, not the stream.
      'rate: 100',
      'duration: 500ms',
      'concurrency: 50',
      'thresholds:',
      '  - "sse_events:count >= 20"',
      '  - "sse_event_gap:p50 < 1000"',
      '  - "sse_time_to_first_event{endpoint=stream}:max < 10000"',
      'endpoints:',
      // Each virtual user opens its connection first (undici readies its HTTP parser on the
      // first one), so that the streams time the server's pacing, not a process starting.
      '  - { url: /warm, setup: true }',
      '  - name: stream',
      '    url: /sse',
      '    stream: sse',
      '    extract: { last: $.n }',
      '    checks:',
      '      - { name: last event is the 20th, json: $.n, equals: 20 }',
    ].join('\n'),
  );
  t.equal(result.code, 0, 'every threshold passes');
  // Each of the 50 virtual users sends its set-up request; the plan's 50 permits are each sent
  // or dropped (a busy machine may find no virtual user free before dispatch ends).
  const streams = json.total - 50;
  t.equal(streams + json.dropped, 50, `${streams} streams sent and ${json.dropped} dropped`);
  t.ok(streams > 0, 'streams were sent');
  t.equal(json.failures, 0);
  t.equal(paced.firstMs.length, streams, 'the server streamed each one');
  t.equal(json.sse?.events, 20 * streams, 'every event of every stream counted');
  t.equal(json.endpoints[1]?.sse?.events, 20 * streams, 'and counted for its endpoint');
  t.equal(json.endpoints[0]?.sse, undefined, 'none for the endpoint that is no stream');
  t.match(json.checks, { passes: streams, fails: 0 }, "the check on the last event's data passed");
  // The server sends its headers as each request comes, so the stream's time to first byte is the
  // request's way there and the headers' way back, which the server cannot see: less that, the
  // time to first event is the server's own wait before its first write.
  const first = json.sse!.time_to_first_event_ms!.p50;
  const transit = json.endpoints[1]!.waiting_ms!.p50;
  const serverFirst = median(paced.firstMs);
  const slack = streamSlackMs(transit);
  t.ok(first >= serverFirst - 1, `no event seen before the server wrote it`);
  t.ok(
    Math.abs(first - transit - serverFirst) <= slack,
    `time to first event p50 ${first} ms less time to first byte p50 ${transit} ms; the server's first write ${serverFirst.toFixed(3)} ms after the request came`,
  );
  const gap = json.sse!.event_gap_ms!.p50;
  const serverGap = median(paced.gapsMs);
  t.ok(
    Math.abs(gap - serverGap) <= slack,
    `event gap p50 ${gap} ms, the server's ${serverGap.toFixed(3)} ms`,
  );
  t.same(
    json.thresholds?.results.map((r) => r.pass),
    [true, true, true],
  );
});

t.test('idle_timeout fails a stream that stalls, as idle_timeout', async (t) => {
  const { url } = await pacedStreamServer(t, 5, 20);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 4',
      'concurrency: 2',
      'timeout: 30s',
      'endpoints:',
      '  - url: /sse-stall',
      '    stream: sse',
      '    idle_timeout: 200ms',
    ].join('\n'),
  );
  t.equal(result.code, 1, 'no request succeeded: the run failed, thresholds or not');
  t.equal(json.total, 4);
  t.same(json.errors, { idle_timeout: 4 }, 'each stalled stream failed as idle_timeout');
  t.equal(json.sse?.events, 4, 'the one event each stream sent is counted');
  t.equal(json.sse?.event_gap_ms, null, 'no stream had a second event');
});

t.test('thresholds on the sse metrics fail the run', async (t) => {
  const { url } = await pacedStreamServer(t, 3, 10);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 2',
      'concurrency: 2',
      'endpoints:',
      '  - url: /sse',
      '    stream: sse',
    ].join('\n'),
    [
      '--threshold',
      'sse_events:count > 6',
      '--threshold',
      'sse_event_gap:p50 > 60000',
      '--threshold',
      'sse_time_to_first_event:max > 60000',
      '--threshold',
      'sse_events:count == 6',
    ],
  );
  t.equal(result.code, 1, 'a failed threshold fails the run');
  t.equal(json.sse?.events, 6);
  t.same(
    json.thresholds?.results.map((r) => [r.threshold, r.pass]),
    [
      ['sse_events:count > 6', false],
      ['sse_event_gap:p50 > 60000', false],
      ['sse_time_to_first_event:max > 60000', false],
      ['sse_events:count == 6', true],
    ],
  );
});

t.test('an endpoint that is no stream gives the sse metrics no data', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const { json, result } = await run(
    t,
    [`target: http://127.0.0.1:${port}`, 'requests: 2', 'concurrency: 1'].join('\n'),
    ['--threshold', 'sse_events:count >= 0'],
  );
  t.equal(result.code, 1, 'no data fails the threshold');
  t.equal(json.sse, undefined, 'no sse section');
});
