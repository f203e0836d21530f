// The rules `barrage compare` and `run --baseline` judge by (docs/reports.md, Comparing runs and
// Baselines), as units: the noise of a run's seconds, the bands a change must leave, the parse of
// relative thresholds and their limits, and the figures a result gives.
import t from 'tap';
import {
  measuredMoved,
  measuredNoise,
  MIN_SECONDS,
  relativeError,
  shareMoved,
  shareNoise,
} from '../../cli/compare/noise.js';
import {
  judgeThresholds,
  parseRelativeThreshold,
  relativeLimit,
  thresholdFigure,
} from '../../cli/compare/relative-threshold.js';
import { compareResults } from '../../cli/compare/comparison.js';
import { figuresOf } from '../../cli/compare/figures.js';
import type { ResultFigures } from '../../cli/compare/result-file.js';

t.test('relativeError: 1.4826·MAD/median/√n, none under MIN_SECONDS', async (t) => {
  t.equal(relativeError([100, 100]), undefined, 'too few seconds');
  t.equal(MIN_SECONDS, 3);
  t.equal(relativeError([100, 100, 100, 100]), 0, 'no spread, no error');
  // median 100, deviations 10, 0, 10, 20 → MAD 10.
  const e = relativeError([90, 100, 110, 120]);
  t.ok(e !== undefined && Math.abs(e - (1.4826 * 10) / 105 / 2) < 1e-12, `error ${e}`);
  t.equal(relativeError([0, 0, 0]), undefined, 'a median of 0 has no relative error');
});

t.test('measured changes: outside 3 combined errors and at least 5 %', async (t) => {
  t.equal(measuredNoise(100, undefined, 0.01), undefined);
  const noise = measuredNoise(100, 0.03, 0.04)!;
  t.ok(Math.abs(noise - 15) < 1e-12, `3 · √(0.03² + 0.04²) · 100 = 15 (${noise})`);
  t.equal(measuredMoved(100, 116, noise), true);
  t.equal(measuredMoved(100, 114, noise), false, 'inside the noise');
  t.equal(measuredMoved(100, 104, 1), false, 'outside a tiny noise but under 5 %');
  t.equal(measuredMoved(100, 95, 1), true, 'a 5 % drop counts');
});

t.test('shares: a two-proportion band and half a point', async (t) => {
  t.equal(shareNoise({ x: 0, n: 0 }, { x: 1, n: 10 }), undefined);
  const band = shareNoise({ x: 10, n: 1000 }, { x: 30, n: 1000 })!;
  const p = 40 / 2000;
  t.ok(Math.abs(band - 3 * Math.sqrt(p * (1 - p) * (2 / 1000))) < 1e-12);
  t.equal(shareMoved(0.01, 0.03, band), true);
  t.equal(shareMoved(0.01, 0.012, band), false);
  t.equal(shareMoved(0.01, 0.0149, 0), false, 'under half a percentage point');
});

t.test('relative thresholds parse through the threshold grammar', async (t) => {
  const cases: [string, number, number][] = [
    ['http_req_duration:p95 < baseline', 1, 0],
    ['http_req_duration:p95 < baseline * 1.10', 1.1, 0],
    ['http_req_duration:p95 <baseline*2', 2, 0],
    ['http_req_duration{endpoint=login}:p99 <= baseline + 20', 1, 20],
    ['checks{check=ok}:rate >= baseline - 0.01', 1, -0.01],
  ];
  for (const [expression, factor, offset] of cases) {
    const parsed = parseRelativeThreshold(expression);
    t.ok(parsed.ok, expression);
    if (parsed.ok) t.same(parsed.threshold.relative, { factor, offset }, expression);
  }
  const refused: [string, RegExp][] = [
    ['http_req_duration:p95 < 300', /a plain threshold belongs to barrage run/],
    ['http_req_duration:p95 < baseline ** 2', /after "baseline" write/],
    ['http_req_duration:p95 < baseline * x', /after "baseline" write/],
    ['http_req_duration:p95 < baseline + 1 + 2', /after "baseline" write/],
    ['http_req_waiting:p95 < baseline', /a threshold on what compare reads/],
    ['http_req_duraton:p95 < baseline', /did you mean "http_req_duration"/],
  ];
  for (const [expression, why] of refused) {
    const parsed = parseRelativeThreshold(expression);
    t.notOk(parsed.ok, expression);
    if (!parsed.ok) t.match(`${parsed.issue.expected} ${parsed.issue.actual}`, why, expression);
  }
  t.equal(relativeLimit({ factor: 1.1, offset: 0 }, 200), 200 * 1.1);
  t.equal(relativeLimit({ factor: 1, offset: -5 }, 200), 195);
});

t.test('thresholdFigure: what compare reads, by scope and name', async (t) => {
  const figure = (e: string): unknown => {
    const parsed = parseRelativeThreshold(e);
    return parsed.ok ? thresholdFigure(parsed.threshold) : parsed.issue.actual;
  };
  t.same(figure('http_req_duration:avg < baseline'), { scope: 'run', name: 'mean' });
  t.same(figure('http_req_duration{endpoint=a}:p50 < baseline'), {
    scope: 'endpoint a',
    name: 'p50',
  });
  t.same(figure('http_requests{scenario=s}:rate > baseline'), {
    scope: 'scenario s',
    name: 'requests/s',
  });
  t.same(figure('http_req_failed{team=x}:rate < baseline'), {
    scope: 'tag team=x',
    name: 'failure rate',
  });
  t.same(figure('checks{check=c}:rate >= baseline'), { scope: 'check c', name: 'pass rate' });
});

