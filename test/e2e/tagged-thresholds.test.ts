// Thresholds on any tag set (issue 26): a YAML run's endpoint, status, method, scenario and user
// tags, and a TypeScript scenario's group() and call tags, against a real local server.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';

interface Result {
  readonly threshold: string;
  readonly actual: number | null;
  readonly pass: boolean;
}
interface Report {
  readonly thresholds: { readonly results: readonly Result[] };
  readonly endpoints: readonly { readonly name: string; readonly requests: number }[];
}

/** A server: /ok answers 200, /broken 500; it counts what it saw by path. */
async function target(t: Test): Promise<{ url: string; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    res.statusCode = path === '/broken' ? 500 : 200;
    res.end('{"id":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

/** Each threshold's actual value and verdict, by expression. */
function verdicts(report: Report): Record<string, [number | null, boolean]> {
  return Object.fromEntries(
    report.thresholds.results.map((r) => [r.threshold, [r.actual, r.pass]] as const),
  );
}

const YAML_THRESHOLDS = [
  'http_req_failed{endpoint=login,status=200}:rate == 0',
  'http_requests{endpoint=broken,status=500}:count == 4',
  'http_requests{method=POST}:count == 8',
  'http_req_failed{team=auth}:rate < 0.01',
  'http_req_failed{env=ci}:rate < 0.01',
  'http_req_failed{expected_response=false,error_kind=http_5xx}:count == 4',
  'http_req_duration{scenario=default,status=500}:max < 60000',
  'checks{team=auth,env=ci}:count == 8',
  'checks{endpoint=login,method=POST}:rate == 1',
];

function yamlConfig(url: string, threads: number): string {
  return [
    `target: ${url}`,
    'concurrency: 2',
    'requests: 4',
    `threads: ${threads}`,
    'tags: { env: ci }',
    'endpoints:',
    '  - name: login',
    '    method: POST',
    '    url: /ok',
    '    tags: { team: auth }',
    "    checks: [{ name: has id, json: '$.id' }]",
    '  - { name: broken, url: /broken, tags: { team: shop } }',
    'flows:',
    '  - { name: visit, steps: [login, login, broken] }',
    'thresholds:',
    ...YAML_THRESHOLDS.map((e) => `  - '${e}'`),
  ].join('\n');
}

for (const threads of [1, 2]) {
  t.test(
    `YAML thresholds on endpoint, status, method and user tags (${threads} thread(s))`,
    async (t) => {
      const { url, seen } = await target(t);
      const dir = t.testdir({ 'tags.yaml': yamlConfig(url, threads) });
      const run = await runInProcess(['run', join(dir, 'tags.yaml'), '--json-output', '--quiet'], {
        cwd: dir,
      });
      t.equal(run.code, 1, `one threshold fails: ${run.stderr}`);
      t.equal(seen.get('/ok'), 8, 'the server saw the plan: 4 flows of 3 steps');
      t.equal(seen.get('/broken'), 4);
      const v = verdicts(JSON.parse(run.stdout) as Report);
      t.same(v['http_req_failed{endpoint=login,status=200}:rate == 0'], [0, true]);
      t.same(v['http_requests{endpoint=broken,status=500}:count == 4'], [4, true]);
      t.same(v['http_requests{method=POST}:count == 8'], [8, true]);
      t.same(v['http_req_failed{team=auth}:rate < 0.01'], [0, true]);
      t.same(v['http_req_failed{env=ci}:rate < 0.01'], [4 / 12, false], 'the run tag is on all');
      t.same(v['http_req_failed{expected_response=false,error_kind=http_5xx}:count == 4'], [
        4,
        true,
      ]);
      t.equal(v['http_req_duration{scenario=default,status=500}:max < 60000']?.[1], true);
      t.same(
        v['checks{team=auth,env=ci}:count == 8'],
        [8, true],
        "a check carries its endpoint's tags",
      );
      t.same(v['checks{endpoint=login,method=POST}:rate == 1'], [1, true]);
    },
  );
}

t.test('validate refuses tags and values that cannot occur, with a did-you-mean', async (t) => {
  const dir = t.testdir({ 'tags.yaml': yamlConfig('http://127.0.0.1:9', 1) });
  const cases: readonly (readonly [string, string])[] = [
    ['http_req_failed{tema=auth}:rate < 0.1', 'did you mean team?'],
    ['http_req_failed{team=aut}:rate < 0.1', 'did you mean auth?'],
    ['http_req_failed{status=ok}:rate < 0.1', 'a status code'],
    ['http_req_failed{scenario=checkout}:rate < 0.1', 'a scenario name: default'],
    ['http_req_failed{method=PUT}:rate < 0.1', 'a method of an endpoint: POST, GET'],
    ['http_req_failed{error_kind=http_500}:rate < 0.1', 'did you mean http_5xx?'],
    ['checks{status=200}:rate > 0.9', 'checks samples carry no "status" tag'],
    ['checks{check=has idd}:rate > 0.9', 'did you mean has id?'],
  ];
  for (const [threshold, message] of cases) {
    const result = await runInProcess([
      'validate',
      join(dir, 'tags.yaml'),
      '--threshold',
      threshold,
    ]);
    t.equal(result.code, 1, threshold);
    t.match(result.stderr, message, threshold);
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
  const quoted = await runInProcess([
    'validate',
    join(dir, 'tags.yaml'),
    '--threshold',
    'http_req_failed{endpoint="login"}:rate < 0.1',
  ]);
  t.equal(quoted.code, 0, quoted.stderr);
});

t.test('a group() tags its requests, which keep their names; call tags select', async (t) => {
  const { url, seen } = await target(t);
  const dir = t.testdir({
    'shop.ts': `
      import { http, group, check } from 'barrage';
      export const options = {
        thresholds: [
          'http_requests{endpoint=add to cart}:count == 6',
          'http_requests{group=cart}:count == 6',
          'http_requests{group=cart,page=basket}:count == 3',
          'http_requests{endpoint=add to cart,method=POST}:count == 3',
          'http_req_duration{page=home}:max < 60000',
          'http_req_failed{group=cart}:rate < 0.01',
          'checks{group=cart,step=add}:count == 3',
          'checks{check=ok}:count == 6',
        ],
      };
      export default async function () {
        await http.get('/ok', { tags: { page: 'home' } });
        await group('cart', async () => {
          await http.get('/ok', { name: 'add to cart' });
          const res = await http.post('/ok', '{}', { name: 'add to cart', tags: { page: 'basket' } });
          check(res, { ok: (r) => r.status === 200 }, { step: 'add' });
        });
        check(1, { ok: () => true });
      }
    `,
  });
  const run = await runInProcess(
    [
      'run',
      '--scenario',
      join(dir, 'shop.ts'),
      '--target',
      url,
      '-n',
      '3',
      '-c',
      '1',
      '--json-output',
      '--quiet',
    ],
    { cwd: dir },
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(seen.get('/ok'), 9);
  const report = JSON.parse(run.stdout) as Report;
  t.same(
    report.endpoints.map((e) => [e.name, e.requests]),
    [
      ['GET /ok', 3],
      ['add to cart', 6],
    ],
    'one line per name: the group is a tag, not part of the name',
  );
  for (const [threshold, [actual, pass]] of Object.entries(verdicts(report)))
    t.ok(pass, `${threshold}: ${actual}`);
});

t.test(
  "a call's tag under one of barrage's own keys fails the call, and nothing is sent",
  async (t) => {
    const { url, seen } = await target(t);
    const dir = t.testdir({
      'bad.ts': `
      import { http } from 'barrage';
      export default async function () {
        await http.get('/ok', { tags: { status: 'fine' } });
      }
    `,
    });
    const run = await runInProcess(
      [
        'run',
        '--scenario',
        join(dir, 'bad.ts'),
        '--target',
        url,
        '-n',
        '2',
        '-c',
        '1',
        '--json-output',
        '--quiet',
      ],
      { cwd: dir },
    );
    const report = JSON.parse(run.stdout) as { iterations_failed: number; total: number };
    t.equal(report.iterations_failed, 2);
    t.equal(report.total, 0);
    t.equal(seen.get('/ok'), undefined);
    t.match(run.stderr + run.stdout, 'not a tag key of yours');
  },
);

interface Breakdown {
  readonly key: string;
  readonly values: readonly {
    readonly value: string;
    readonly requests: number;
    readonly failures: number;
  }[];
}

t.test("--summary-by and thresholds' tags break requests down in JSON and text", async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({ 'tags.yaml': yamlConfig(url, 1) });
  const json = await runInProcess(
    ['run', join(dir, 'tags.yaml'), '--summary-by', 'status,team', '--json-output', '--quiet'],
    { cwd: dir },
  );
  const byTag = (JSON.parse(json.stdout) as { by_tag: Breakdown[] }).by_tag;
  const lines = Object.fromEntries(
    byTag.map((b) => [b.key, b.values.map((v) => [v.value, v.requests, v.failures])]),
  );
  t.same(
    Object.keys(lines),
    ['status', 'team', 'method', 'env', 'expected_response', 'error_kind'],
    'summary_by first, then the tags thresholds filter on, each once',
  );
  t.same(lines.status, [
    ['200', 8, 0],
    ['500', 4, 4],
  ]);
  t.same(lines.team, [
    ['auth', 8, 0],
    ['shop', 4, 4],
  ]);
  t.same(lines.method, [
    ['GET', 4, 4],
    ['POST', 8, 0],
  ]);
  t.same(lines.expected_response, [
    ['false', 4, 4],
    ['true', 8, 0],
  ]);
  t.same(lines.error_kind, [['http_5xx', 4, 4]]);
  const text = await runInProcess(['run', join(dir, 'tags.yaml'), '--summary-by', 'status'], {
    cwd: dir,
  });
  t.match(text.stdout, /By status:\n[^\n]*\n│ status │ requests │ failures │/);
  t.match(text.stdout, /│ 200 +│ +8 │ +0 │/);
  t.match(text.stdout, /│ 500 +│ +4 │ +4 │/);
});

t.test("vu.tags: a virtual user's own tags are on every sample it makes", async (t) => {
  const { url, seen } = await target(t);
  const dir = t.testdir({
    'tenants.ts': `
      import { http, check, vu, Counter } from 'barrage';
      const orders = new Counter('orders');
      export const options = {
        scenarios: { tenants: { executor: 'per-vu-iterations', vus: 2, iterations: 2 } },
        thresholds: [
          'http_requests{tenant=even}:count == 2',
          'http_requests{tenant=odd}:count == 2',
          'http_requests{tenant=odd,page=home}:count == 2',
          'checks{tenant=even}:count == 2',
          'orders{tenant=odd}:count == 2',
        ],
      };
      export default async function () {
        vu.tags.tenant = vu.id % 2 === 0 ? 'even' : 'odd';
        const res = await http.get('/ok', { tags: { page: 'home' } });
        check(res, { ok: (r) => r.status === 200 });
        orders.add(1);
      }
    `,
  });
  const run = await runInProcess(
    ['run', '--scenario', join(dir, 'tenants.ts'), '--target', url, '--json-output', '--quiet'],
    { cwd: dir },
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(seen.get('/ok'), 4);
  for (const [threshold, [actual, pass]] of Object.entries(
    verdicts(JSON.parse(run.stdout) as Report),
  ))
    t.ok(pass, `${threshold}: ${actual}`);
});
