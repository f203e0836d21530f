// `--out json=FILE` (docs/outputs.md, JSON stream): the run's figures as NDJSON while it goes.
// Read back line by line, the points' counts add up to the run's own report, per endpoint and in
// all; an interrupted run flushes what it has; a file that cannot be written refuses the run
// before anything is sent; a scenario's options cannot open an output.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

interface Line {
  readonly type: 'Metric' | 'Point';
  readonly metric: string;
  readonly time?: string;
  readonly tags?: Record<string, string>;
  readonly data: Record<string, number | string>;
}

function readLines(file: string): Line[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

/** Σ data[field] of a metric's points, by the value of one tag. */
function sumBy(
  lines: readonly Line[],
  metric: string,
  tag: string,
  field = 'count',
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of lines) {
    if (line.type !== 'Point' || line.metric !== metric) continue;
    const key = line.tags?.[tag] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + Number(line.data[field]));
  }
  return sums;
}

const TWO_ENDPOINTS = (url: string): string =>
  [
    `target: ${url}`,
    'rate: 40',
    'duration: 3s',
    'concurrency: 4',
    'tags: { testid: nightly-7 }',
    "thresholds: ['http_req_duration{endpoint=slow}:p50 >= 20', 'http_req_duration:max < 1']",
    'endpoints:',
    '  - { name: fast, url: /json, weight: 3, checks: [{ name: ok, json: "$.ok", equals: true }] }',
    '  - { name: slow, url: /delay/20, weight: 1 }',
    '',
  ].join('\n');

t.test(
  'the stream adds up to the report: per endpoint, in all, each metric declared first',
  async (t) => {
    const server = await target(t);
    const dir = t.testdir({ 'load.yaml': TWO_ENDPOINTS(server.url) });
    const result = await runInProcess(
      ['run', 'load.yaml', '--out', 'json=metrics.ndjson', '--out-period', '1s', '--json-output'],
      { cwd: dir },
    );
    t.equal(result.code, 1, 'the second threshold fails');
    const report = JSON.parse(result.stdout) as JsonResult;
    const lines = readLines(join(dir, 'metrics.ndjson'));

    const declared = new Set<string>();
    for (const line of lines) {
      if (line.type === 'Metric') declared.add(line.metric);
      else t.ok(declared.has(line.metric), `${line.metric} declared before its first point`);
    }
    t.match(lines.find((l) => l.type === 'Metric' && l.metric === 'http_req_duration')?.data, {
      kind: 'trend',
      unit: 'ms',
    });

    const requests = sumBy(lines, 'http_requests', 'endpoint');
    for (const endpoint of report.endpoints)
      t.equal(
        requests.get(endpoint.name),
        endpoint.requests,
        `${endpoint.name}: the stream's requests`,
      );
    t.equal(
      [...requests.values()].reduce((a, b) => a + b, 0),
      report.total,
    );
    const durations = sumBy(lines, 'http_req_duration', 'endpoint');
    t.equal(
      [...durations.values()].reduce((a, b) => a + b, 0),
      report.total,
      'one duration each',
    );
    const iterations = sumBy(lines, 'iterations', 'scenario');
    t.equal(iterations.get('default'), report.iterations);
    const checks = sumBy(lines, 'checks', 'check', 'trues');
    t.equal(checks.get('ok'), requests.get('fast'), 'every check of fast passed, once each');

    const points = lines.filter((l) => l.type === 'Point');
    t.ok(
      points.every((p) => p.tags?.testid === 'nightly-7'),
      'the run tag testid on every point',
    );
    const times = new Set(points.map((p) => p.time));
    t.ok(times.size >= 3, `flushed every second, and at the end (${times.size} flushes)`);
    const last = (threshold: string, metric: string) =>
      points.filter((p) => p.metric === metric && p.tags?.threshold === threshold).at(-1)?.data
        .value;
    t.equal(last('http_req_duration{endpoint=slow}:p50 >= 20', 'threshold_passed'), 1);
    t.equal(last('http_req_duration:max < 1', 'threshold_passed'), 0);
    t.equal(
      last('http_req_duration:max < 1', 'threshold_value'),
      report.max_latency_ms,
      "the last flush's value is the report's",
    );
    const slow = points.filter(
      (p) => p.metric === 'http_req_duration' && p.tags?.endpoint === 'slow',
    );
    t.ok(
      slow.every((p) => Number(p.data.p50) >= 20),
      'slow took its 20 ms in every period',
    );
  },
);

