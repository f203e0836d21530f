// Checks and expected statuses in YAML (issue 23), as a user runs them: the built CLI, spawned,
// against a node:http server started here. Runs are bounded by `requests` and use one flow, so
// every endpoint gets exactly as many requests as there are iterations.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';

/** The JSON result fields these tests read. */
interface Result {
  total: number;
  successes: number;
  failures: number;
  status_codes: Record<string, number>;
  errors: Record<string, number>;
  checks?: {
    passes: number;
    fails: number;
    by_name: Record<string, { passes: number; fails: number }>;
  };
  thresholds: { results: { threshold: string; pass: boolean; actual: number | null }[] };
}

/** A target: a cart (JSON), a page (HTML), a not-found path, a created resource. */
async function target(t: Test): Promise<string> {
  const server: Server = createServer((req, res) => {
    switch (req.url) {
      case '/cart':
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
        res.end(JSON.stringify({ token: 'abc', items: [{ id: 7 }], total: 3 }));
        return;
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><h1 id="greeting">Hello, Ada</h1></html>');
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      default:
        res.writeHead(200);
        res.end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs a configuration (lines of YAML) in a fresh folder; its JSON result and the folder. */
async function run(t: Test, lines: readonly string[], flags: readonly string[] = []) {
  const dir = t.testdir({ 'load.yaml': `${lines.join('\n')}\n` });
  const result = await runInProcess(['run', 'load.yaml', '--json-output', ...flags], { cwd: dir });
  const json = result.stdout === '' ? undefined : (JSON.parse(result.stdout) as Result);
  return { ...result, json, dir };
}

t.test('checks pass and fail by name, with the same counts in every report', async (t) => {
  const url = await target(t);
  const { code, stderr, json, dir } = await run(
    t,
    [
      `target: ${url}`,
      'requests: 12',
      'concurrency: 3',
      'flows: [{ name: shop, steps: [cart, page] }]',
      'endpoints:',
      '  - name: cart',
      '    url: /cart',
      '    checks:',
      '      - { name: has token, json: $.token }',
      "      - { name: one item, json: '$.items[0].id', equals: 7 }",
      '      - { name: cheap, json: $.total, lt: 2 }',
      '      - { name: traced, header: X-Request-Id, matches: "^r-" }',
      '      - { name: ok, status: 2xx }',
      '  - name: page',
      '    url: /page',
      '    checks:',
      "      - { name: greets, css: 'h1#greeting', contains: Hello }",
      "      - { name: says bye, body: { contains: 'Goodbye' } }",
      '      - { name: fast, duration: { below: 10s } }',
      '      - { name: ok, status: 200 }',
    ],
    ['--html', 'report.html', '--junit', 'junit.xml'],
  );
  t.equal(code, 0, stderr);
  t.equal(json?.failures, 0, 'a failed check does not fail its request');
  t.same(json?.checks?.by_name, {
    cheap: { passes: 0, fails: 12 },
    fast: { passes: 12, fails: 0 },
    greets: { passes: 12, fails: 0 },
    'has token': { passes: 12, fails: 0 },
    ok: { passes: 24, fails: 0 },
    'one item': { passes: 12, fails: 0 },
    'says bye': { passes: 0, fails: 12 },
    traced: { passes: 12, fails: 0 },
  });
  t.equal(json?.checks?.passes, 84);
  t.equal(json?.checks?.fails, 24);

  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const row = (name: string) =>
    new RegExp(
      `<tr><td class="name">${name}</td><td class="num">(\\d+)</td><td class="num">(\\d+)</td>`,
    )
      .exec(html)
      ?.slice(1);
  t.same(row('cheap'), ['0', '12'], 'HTML: a failing check');
  t.same(row('ok'), ['24', '0'], 'HTML: one name over two endpoints');
  t.same(row('all checks'), ['84', '24']);

  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  t.match(junit, /<testsuite name="barrage checks" tests="8" failures="2"/);
  t.match(
    junit,
    /<testcase name="says bye" classname="barrage.checks">\s*<failure message="failed 12 of 12 times"/,
  );
  t.match(junit, /<testcase name="greets" classname="barrage.checks"\/>/);

  const text = await runInProcess(['run', 'load.yaml'], { cwd: dir });
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, /│ cheap\s+│\s+0 │\s+12 │\s+0\.0% │/, 'text: a failing check');
  t.match(text.stdout, /│ ok\s+│\s+24 │\s+0 │\s+100\.0% │/, 'text: a passing check');
});

t.test(
  'an expected 404 is a success; a status outside expect fails as unexpected_status',
  async (t) => {
    const url = await target(t);
    const { code, stderr, json } = await run(t, [
      `target: ${url}`,
      'requests: 10',
      'concurrency: 2',
      "thresholds: ['http_req_failed:rate < 0.01']",
      'flows: [{ name: look, steps: [lookup] }]',
      'endpoints:',
      '  - name: lookup',
      '    url: /missing',
      "    expect: { status: [200, '404'] }",
    ]);
    t.equal(code, 0, stderr);
    t.equal(json?.failures, 0);
    t.equal(json?.status_codes['404'], 10, 'statuses are counted as they were');
    t.same(json?.errors, {});
    t.equal(json?.thresholds.results[0]?.pass, true);

    const created = await run(t, [
      `target: ${url}`,
      'requests: 6',
      'concurrency: 2',
      'expect: { status: 2xx }',
      "thresholds: ['http_req_failed:rate < 0.01']",
      'flows: [{ name: both, steps: [create, lookup] }]',
      'endpoints:',
      '  - name: create',
      '    url: /created',
      '    expect: { status: [201] }',
      '  - name: lookup',
      '    url: /missing',
    ]);
    t.equal(created.code, 1, 'the threshold fails the run');
    t.equal(created.json?.failures, 12);
    t.same(
      created.json?.errors,
      { unexpected_status: 12 },
      'a 200 outside [201], a 404 outside 2xx',
    );
    t.equal(created.json?.status_codes['200'], 6);
  },
);

t.test('checks_fail_request makes a failed check fail its request as check_failed', async (t) => {
  const url = await target(t);
  const lines = (failRequest: boolean) => [
    `target: ${url}`,
    'requests: 8',
    'concurrency: 2',
    'flows: [{ name: buy, steps: [cart] }]',
    'endpoints:',
    '  - name: cart',
    '    url: /cart',
    `    checks_fail_request: ${failRequest}`,
    '    checks:',
    '      - { name: has token, json: $.token }',
    '      - { name: empty, json: $.total, equals: 0 }',
  ];
  const strict = await run(t, lines(true));
  t.equal(strict.code, 1, 'every request failed its check: the run proved nothing');
  t.equal(strict.json?.failures, 8);
  t.same(strict.json?.errors, { check_failed: 8 });
  t.same(strict.json?.checks?.by_name.empty, { passes: 0, fails: 8 });
  const lenient = await run(t, lines(false));
  t.equal(lenient.json?.failures, 0);
  t.same(lenient.json?.checks?.by_name.empty, { passes: 0, fails: 8 });
});

t.test('a threshold on one check passes or fails the run', async (t) => {
  const url = await target(t);
  const config = (threshold: string) => [
    `target: ${url}`,
    'requests: 5',
    'concurrency: 1',
    `thresholds: ['${threshold}']`,
    'endpoints:',
    '  - name: cart',
    '    url: /cart',
    '    checks:',
    "      - { name: cart has item, json: '$.items[0]' }",
    '      - { name: cheap, json: $.total, lt: 2 }',
  ];
  const passing = await run(t, config('checks{check=cart has item}:rate > 0.99'));
  t.equal(passing.code, 0, passing.stderr);
  t.same(
    passing.json?.thresholds.results.map((r) => [r.pass, r.actual]),
    [[true, 1]],
  );
  const failing = await run(t, config('checks{check=cheap}:rate > 0.99'));
  t.equal(failing.code, 1);
  t.same(
    failing.json?.thresholds.results.map((r) => [r.pass, r.actual]),
    [[false, 0]],
  );
});

t.test(
  'validation names the file, line and key of every bad check, before any traffic',
  async (t) => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { code, stdout, stderr } = await run(t, [
      `target: ${url}`,
      'requests: 1',
      "expect: { status: [200, 700, '300-200'] }",
      "thresholds: ['checks{check=has tokn}:rate > 0.9']",
      'endpoints:',
      '  - name: a',
      '    url: /a',
      '    checks:',
      '      - { name: nothing }',
      '      - { name: two, json: $.a, header: X }',
      '      - { name: wrong predicate, header: X, lt: 3 }',
      "      - { name: bad regex, body: { matches: '(' } }",
      "      - { name: bad selector, css: 'input[' }",
      "      - { name: bad path, json: '$[?(@.a)]' }",
      '      - { name: has token, json: $.token }',
      '      - { name: has token, status: 200 }',
    ]);
    t.equal(code, 1);
    t.equal(stdout, '');
    t.equal(hits, 0, 'nothing was sent');
    const expected = [
      /load\.yaml:3:\d+: expect\.status\[1\]: expected a status from 100 to 599/,
      /load\.yaml:3:\d+: expect\.status\[2\]: expected a range whose first status is at most its second/,
      /load\.yaml:9:\d+: endpoints\[0\]\.checks\[0\]\.name: expected one subject/,
      /load\.yaml:10:\d+: endpoints\[0\]\.checks\[1\]\.header: expected one subject.*not json and header/,
      /load\.yaml:11:\d+: endpoints\[0\]\.checks\[2\]\.lt: expected a predicate a header check takes/,
      /load\.yaml:12:\d+: endpoints\[0\]\.checks\[3\]\.body\.matches: expected a regular expression/,
      /load\.yaml:13:\d+: endpoints\[0\]\.checks\[4\]\.css: expected a CSS selector/,
      /load\.yaml:14:\d+: endpoints\[0\]\.checks\[5\]\.json: expected a JSONPath/,
      /load\.yaml:16:\d+: endpoints\[0\]\.checks\[7\]\.name: expected a name no other check of this endpoint has/,
    ];
    for (const line of expected) t.match(stderr, line);
    t.notMatch(stderr, /at .*\.js:\d+/, 'no stack trace');

    const names = await run(t, [
      `target: ${url}`,
      'requests: 1',
      "thresholds: ['checks{check=has tokn}:rate > 0.9']",
      'endpoints:',
      '  - { name: a, url: /a, checks: [{ name: has token, json: $.token }] }',
      '  - { name: ws, url: "ws://127.0.0.1:9/x", checks: [{ name: up, status: 101 }] }',
    ]);
    t.equal(names.code, 1);
    t.match(
      names.stderr,
      /load\.yaml:3:\d+: thresholds\[0\]: expected the name of an endpoint's check: has token, up, got "has tokn".*did you mean has token\?/,
    );
    t.match(names.stderr, /endpoints\[1\]\.checks: expected checks only on HTTP endpoints/);
    t.equal(hits, 0, 'still nothing sent');
  },
);

t.test("validate lists each endpoint's checks and expect", async (t) => {
  const dir = t.testdir({
    'load.yaml': [
      'target: http://127.0.0.1:9',
      'expect: { status: [2xx, 404] }',
      'endpoints:',
      '  - name: cart',
      '    url: /cart',
      '    expect: { status: 200-204 }',
      '    checks_fail_request: true',
      '    checks:',
      '      - { name: has token, json: $.token }',
      '      - { name: fast, duration: { below: 300ms } }',
      '  - name: page',
      '    url: /page',
      '    checks: [{ name: title, css: h1, attr: title, equals: Hi }]',
    ].join('\n'),
  });
  const { code, stdout, stderr } = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(code, 0, stderr);
  t.match(
    stdout,
    /cart .*GET http:\/\/127\.0\.0\.1:9\/cart {2}expects 200-204 {2}checks has token: json \$\.token exists, fast: duration < 300ms \(a failed one fails the request\)/,
  );
  t.match(stdout, /page .*expects 2xx, 404 {2}checks title: css h1 @title equals "Hi"/);
});

t.test(
  'a TypeScript scenario: expect per request, and the run-wide expect of options',
  async (t) => {
    const url = await target(t);
    const scenario = [
      "import { check, http } from 'barrage';",
      "export const options = { expect: { status: ['2xx', 404] } };",
      'export default async function () {',
      "  await http.get('/missing', { name: 'run-wide' });",
      "  await http.get('/created', { name: 'own', expect: { status: [201] } });",
      "  const r = await http.get('/missing', { name: 'own 404', expect: { status: '404' } });",
      "  check(r, { 'answered 404': (res) => res.status === 404 });",
      '  try {',
      "    await http.get('/missing', { expect: { status: [700] } });",
      "    check(null, { 'bad expect refused': () => false });",
      '  } catch (error) {',
      "    check(String(error), { 'bad expect refused': (m) => m.includes('expect: expected') });",
      '  }',
      '}',
    ].join('\n');
    const dir = t.testdir({ 'flow.ts': `${scenario}\n` });
    const args = ['run', '--scenario', 'flow.ts', '--target', url, '-n', '4', '-c', '2'];
    const result = await runInProcess([...args, '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Result & {
      endpoints: { name: string; requests: number; failures: number }[];
    };
    const byName = Object.fromEntries(
      json.endpoints.map((e) => [e.name, [e.requests, e.failures]]),
    );
    t.same(byName['run-wide'], [4, 0], "the options' expect makes the 404 a success");
    t.same(byName.own, [4, 4], 'a 200 outside the request own expect fails');
    t.same(byName['own 404'], [4, 0]);
    t.same(json.errors, { unexpected_status: 4 });
    t.same(json.checks?.by_name, {
      'answered 404': { passes: 4, fails: 0 },
      'bad expect refused': { passes: 4, fails: 0 },
    });
  },
);

t.test(
  'a check compares with a variable: equals and contains render {{name}} per response',
  async (t) => {
    const url = await target(t);
    const dir = t.testdir({
      'load.yaml': [
        `target: ${url}`,
        'requests: 4',
        'concurrency: 1',
        'feeder: { file: users.csv, order: sequential }',
        'endpoints:',
        '  - name: cart',
        '    url: /cart',
        '    checks:',
        "      - { name: token is mine, json: $.token, equals: '{{token}}' }",
        "      - { name: total is mine, json: $.total, equals: '{{total}}' }",
        '      - { name: id in the body, body: { contains: \'"id":{{id}}\' } }',
        '',
      ].join('\n'),
      // Rows 1 and 3 hold what the cart answers (token abc, total 3, item 7); rows 2 and 4 do not.
      'users.csv': 'token,total,id\nabc,3,7\nxyz,4,8\nabc,3,7\nabc,9,1\n',
    });
    const result = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Result;
    t.same(json.checks?.by_name, {
      'token is mine': { passes: 3, fails: 1 },
      'total is mine': { passes: 2, fails: 2 },
      'id in the body': { passes: 2, fails: 2 },
    });
  },
);

t.test('a check naming a variable nothing fills is refused before anything is sent', async (t) => {
  const url = await target(t);
  const { code, stderr } = await run(t, [
    `target: ${url}`,
    'requests: 1',
    'endpoints:',
    "  - { url: /cart, checks: [{ name: mine, json: $.token, equals: '{{tokn}}' }] }",
  ]);
  t.equal(code, 1);
  t.match(stderr, /endpoints\[0\]: expected a placeholder something fills.*got \{\{tokn\}\}/);
});
