// The live outputs' core (runtime/outputs/): a snapshot's series, what each flush adds, and the
// runner that never lets a receiver hold the run: a refusing receiver and one that never answers
// (real loopback servers) cost payloads, counted, with one warning each.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { OutputKind } from '../../model/plan/output-plan.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import { NO_RUN_TAGS, type SampleTable } from '../../runtime/metrics/sample-select.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { FlushWindow } from '../../runtime/outputs/flush-window.js';
import { metricSeries } from '../../runtime/outputs/metric-series.js';
import { MAX_QUEUED, OutputRunner } from '../../runtime/outputs/output-runner.js';
import type { Flush, OutputSink, Payload } from '../../runtime/outputs/output-sink.js';
import { postPayload } from '../../runtime/outputs/post-payload.js';

const TABLE: SampleTable = {
  ...NO_RUN_TAGS,
  names: ['home', 'login'],
  endpoints: [{ method: 'GET' }, { method: 'POST' }],
};

/** A recorder of two endpoints that took `requests` of (endpoint, status, ms). */
function recorded(requests: readonly [number, number, number][]): Recorder {
  const recorder = new Recorder({
    endpointCount: 2,
    segment: { index: 1, count: 1 },
    startedAt: Date.now(),
    openModel: false,
  });
  more(recorder, requests);
  return recorder;
}

function more(recorder: Recorder, requests: readonly [number, number, number][]): void {
  for (const [endpoint, status, ms] of requests) {
    recorder.recordIteration();
    recorder.recordRequest(
      endpoint,
      status,
      status >= 500 ? 'http_5xx' : undefined,
      0,
      ms * 1000,
      -1,
      100,
      10,
    );
  }
}

t.test('series: requests per endpoint and outcome, tagged as thresholds see them', async (t) => {
  const recorder = recorded([
    [0, 200, 5],
    [0, 200, 7],
    [0, 503, 30],
    [1, 201, 12],
  ]);
  const series = metricSeries(recorder.snapshot(1_000_000), TABLE, {});
  const requests = series.filter((s) => s.metric === 'http_requests');
  t.strictSame(
    requests.map((s) => [
      s.tags.endpoint,
      s.tags.method,
      s.tags.status,
      s.tags.error_kind,
      s.count,
    ]),
    [
      ['home', 'GET', '200', undefined, 2],
      ['home', 'GET', '503', 'http_5xx', 1],
      ['login', 'POST', '201', undefined, 1],
    ],
  );
  const failed = series.filter((s) => s.metric === 'http_req_failed');
  t.strictSame(
    failed.map((s) => [s.count, s.trues]),
    [
      [2, 0],
      [1, 1],
      [1, 0],
    ],
  );
  t.ok(requests.every((s) => s.tags.scenario === 'default'));
  t.equal(series.find((s) => s.metric === 'iterations')?.count, 4);
  t.equal(series.find((s) => s.metric === 'data_received')?.count, 400);
});

t.test('a flush window: totals since the start, and what each period added', async (t) => {
  const recorder = recorded([
    [0, 200, 5],
    [0, 200, 50],
  ]);
  const window = new FlushWindow();
  const first = window.next(metricSeries(recorder.snapshot(1_000_000), TABLE, {}));
  const duration = (points: typeof first) =>
    points.find((p) => p.series.metric === 'http_req_duration')!;
  t.equal(duration(first).delta.count, 2, 'the first period counts whole');
  more(recorder, [
    [0, 200, 100],
    [0, 200, 100],
    [0, 200, 100],
  ]);
  const second = window.next(metricSeries(recorder.snapshot(2_000_000), TABLE, {}));
  t.equal(duration(second).total.count, 5);
  t.equal(duration(second).delta.count, 3);
  t.ok(
    Math.abs(duration(second).delta.histogram!.getValueAtPercentile(0) / 1000 - 100) < 0.1,
    "the period's least is its own: 100 ms",
  );
  const requests = second.find((p) => p.series.metric === 'http_requests')!;
  t.strictSame([requests.total.count, requests.delta.count], [5, 3]);
  const third = window.next(metricSeries(recorder.snapshot(3_000_000), TABLE, {}));
  t.equal(duration(third).delta.count, 0, 'nothing new: an empty period');
});

