// Custom metrics (issue 26): a TypeScript scenario's Trend, Counter, Rate and Gauge and a YAML
// endpoint's metrics: against a real local server, in every report, over threads and --segment
// processes merged, with their thresholds, refusals and bounds.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';

interface Result {
  readonly threshold: string;
  readonly actual: number | null;
  readonly pass: boolean;
}
type Figures = Readonly<Record<string, unknown>>;
interface Report {
  readonly total: number;
  readonly thresholds: { readonly results: readonly Result[] };
  readonly metrics: Readonly<Record<string, Figures & { by_tags?: readonly Figures[] }>>;
  readonly endpoints: readonly { readonly name: string; readonly requests: number }[];
  readonly warnings?: readonly string[];
}

/** A server answering every path with {"size":250,"ok":true}; it counts requests. */
async function target(t: Test): Promise<{ url: string; count: () => number }> {
  let seen = 0;
  const server = createServer((_req, res) => {
    seen++;
    res.setHeader('content-type', 'application/json');
    res.end('{"size":250,"ok":true,"label":"many"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, count: () => seen };
}

const THRESHOLDS: readonly (readonly [string, number, boolean])[] = [
  ['list_bytes:max == 250', 250, true],
  ['list_bytes{group=cart}:min == 250', 250, true],
  ['not_found:count == 24', 24, true],
  ['not_found:count > 100', 24, false],
  ['ok_rate:rate == 0.5', 0.5, true],
  ['ok_rate{kind=a}:rate == 1', 1, true],
  ['ok_rate{kind=b}:rate > 0.5', 0, false],
  ['depth:value == 7', 7, true],
  ['depth:min == 3', 3, true],
];

const SCENARIO = `import { http, group, Trend, Counter, Rate, Gauge } from 'barrage';
const bytes = new Trend('list_bytes');
const notFound = new Counter('not_found');
const ok = new Rate('ok_rate');
const depth = new Gauge('depth');
export const options = {
  requests: 12,
  concurrency: 2,
  thresholds: ${JSON.stringify(THRESHOLDS.map(([e]) => e))},
};
export default async function () {
  const res = await http.get('/list');
  const size = (res.json() as { size: number }).size;
  await group('cart', async () => {
    bytes.add(size);
  });
  notFound.add(2);
  ok.add(true, { kind: 'a' });
  ok.add(0, { kind: 'b' });
  depth.add(3);
  depth.add(7);
}
`;

/** The figures every run of SCENARIO must give, whatever threads or segments ran it. */
function assertFigures(t: Test, report: Report): void {
  const m = report.metrics;
  t.equal(report.total, 12, '12 requests');
  t.match(m.list_bytes, { type: 'trend', unit: 'none', count: 12, min: 250, max: 250 });
  t.same(
    m.list_bytes!.by_tags?.map((s) => s.tags),
    [{ group: 'cart' }],
    'tagged by its group',
  );
  t.match(m.not_found, { type: 'counter', count: 24 });
  t.match(m.ok_rate, { type: 'rate', rate: 0.5, trues: 12, total: 24 });
  t.same(
    m.ok_rate!.by_tags?.map((s) => [s.tags, s.trues, s.total]),
    [
      [{ kind: 'a' }, 12, 12],
      [{ kind: 'b' }, 0, 12],
    ],
  );
  t.match(m.depth, { type: 'gauge', value: 7, min: 3, max: 7 });
  const actual = Object.fromEntries(
    report.thresholds.results.map((r) => [r.threshold, [r.actual, r.pass]]),
  );
  for (const [expression, value, pass] of THRESHOLDS)
    t.same(actual[expression], [value, pass], expression);
}

t.test('a scenario’s Trend, Counter, Rate and Gauge in text, JSON, HTML and JUnit', async (t) => {
  const server = await target(t);
  const dir = t.testdir({ 's.ts': SCENARIO });
  const flags = ['--target', server.url, '--scenario', 's.ts'];
  const run = await runInProcess(
    ['run', ...flags, '--json', 'r.json', '--html', 'r.html', '--junit', 'j.xml'],
    { cwd: dir },
  );
  t.equal(run.code, 1, 'two thresholds fail');
  t.equal(server.count(), 12);
  assertFigures(t, JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report);
  t.match(run.stdout, /Custom metrics:/);
  t.match(run.stdout, /│ depth\s+│ gauge\s+│ value=7 min=3 max=7/);
  t.match(run.stdout, /│ not_found\s+│ counter │ count=24 rate=/);
  t.match(run.stdout, /│ ok_rate\s+│ rate\s+│ 50\.0% \(12 of 24\)/);
  t.match(run.stdout, /│ list_bytes\s+│ trend\s+│ count=12 p50=250\.\d\d/);
  t.match(run.stdout, /│ {3}\{group=cart\}/);
  t.match(run.stdout, /✗ not_found:count > 100: 24\.00 > 100\.00/);
  const html = readFileSync(join(dir, 'r.html'), 'utf8');
  t.match(html, /<section id="custom-metrics">/);
  t.match(
    html,
    /<td class="name">depth<\/td><td>gauge<\/td><td><\/td><td>value=7 min=3 max=7<\/td>/,
  );
  const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
  t.match(junit, /<testcase name="ok_rate\{kind=a\}:rate == 1" classname="barrage.thresholds"\/>/);
  t.match(
    junit,
    /<testcase name="ok_rate\{kind=b\}:rate &gt; 0.5" classname="barrage.thresholds">\s*<failure/,
  );
});

t.test('over 2 threads and over 3 --segment processes merged: the same figures', async (t) => {
  const server = await target(t);
  const dir = t.testdir({ 's.ts': SCENARIO });
  const flags = ['--target', server.url, '--scenario', 's.ts'];
  const threaded = await runInProcess(['run', ...flags, '--threads', '2', '--json-output'], {
    cwd: dir,
  });
  assertFigures(t, JSON.parse(threaded.stdout) as Report);
  const segments = await Promise.all(
    [1, 2, 3].map((i) =>
      runInProcess(
        ['run', ...flags, '-c', '3', '--segment', `${i}/3`, '--raw', `s${i}.json`, '--json-output'],
        {
          cwd: dir,
        },
      ),
    ),
  );
  t.same(
    segments.map((s) => (JSON.parse(s.stdout) as Report).metrics.not_found!.count),
    [8, 8, 8],
    'each segment counted its share',
  );
  const merged = await runInProcess(['merge', 's1.json', 's2.json', 's3.json', '--json-output'], {
    cwd: dir,
  });
  t.equal(merged.code, 1, 'the merge judges the same thresholds');
  assertFigures(t, JSON.parse(merged.stdout) as Report);
});

t.test('YAML metrics: fed by a JSONPath extractor, with a threshold', async (t) => {
  const server = await target(t);
  const yaml = [
    `target: ${server.url}`,
    'requests: 6',
    'concurrency: 2',
    'metrics:',
    '  cart_total: { type: trend, unit: bytes, description: Bytes of the list }',
    '  served_ok: { type: rate }',
    '  bad_value: { type: counter }',
    'endpoints:',
    '  - name: list',
    '    url: /list',
    '    tags: { team: shop }',
    '    metrics: { cart_total: $.size, served_ok: { json: $.ok }, bad_value: $.label }',
    'thresholds:',
    "  - 'cart_total{endpoint=list,status=200,team=shop}:max == 250'",
    "  - 'served_ok:rate == 1'",
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': yaml });
  const run = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  t.match(report.metrics.cart_total, {
    type: 'trend',
    unit: 'bytes',
    description: 'Bytes of the list',
    count: 6,
    max: 250,
  });
  t.same(report.metrics.cart_total!.by_tags?.[0]?.tags, {
    endpoint: 'list',
    method: 'GET',
    status: '200',
    team: 'shop',
  });
  t.match(report.metrics.served_ok, { rate: 1, trues: 6, total: 6 });
  t.equal(report.metrics.bad_value, undefined, '"many" is not a number: no sample');
  t.match(report.warnings, [/custom metric bad_value: 6 extracted values were not samples/]);
  t.match(run.stderr, /barrage: warning: custom metric bad_value: 6 extracted values/);
});

t.test('validate refuses undeclared metrics, bad declarations and late ones', async (t) => {
  const dir = t.testdir({
    'typo.ts': `import { Trend } from 'barrage';
new Trend('cart_bytes');
export const options = { thresholds: ['cart_bytez:p95 < 1'] };
export default async function () {}
`,
    'late.ts': `import { Counter } from 'barrage';
export default async function () { new Counter('late'); }
`,
    'twice.ts': `import { Counter, Gauge } from 'barrage';
new Counter('twice');
new Gauge('twice');
export default async function () {}
`,
    'decl.yaml': [
      'target: http://127.0.0.1:9',
      'metrics:',
      '  http_req_duration: { type: trend }',
      '  cart: { type: histogram }',
      '  weight: { type: gauge, unit: kg }',
      'endpoints:',
      '  - { url: /, metrics: { cart: $.n } }',
    ].join('\n'),
    'undeclared.yaml': [
      'target: http://127.0.0.1:9',
      'metrics: { cart_total: { type: counter } }',
      'endpoints:',
      '  - { url: /, metrics: { cart_totl: $.n } }',
    ].join('\n'),
  });
  const typo = await runInProcess(['validate', '--scenario', 'typo.ts'], { cwd: dir });
  t.equal(typo.code, 1);
  t.match(typo.stderr, /thresholds\[0\]/);
  t.match(typo.stderr, /unknown metric "cart_bytez".*did you mean "cart_bytes"\?/);
  t.notMatch(typo.stderr, / {4}at /, 'no stack trace');
  const twice = await runInProcess(['validate', '--scenario', 'twice.ts'], { cwd: dir });
  t.equal(twice.code, 1);
  t.match(twice.stderr, /twice is already declared as a counter \(one type per name\)/);
  const decl = await runInProcess(['validate', 'decl.yaml'], { cwd: dir });
  t.equal(decl.code, 1);
  t.match(decl.stderr, /decl\.yaml:3:\d+: metrics\.http_req_duration: .*not a built-in metric/);
  t.match(
    decl.stderr,
    /decl\.yaml:4:\d+: metrics\.cart\.type: expected one of trend, counter, rate, gauge/,
  );
  t.match(
    decl.stderr,
    /decl\.yaml:5:\d+: metrics\.weight\.unit: expected one of ms, bytes, count, ratio, none/,
  );
  const undeclared = await runInProcess(['validate', 'undeclared.yaml'], { cwd: dir });
  t.equal(undeclared.code, 1);
  t.match(
    undeclared.stderr,
    /undeclared\.yaml:4:\d+: endpoints\[0\]\.metrics\.cart_totl: expected a metric declared under the top-level metrics: cart_total.*did you mean cart_total\?/,
  );
  const server = await target(t);
  const late = await runInProcess(
    ['run', '--target', server.url, '--scenario', 'late.ts', '-n', '1', '--json-output'],
    { cwd: dir },
  );
  t.match(
    (JSON.parse(late.stdout) as { iteration_errors: Record<string, number> }).iteration_errors,
    { script_error: 1 },
    'the iteration that declares fails',
  );
  t.match(late.stderr, /must be declared at the top level of the scenario/);
});

t.test('cardinality: 100,000 tag values stay within 101 series; 150 urls fold', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'many.ts': `import { http, Trend } from 'barrage';
const t = new Trend('per_id');
export default async function () {
  for (let i = 0; i < 100000; i++) t.add(i % 7, { id: String(i) });
  for (let i = 0; i < 150; i++) await http.get('/item/' + i);
}
`,
  });
  const run = await runInProcess(
    [
      'run',
      '--target',
      server.url,
      '--scenario',
      'many.ts',
      '-n',
      '1',
      '--raw',
      'r.json',
      '--json-output',
    ],
    { cwd: dir },
  );
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  const series = report.metrics.per_id!.by_tags!;
  t.equal(series.length, 101, '100 tag sets and {other=true}');
  t.match(
    series.find((s) => (s.tags as Record<string, string>).other === 'true'),
    { count: 99_900 },
  );
  t.equal(report.metrics.per_id!.count, 100_000, 'no sample lost');
  t.match(report.warnings, [
    /custom metric per_id had more than 100 tag sets in a thread: 99900 samples were counted in its series \{other=true\}/,
    /at least 50 request names past the first 100 were counted under \(other\)/,
  ]);
  t.equal(report.endpoints.find((e) => e.name === '(other)')?.requests, 50);
  t.match(run.stderr, /barrage: warning: at least 50 request names/);
  const raw = readFileSync(join(dir, 'r.json'), 'utf8');
  t.ok(raw.length < 2_000_000, `the raw result stays small (${raw.length} characters)`);
});