t.test('an interrupted run flushes what it has: the stream equals its report', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nrate: 50\nduration: 60s\nconcurrency: 2\n`,
  });
  const result = await runCli(
    [
      'run',
      'load.yaml',
      '--threads',
      '1',
      '--out',
      'json=m.ndjson',
      '--out-period',
      '30s',
      '--json-output',
    ],
    {
      cwd: dir,
      killAfterMs: 50_000,
      onSpawn: (child) => {
        void eventually(() => server.stats().total >= 20).then(() => child.kill('SIGINT'));
      },
    },
  );
  t.equal(result.signal, null, 'ended by itself');
  const report = JSON.parse(result.stdout) as JsonResult;
  t.equal(report.interrupted, true);
  const requests = sumBy(readLines(join(dir, 'm.ndjson')), 'http_requests', 'scenario');
  t.equal(requests.get('default'), report.total, 'the final flush holds every request');
});

t.test(
  'an output URL whose user info has a malformed escape is refused, not a crash',
  async (t) => {
    const server = await target(t);
    const dir = t.testdir({ 'load.yaml': `target: ${server.url}/json\nrequests: 5\n` });
    const result = await runInProcess(
      ['run', 'load.yaml', '--out', 'prometheus-rw=http://u%zz:pw-secret@127.0.0.1:9/api/v1/write'],
      { cwd: dir },
    );
    t.equal(result.code, 1);
    t.match(
      result.stderr,
      /--out: outputs\[0\]\.url: expected a URL whose user info is percent-encoded \(no malformed %-escape\)/,
    );
    t.notMatch(result.stderr, /\n\s+at |pw-secret/, 'no stack trace, no password');
    t.equal(server.stats().total, 0);
  },
);

t.test('an output file that cannot be written refuses the run: nothing is sent', async (t) => {
  const server = await target(t);
  const dir = t.testdir({ 'load.yaml': `target: ${server.url}/json\nrequests: 5\n` });
  const result = await runInProcess(['run', 'load.yaml', '--out', 'json=no/such/dir/m.ndjson'], {
    cwd: dir,
  });
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /barrage: cannot open the outputs: .*no\/such\/dir\/m\.ndjson.*\(nothing was sent\)/,
  );
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.equal(server.stats().total, 0);
});

t.test(
  'a bad --out is refused by name; credentials in an output URL are never shown',
  async (t) => {
    const server = await target(t);
    const dir = t.testdir({ 'load.yaml': `target: ${server.url}/json\nrequests: 5\n` });
    const bad = await runInProcess(['run', 'load.yaml', '--out', 'statsd=127.0.0.1:8125'], {
      cwd: dir,
    });
    t.equal(bad.code, 1);
    t.match(
      bad.stderr,
      /--out: outputs\[0\]: expected an output such as prometheus-rw=URL, otlp=URL, influxdb=URL or json=FILE, or a mapping with type, got "statsd=127\.0\.0\.1:8125"/,
    );
    const period = await runInProcess(
      ['run', 'load.yaml', '--out', 'json=m.ndjson', '--out-period', '5'],
      {
        cwd: dir,
      },
    );
    t.equal(period.code, 1);
    t.match(
      period.stderr,
      /--out-period: output_period: expected a duration such as 250ms, 30s, 1m30s or 2h, got "5"/,
    );
    t.equal(server.stats().total, 0, 'nothing was sent');

    const shown = await runInProcess(
      [
        'validate',
        'load.yaml',
        '--out',
        'prometheus-rw=http://ops:hunter2-canary@127.0.0.1:9/api/v1/write',
      ],
      { cwd: dir },
    );
    t.equal(shown.code, 0, shown.stderr);
    t.notMatch(shown.stdout + shown.stderr, /hunter2-canary/);
    t.match(
      shown.stdout,
      /outputs {5}prometheus-rw http:\/\/127\.0\.0\.1:9\/api\/v1\/write, every 5s/,
    );
  },
);

t.test("a scenario's options cannot open an output", async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'load.ts': [
      "import { http } from 'barrage';",
      "export const options = { outputs: ['json=stolen.ndjson'], requests: 1 };",
      "export default async function () { await http.get('/json'); }",
      '',
    ].join('\n'),
  });
  const result = await runInProcess(['run', '--scenario', 'load.ts', '--target', server.url], {
    cwd: dir,
  });
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /outputs: expected no outputs in options \(a scenario sends nowhere and writes no file\)/,
  );
  t.equal(server.stats().total, 0);
});

t.test('a segment of a distributed run streams its own series, labelled with it', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nrequests: 10\nconcurrency: 2\n`,
  });
  const result = await runInProcess(
    ['run', 'load.yaml', '--segment', '2/2', '--out', 'json=m.ndjson', '--json-output'],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const points = readLines(join(dir, 'm.ndjson')).filter((l) => l.type === 'Point');
  t.ok(points.length > 0);
  t.ok(
    points.every((p) => p.tags?.segment === '2/2'),
    'every point carries segment 2/2',
  );
  t.equal(sumBy(points, 'http_requests', 'segment').get('2/2'), 5, "this segment's share of 10");
});
