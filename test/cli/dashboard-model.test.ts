import t from 'tap';
import { buildModel, ratesPerSecond, runLengthMs } from '../../cli/dashboard/dashboard-model.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import { sectionsOf } from '../../cli/dashboard/screen-sections.js';
import type { LiveState } from '../../runtime/segment/live-state.js';
import { loadFixture } from '../helpers/plan-fixture.js';

const TARGET = 'http://127.0.0.1:9';

function recorder(endpoints: number, openModel = false): Recorder {
  return new Recorder({
    endpointCount: endpoints,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel,
  });
}

t.test(
  'requests/s of each ended second; missing seconds are 0; the current one waits',
  async (t) => {
    const r = recorder(1);
    for (const second of [0, 0, 2, 3])
      r.recordRequest(0, 200, undefined, 0, second * 1e6 + 10, -1, 0, 0);
    t.same(ratesPerSecond(r.snapshot(3_500_000)), [2, 0, 1]);
    t.same(ratesPerSecond(r.snapshot(999_000)), []);
  },
);

t.test(
  'run length: the shorter of duration and pattern; undefined with requests only',
  async (t) => {
    const dir = t.testdir();
    t.equal(
      runLengthMs((await loadFixture(dir, { target: TARGET, duration: '20s' })).plan),
      20_000,
    );
    t.equal(
      runLengthMs((await loadFixture(dir, { target: TARGET, requests: 10 })).plan),
      undefined,
    );
    const pattern = { type: 'ramp', from: 1, to: 10, duration: '10s' };
    t.equal(
      runLengthMs((await loadFixture(dir, { target: TARGET, duration: '1m', pattern })).plan),
      10_000,
    );
  },
);

t.test('gauges, tables and live thresholds from one snapshot', async (t) => {
  const loaded = await loadFixture(t.testdir(), {
    target: TARGET,
    duration: '10s',
    requests: 1000,
    rate: 100,
    concurrency: 4,
    endpoints: [
      { name: 'home', url: '/' },
      { name: 'api', url: '/api' },
    ],
    thresholds: ['http_req_failed:rate < 0.1', 'http_req_duration{endpoint=api}:p95 < 1'],
  });
  const r = recorder(2, true);
  for (let i = 0; i < 400; i++) r.recordIteration();
  for (let i = 0; i < 300; i++) r.recordRequest(0, 200, undefined, 0, 1000 + i, -1, 0, 0);
  for (let i = 0; i < 100; i++) {
    const failed = i < 60;
    r.recordRequest(
      1,
      failed ? 503 : 200,
      failed ? 'http_5xx' : undefined,
      0,
      2000 + 1e6,
      -1,
      0,
      0,
    );
  }
  const live: LiveState = { workers: 4, busy: 3, inFlight: 2, targetRate: 100 };
  const model = buildModel({
    plan: loaded.plan,
    title: TARGET,
    endpointNames: ['home', 'api'],
    latency: { p50: [], p95: [] },
    snapshot: r.snapshot(2_500_000),
    live,
    stopping: false,
    latestErrors: [],
  });
  t.equal(model.state, 'running');
  t.equal(model.load, '4 workers · 100/s');
  t.same(model.rates, [300, 100]);
  t.same(
    model.gauges.map((g) => [g.label, g.fraction, g.text, g.tone]),
    [
      ['progress', 0.4, '40%  2.5s of 10.0s · 400 of 1000 iterations', 'ok'],
      ['errors', 0.15, '15.00%  60 of 400', 'bad'],
      ['busy', 0.75, '3 of 4 workers · 2 in flight', 'ok'],
      ['rate', 1, '100/s of 100/s target', 'ok'],
    ],
  );
  t.same(model.statusCodes, [
    { key: '200', count: 340, share: 0.85 },
    { key: '503', count: 60, share: 0.15 },
  ]);
  t.same(model.errorKinds, [{ key: 'http_5xx', count: 60, share: 0.15 }]);
  t.same(
    model.endpoints.map((e) => [e.name, e.requests, e.failureRate]),
    [
      ['api', 100, 0.6],
      ['home', 300, 0],
    ],
    'worst first',
  );
  const p = model.endpoints[0]!.percentiles();
  t.ok(p !== undefined && p.p50 > 1 && p.p95 >= p.p50 && p.p99 >= p.p95, 'percentiles in ms');
  t.equal(model.endpoints[0]!.percentiles(), p, 'computed once');
  t.same(
    model.thresholds.map((x) => [x.threshold, x.pass]),
    [
      ['http_req_failed:rate < 0.1', false],
      ['http_req_duration{endpoint=api}:p95 < 1', false],
    ],
  );
});

t.test('before the first snapshot, and while stopping', async (t) => {
  const loaded = await loadFixture(t.testdir(), { target: TARGET, duration: '5s', concurrency: 2 });
  const input = {
    plan: loaded.plan,
    title: TARGET,
    endpointNames: [],
    latency: { p50: [], p95: [] },
    snapshot: undefined,
    live: undefined,
    stopping: false,
    latestErrors: [],
  };
  const starting = buildModel(input);
  t.equal(starting.state, 'starting');
  t.same(starting.rates, []);
  t.same(
    starting.gauges.map((g) => g.label),
    ['progress', 'errors', 'busy'],
    'no rate gauge in the closed model',
  );
  t.equal(buildModel({ ...input, stopping: true }).state, 'stopping');
});

