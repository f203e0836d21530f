// stream: chunks endpoints against a streaming server written with plain Node streams in the test
// (test/helpers/paced-stream-server.ts), which measures its own pacing. barrage's figures are
// compared with the server's measurements, never with wall-clock bounds. A chunk is a read of the
// body: writes that reach the client together are one, so counts are bounded by the writes.
import t, { type Test } from 'tap';
import { median, pacedStreamServer, streamSlackMs } from '../helpers/paced-stream-server.js';
import { runJsonConfig, type SpawnResult } from '../helpers/run-cli.js';
import { testRefusals } from '../helpers/validate-refusals.js';

interface Trend {
  readonly p50: number;
}

interface ChunkFigures {
  readonly chunks: number;
  readonly time_to_first_chunk_ms: Trend | null;
  readonly chunk_gap_ms: Trend | null;
}

interface Json {
  readonly total: number;
  readonly failures: number;
  readonly dropped: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly sse?: unknown;
  readonly stream?: ChunkFigures;
  readonly endpoints: readonly { readonly waiting_ms: Trend | null; stream?: ChunkFigures }[];
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

t.test(
  '50 concurrent NDJSON bodies of 20 lines at 50 ms: timed as the server paced them',
  async (t) => {
    const { url, paced } = await pacedStreamServer(t, 20, 50);
    const { json, result } = await run(
      t,
      [
        `target: ${url}`,
        // 50 bodies started 10 ms apart, all open at once by the last start (as sse-stream.test.ts).
        'rate: 100',
        'duration: 500ms',
        'concurrency: 50',
        'thresholds:',
        '  - "stream_chunks:count > 0"',
        '  - "stream_chunk_gap:p50 < 1000"',
        '  - "stream_time_to_first_chunk{endpoint=lines}:max < 10000"',
        'endpoints:',
        '  - { url: /warm, setup: true }',
        '  - name: lines',
        '    url: /ndjson',
        '    stream: chunks',
        '    checks:',
        '      - { name: the whole body was kept, body: { contains: "{\\"n\\":20}" } }',
      ].join('\n'),
    );
    t.equal(result.code, 0, 'every threshold passes');
    // Each of the 50 virtual users sends its set-up request; the plan's 50 permits are each sent
    // or dropped (a busy machine may find no virtual user free in time).
    const bodies = json.total - 50;
    t.equal(bodies + json.dropped, 50, `${bodies} bodies sent and ${json.dropped} dropped`);
    t.ok(bodies > 0, 'bodies were sent');
    t.equal(json.failures, 0);
    t.equal(paced.writes, 20 * bodies, 'the server wrote 20 lines to each body');
    const chunks = json.stream!.chunks;
    t.ok(
      chunks <= paced.writes && chunks >= 0.95 * paced.writes,
      `${chunks} chunks read of ${paced.writes} writes`,
    );
    t.equal(json.endpoints[1]?.stream?.chunks, chunks, 'and counted for its endpoint');
    t.equal(json.endpoints[0]?.stream, undefined, 'none for the endpoint that is no stream');
    t.equal(json.sse, undefined, 'no sse figures');
    t.match(json.checks, { passes: bodies, fails: 0 }, 'checks read the whole body');
    const first = json.stream!.time_to_first_chunk_ms!.p50;
    const transit = json.endpoints[1]!.waiting_ms!.p50;
    const serverFirst = median(paced.firstMs);
    const slack = streamSlackMs(transit);
    t.ok(first >= serverFirst - 1, `no chunk seen before the server wrote it`);
    t.ok(
      Math.abs(first - transit - serverFirst) <= slack,
      `time to first chunk p50 ${first} ms less time to first byte p50 ${transit} ms; the server's first write ${serverFirst.toFixed(3)} ms after the request came`,
    );
    const gap = json.stream!.chunk_gap_ms!.p50;
    const serverGap = median(paced.gapsMs);
    t.ok(
      Math.abs(gap - serverGap) <= slack,
      `chunk gap p50 ${gap} ms, the server's ${serverGap.toFixed(3)} ms`,
    );
    t.same(
      json.thresholds?.results.map((r) => r.pass),
      [true, true, true],
    );
  },
);

t.test('a JSON document that arrives in chunks is extracted whole', async (t) => {
  const { url, paced } = await pacedStreamServer(t, 0, 30);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 4',
      'concurrency: 2',
      'endpoints:',
      '  - url: /json',
      '    stream: chunks',
      "    extract: { third: '$.parts[2]' }",
      '    checks:',
      "      - { name: third part, json: '$.parts[2]', equals: 3 }",
    ].join('\n'),
  );
  t.equal(result.code, 0);
  t.equal(json.failures, 0, 'the extractor found $.parts[2] in every body (else extract_error)');
  t.equal(paced.writes, 12, 'each body came in three writes');
  t.ok(json.stream!.chunks >= 4 && json.stream!.chunks <= 12, `${json.stream!.chunks} chunks`);
  t.match(json.checks, { passes: 4, fails: 0 });
});

t.test('idle_timeout fails a body that stalls between chunks, as idle_timeout', async (t) => {
  const { url } = await pacedStreamServer(t, 1, 20);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 4',
      'concurrency: 2',
      'timeout: 30s',
      'endpoints:',
      '  - url: /stall',
      '    stream: chunks',
      '    idle_timeout: 200ms',
    ].join('\n'),
  );
  t.equal(result.code, 1, 'no request succeeded: the run failed, thresholds or not');
  t.same(json.errors, { idle_timeout: 4 }, 'each stalled body failed as idle_timeout');
  t.equal(json.stream?.chunks, 4, 'the one chunk each body sent is counted');
  t.equal(json.stream?.chunk_gap_ms, null, 'no body had a second chunk');
});

t.test('thresholds on the stream metrics fail the run', async (t) => {
  const { url } = await pacedStreamServer(t, 3, 20);
  const { json, result } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 2',
      'concurrency: 2',
      'endpoints:',
      '  - url: /ndjson',
      '    stream: chunks',
    ].join('\n'),
    [
      '--threshold',
      'stream_chunks:count > 6',
      '--threshold',
      'stream_chunk_gap:p50 > 60000',
      '--threshold',
      'stream_time_to_first_chunk:max > 60000',
      '--threshold',
      'stream_chunks:count >= 2',
      '--threshold',
      'sse_events:count >= 0',
    ],
  );
  t.equal(result.code, 1, 'a failed threshold fails the run');
  t.same(
    json.thresholds?.results.map((r) => [r.threshold, r.pass]),
    [
      ['stream_chunks:count > 6', false],
      ['stream_chunk_gap:p50 > 60000', false],
      ['stream_time_to_first_chunk:max > 60000', false],
      ['stream_chunks:count >= 2', true],
      ['sse_events:count >= 0', false],
    ],
    'a chunks stream gives the sse metrics no data',
  );
});

testRefusals('target: http://127.0.0.1:9\nrequests: 1\nendpoints:\n  - url: /\n', [
  [
    'a stream kind that is none',
    '    stream: lines',
    /load\.yaml:5:\d+: endpoints\[0\]\.stream: expected sse \(.*\) or chunks \(.*\), got "lines"/,
  ],
  [
    'idle_timeout without stream',
    '    idle_timeout: 1s',
    /load\.yaml:5:\d+: endpoints\[0\]\.idle_timeout: expected idle_timeout only with stream: sse or stream: chunks/,
  ],
]);