/** A sink that POSTs each flush's point count to a URL, with postPayload. */
function postingSink(url: string): OutputSink {
  return {
    kind: 'influxdb' satisfies OutputKind,
    target: url,
    encode: (flush: Flush): Payload => ({
      body: String(flush.points.length),
      samples: flush.points.length,
    }),
    send: (payload, signal) => postPayload({ url, protocol: {}, own: {} }, payload.body, signal),
    close: async () => undefined,
  };
}

async function receiver(
  t: Test,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const server = createServer((req, res) => {
    seen++;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/write`,
    seen: () => seen,
  };
}

function runner(sink: OutputSink, warnings: string[], periodMs = 20): OutputRunner {
  return new OutputRunner([sink], periodMs, {
    wallMs: () => Date.now(),
    table: () => TABLE,
    metrics: {},
    thresholds: [],
    tags: { testid: 't-1' },
    warn: (text) => warnings.push(text),
  });
}

const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test(
  'a receiver that refuses: each payload lost and counted, one warning with its answer',
  async (t) => {
    const server = await receiver(t, (_req, res) => {
      res.writeHead(500).end(`overloaded ${'x'.repeat(100_000)}`);
    });
    const warnings: string[] = [];
    const outputs = runner(postingSink(server.url), warnings);
    const snapshot: ShardSnapshot = recorded([[0, 200, 5]]).snapshot(1_000_000);
    outputs.update(snapshot);
    await until(200);
    outputs.end(snapshot);
    const [stats] = await outputs.drain(new AbortController().signal);
    t.equal(stats!.sent, 0);
    t.ok(stats!.failed >= 2, `${stats!.failed} refused`);
    t.ok(stats!.samplesLost > 0 && stats!.samplesSent === 0);
    t.match(stats!.lastError, /^the receiver answered 500: overloaded x+$/);
    t.ok(stats!.lastError!.length < 250, 'the answer is quoted, not read whole');
    t.equal(warnings.length, 1, 'one warning, whatever the number of failures');
    t.match(
      warnings[0],
      /output influxdb http:\/\/127\.0\.0\.1:\d+\/write: the receiver answered 500/,
    );
  },
);

t.test('a receiver that never answers holds one send; the queue stays bounded', async (t) => {
  const server = await receiver(t, () => undefined);
  const warnings: string[] = [];
  const sink = postingSink(server.url);
  let encoded = 0;
  const counting: OutputSink = {
    ...sink,
    encode: (flush) => {
      encoded++;
      return sink.encode(flush);
    },
  };
  const outputs = runner(counting, warnings, 10);
  const snapshot = recorded([[0, 200, 5]]).snapshot(1_000_000);
  outputs.update(snapshot);
  // Flushes come every 10 ms; a busy machine fires fewer timers, so wait for the flushes, not a time.
  while (encoded <= MAX_QUEUED + 2) await until(10);
  outputs.end(snapshot);
  const giveUp = new AbortController();
  setTimeout(() => giveUp.abort(), 100);
  const [stats] = await outputs.drain(giveUp.signal);
  t.equal(server.seen(), 1, 'one send at a time');
  t.equal(stats!.sent, 0);
  const perFlush = metricSeries(snapshot, TABLE, {}).length;
  t.equal(stats!.samplesLost % perFlush, 0, 'whole flushes lost');
  t.ok(
    stats!.samplesLost / perFlush > MAX_QUEUED + 1,
    'more flushes than the queue holds, all lost',
  );
  t.equal(stats!.lastError, 'still unanswered when the run stopped waiting for its outputs');
  t.equal(warnings.length, 1);
});