t.test('named scenarios: their load, run length and rows', async (t) => {
  const loaded = await loadFixture(t.testdir(), {
    target: TARGET,
    endpoints: [{ name: 'home', url: '/' }],
    scenarios: {
      browse: { executor: 'constant-vus', vus: 2, duration: '10s' },
      buy: {
        executor: 'constant-arrival-rate',
        rate: 5,
        duration: '5s',
        pre_allocated_vus: 1,
        start_time: '8s',
      },
    },
  });
  t.equal(runLengthMs(loaded.plan), 13_000, 'the latest end: 8 s + 5 s');
  const browse = recorder(1);
  const buy = recorder(1, true);
  browse.recordRequest(0, 200, undefined, 0, 1000, -1, 0, 0);
  buy.recordRequest(0, 503, 'http_5xx', 0, 2000, -1, 0, 0);
  const model = buildModel({
    plan: loaded.plan,
    title: TARGET,
    endpointNames: ['home'],
    latency: { p50: [], p95: [] },
    snapshot: {
      ...browse.snapshot(1e6),
      scenarios: { browse: browse.snapshot(1e6), buy: buy.snapshot(1e6) },
    },
    live: undefined,
    stopping: false,
    latestErrors: [],
  });
  t.equal(model.load, '2 scenarios: browse (constant-vus), buy (constant-arrival-rate)');
  t.same(
    model.scenarios.map((s) => [s.name, s.requests, s.failureRate]),
    [
      ['browse', 1, 0],
      ['buy', 1, 1],
    ],
  );
});

t.test('endpoints named as the report names them: one row per name, worst first', async (t) => {
  const loaded = await loadFixture(t.testdir(), { target: TARGET, duration: '10s' });
  const r = recorder(4);
  // A scenario's `browse` met in two groups (indexes 1 and 3), and two other names.
  for (let i = 0; i < 10; i++) r.recordRequest(0, 200, undefined, 0, 1000, -1, 0, 0);
  for (let i = 0; i < 5; i++) r.recordRequest(1, 200, undefined, 0, 40_000, -1, 0, 0);
  for (let i = 0; i < 5; i++) r.recordRequest(3, 200, undefined, 0, 60_000, -1, 0, 0);
  for (let i = 0; i < 4; i++) r.recordRequest(2, 200, undefined, 0, 2000, -1, 0, 0);
  const model = buildModel({
    plan: loaded.plan,
    title: TARGET,
    endpointNames: ['login', 'browse', 'checkout', 'browse'],
    latency: { p50: [], p95: [] },
    snapshot: r.snapshot(1_000_000),
    live: undefined,
    stopping: false,
    latestErrors: [],
  });
  t.same(
    model.endpoints.map((e) => [e.name, e.requests]),
    [
      ['browse', 10],
      ['checkout', 4],
      ['login', 10],
    ],
    'the slowest first, both groups of browse in one row',
  );
  const p = model.endpoints[0]!.percentiles()!;
  t.ok(p.p50 >= 39 && p.p50 <= 41 && p.p95 >= 59, `both groups' latencies: ${JSON.stringify(p)}`);
});

t.test(
  'the LLM line: TTFT so far and output tokens per second, once an LLM request ended',
  async (t) => {
    const loaded = await loadFixture(t.testdir(), {
      target: TARGET,
      requests: 10,
      endpoints: [
        {
          name: 'chat',
          url: '/v1/chat/completions',
          method: 'POST',
          stream: 'sse',
          llm: 'openai-chat',
        },
      ],
    });
    const frame = (snapshotted: Recorder) =>
      buildModel({
        plan: loaded.plan,
        title: TARGET,
        endpointNames: ['chat'],
        latency: { p50: [], p95: [] },
        snapshot: snapshotted.snapshot(2_000_000),
        live: undefined,
        stopping: false,
        latestErrors: [],
      });
    const r = recorder(1);
    t.equal(frame(r).llm, undefined, 'no line before an LLM request ended');
    // Two requests of 30 and 40 output tokens, first tokens after 100 and 300 ms (exact in HDR).
    r.recordTrend(FIGURE.llm_time_to_first_token, 0, 100_000);
    r.recordTrend(FIGURE.llm_time_to_first_token, 0, 300_000);
    r.recordCount(FIGURE.llm_output_tokens, 0, 30);
    r.recordCount(FIGURE.llm_output_tokens, 0, 40);
    const llm = frame(r).llm!;
    t.equal(llm.outputTokens, 70);
    t.equal(llm.outputPerSecond, 35, '70 tokens in 2 s');
    t.ok(Math.abs(llm.ttftP50Ms! - 100) < 0.1, `TTFT p50 ${llm.ttftP50Ms} ms`);
    t.ok(Math.abs(llm.ttftP95Ms! - 300) < 0.3, `TTFT p95 ${llm.ttftP95Ms} ms`);
    const lines = sectionsOf(frame(r), 100).flatMap((s) => [...s.head, ...s.body(1)]);
    t.ok(
      lines.some((l) =>
        l
          .map((s) => s.text)
          .join('')
          .includes('35.0/s'),
      ),
      'the screen shows the line',
    );
  },
);