/** A one-endpoint result whose seconds all have `p95` and `requests`. */
function result(p95: number, seconds: readonly number[]): ResultFigures {
  return {
    total: seconds.reduce((a, b) => a + b, 0),
    failures: 0,
    requests_per_sec: 100,
    p50_latency_ms: p95 / 2,
    p90_latency_ms: p95,
    p95_latency_ms: p95,
    p99_latency_ms: p95,
    mean_latency_ms: p95 / 2,
    errors: {},
    status_codes: { '200': seconds.reduce((a, b) => a + b, 0) },
    endpoints: [],
    series: seconds.map((requests, i) => ({
      second: i + 1,
      requests,
      failures: 0,
      p50_ms: p95 / 2,
      p95_ms: p95 + (i % 2),
      p99_ms: p95,
    })),
    latency_distribution: [],
  };
}

t.test('figures and their comparison; thresholds judged on both', async (t) => {
  const base = result(100, [100, 101, 99, 100, 100]);
  const next = result(200, [100, 99, 101, 100, 100]);
  const names = figuresOf(base, { errors: [], statuses: [] }).map((f) => `${f.scope} · ${f.name}`);
  t.same(names.slice(0, 3), ['run · requests', 'run · requests/s', 'run · failure rate']);
  const comparison = compareResults(base, next);
  const p95 = comparison.all.find((c) => c.scope === 'run' && c.name === 'p95');
  t.equal(p95?.verdict, 'moved', 'p95 doubled');
  t.notOk(
    comparison.moved.some((c) => c.name === 'requests'),
    'the same request count did not move',
  );
  const parsed = parseRelativeThreshold('http_req_duration:p95 < baseline * 1.5');
  t.ok(parsed.ok);
  if (!parsed.ok) return;
  const [judged] = judgeThresholds([parsed.threshold], comparison.all);
  t.same(judged, {
    expression: 'http_req_duration:p95 < baseline * 1.5',
    baseline: 100,
    actual: 200,
    limit: 150,
    pass: false,
  });
});

t.test('status codes are compared as shares of the requests', async (t) => {
  const base = result(100, [100, 100, 100, 100, 100]);
  const failing = {
    ...result(100, [100, 100, 100, 100, 100]),
    status_codes: { '200': 450, '500': 50 },
  };
  const comparison = compareResults(base, failing);
  const share = (code: string) =>
    comparison.all.find((c) => c.scope === 'run' && c.name === `status ${code}`);
  t.same([share('200')?.base, share('200')?.next], [1, 0.9]);
  t.same(
    [share('500')?.base, share('500')?.next],
    [0, 0.1],
    'a code one run lacks is a 0 share there',
  );
  t.equal(share('500')?.verdict, 'moved');
});

t.test(
  "an LLM run's figures: its trends, output tokens/s and goodput, and thresholds on them",
  async (t) => {
    const trend = (p50: number) => ({
      min: p50,
      max: p50 * 3,
      mean: p50,
      p50,
      p90: p50 * 2,
      p95: p50 * 2,
      p99: p50 * 3,
    });
    const llm = (ttft: number, good: number) => ({
      output_tokens: 2000,
      goodput: { count: good, total: 100 },
      time_to_first_token_ms: trend(ttft),
      inter_token_latency_ms: trend(10),
      time_per_output_token_ms: trend(12),
      request_duration_ms: null,
    });
    const base = { ...result(100, [20, 20, 20, 20, 20]), duration_ms: 10_000, llm: llm(200, 95) };
    const next = { ...result(100, [20, 20, 20, 20, 20]), duration_ms: 10_000, llm: llm(300, 60) };
    const names = figuresOf(base, { errors: [], statuses: [] })
      .filter((f) => f.scope === 'run')
      .map((f) => f.name);
    t.ok(names.includes('TTFT p95') && names.includes('TPOT p50') && names.includes('ITL p99'));
    t.notOk(names.includes('E2E p50'), 'a trend without samples has no figure');
    const comparison = compareResults(base, next);
    const of = (name: string) => comparison.all.find((c) => c.scope === 'run' && c.name === name);
    t.same([of('TTFT p95')?.base, of('TTFT p95')?.next], [400, 600]);
    t.same([of('output tokens/s')?.base, of('output tokens/s')?.next], [200, 200]);
    t.equal(of('goodput')?.verdict, 'moved', '95 % to 60 % good');
    const parsed = parseRelativeThreshold('llm_time_to_first_token:p95 < baseline * 1.2');
    t.ok(parsed.ok);
    if (!parsed.ok) return;
    t.same(judgeThresholds([parsed.threshold], comparison.all)[0], {
      expression: 'llm_time_to_first_token:p95 < baseline * 1.2',
      baseline: 400,
      actual: 600,
      limit: 480,
      pass: false,
    });
    const onEndpoint = parseRelativeThreshold('llm_goodput{endpoint=chat}:rate > baseline');
    t.notOk(onEndpoint.ok, "refused: LLM figures are the run's and its scenarios'");
    if (!onEndpoint.ok)
      t.match(onEndpoint.issue.expected, /llm_goodput:rate, untagged or with a scenario filter/);
  },
);
