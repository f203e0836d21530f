import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

interface Seen {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
}

/** A server that records every request and answers /a with JSON and a header. */
async function recorder(t: Test): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
    });
    req.resume();
    req.on('end', () => {
      res.setHeader('x-trace', 'trace-7');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 42, user: { name: 'ada' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

async function run(
  t: Test,
  config: string,
  files: Record<string, string> = {},
  args: string[] = [],
) {
  const dir = t.testdir({ 'load.yaml': config, ...files });
  const result = await runInProcess(['run', 'load.yaml', '--json-output', ...args], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as {
    total: number;
    failures: number;
    errors: Record<string, number>;
    endpoints: { name: string; requests: number; failures: number }[];
  };
}

t.test('login once per worker, then the bearer token on every later request', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const endpoints = `endpoints:\n  - { name: login, method: POST, url: /login, body: { user: "u{{$randomInt 1 9}}" }, setup: true, extract: { token: $.access_token } }\n  - { name: me, url: /me, headers: { Authorization: "Bearer {{token}}" } }\n`;
  const result = await run(t, `target: ${server.url}\nrequests: 200\nconcurrency: 5\n${endpoints}`);
  t.equal(server.stats().byRoute.login, 5, 'one login per worker');
  t.equal(server.stats().byRoute.me, 200);
  t.equal(result.failures, 0, '/me accepted every token');
  t.same(
    result.endpoints.map((e) => [e.name, e.requests]),
    [
      ['login', 5],
      ['me', 200],
    ],
  );

  server.resetStats();
  const viaAuth = `target: ${server.url}\nrequests: 50\nconcurrency: 2\nauth: { type: bearer, token: "{{token}}" }\nendpoints:\n  - { name: login, method: POST, url: /login, body: { user: ada }, setup: true, extract: { token: $.access_token } }\n  - { name: me, url: /me }\n`;
  t.equal((await run(t, viaAuth)).failures, 0, 'auth: bearer sends the extracted token');
});

t.test('weights 8:2 hold within statistical bounds, reproducibly with --seed', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const config = `target: ${server.url}\nrequests: 3000\nconcurrency: 4\nendpoints:\n  - { name: a, url: /json, weight: 8 }\n  - { name: b, url: /bytes/1, weight: 2 }\n`;
  const first = await run(t, config, {}, ['--seed', '11']);
  const a = first.endpoints[0]!.requests;
  // Binomial(3000, 0.8): sd ≈ 21.9; ±4 sd.
  t.ok(a >= 2312 && a <= 2488, `a got ${a} of 3000`);
  t.equal(server.stats().byRoute.json, a);
  const again = await run(t, config, {}, ['--seed', '11']);
  t.equal(again.endpoints[0]!.requests, a, 'the same seed, the same picks');
});

t.test(
  'feeder: sequential in file order; shuffle uses every record; no cycle ends the run',
  async (t) => {
    const target = await recorder(t);
    const users = `name\n${Array.from({ length: 10 }, (_, i) => `user${i}`).join('\n')}\n`;
    const base = `target: ${target.url}\nconcurrency: 1\nendpoints: [{ url: "/u?name={{name}}" }]\n`;
    await run(t, `${base}requests: 15\nfeeder: { file: users.csv }\n`, { 'users.csv': users });
    t.same(
      target.seen.map((s) => s.query.get('name')),
      [
        ...Array.from({ length: 10 }, (_, i) => `user${i}`),
        'user0',
        'user1',
        'user2',
        'user3',
        'user4',
      ],
    );

    target.seen.length = 0;
    await run(
      t,
      `${base.replace('concurrency: 1', 'concurrency: 3')}requests: 10\nfeeder: { file: users.csv, order: shuffle }\n`,
      { 'users.csv': users },
    );
    t.equal(
      new Set(target.seen.map((s) => s.query.get('name'))).size,
      10,
      'all distinct values used',
    );

    target.seen.length = 0;
    const once = await run(
      t,
      `${base}duration: 30s\nfeeder: { file: users.json, cycle: false }\n`,
      { 'users.json': '[{"name":"x"},{"name":"y"},{"name":"z"}]' },
    );
    t.equal(once.total, 3, 'the run ended when the records ran out');
    t.same(
      target.seen.map((s) => s.query.get('name')),
      ['x', 'y', 'z'],
    );
  },
);

t.test('extracted values flow across endpoints (JSONPath and header)', async (t) => {
  const target = await recorder(t);
  const config = `target: ${target.url}\nrequests: 4\nconcurrency: 1\nflows: [{ name: chain, steps: [a, b] }]\nendpoints:\n  - { name: a, url: /a, extract: { id: $.id, who: $.user.name, trace: { header: X-Trace } } }\n  - { name: b, url: "/b?id={{id}}&who={{who}}&t={{trace}}" }\n`;
  const result = await run(t, config);
  t.equal(result.failures, 0);
  const b = target.seen.filter((s) => s.path === '/b');
  t.equal(b.length, 4, 'a flow per permit, its steps in order');
  t.same(
    [b[0]!.query.get('id'), b[0]!.query.get('who'), b[0]!.query.get('t')],
    ['42', 'ada', 'trace-7'],
  );
});

t.test('a placeholder nothing fills is refused, the feeder columns listed', async (t) => {
  const target = await recorder(t);
  const dir = t.testdir({
    'load.yaml': `target: ${target.url}\nrequests: 5\nconcurrency: 1\nfeeder: { file: users.csv }\nendpoints: [{ url: "/x/{{user_name}}" }]\n`,
    'users.csv': 'username,password\nada,x\n',
  });
  const result = await runInProcess(['run', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    'expected a placeholder something fills: the fields of users.csv: username, password, got {{user_name}} (did you mean {{username}}?)',
  );
  t.match(result.stderr, /load\.yaml:5:\d+: endpoints\[0\]/);
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.equal(target.seen.length, 0, 'nothing was sent');
});

t.test('a timed run whose every request is unsent still ends on time', async (t) => {
  const target = await recorder(t);
  const dir = t.testdir({
    // Only `a` extracts {{never}}, and the flow never runs it.
    'load.yaml': `target: ${target.url}\nduration: 1s\nconcurrency: 2\nendpoints: [{ name: a, url: /a, extract: { never: $.x } }, { name: b, url: "/x/{{never}}" }]\nflows: [{ name: f, steps: [b] }]\n`,
  });
  // Nothing is ever sent, so every iteration ends before the worker yields; the workers must
  // still let the timer that ends the run fire (before, they spun until killed).
  // Spawned: a run that spun would be killed by the safety net, not hang this process.
  const result = await runCli(['run', 'load.yaml', '--json-output'], {
    cwd: dir,
    killAfterMs: 20_000,
  });
  t.equal(result.signal, null, 'the run ended by itself, not by the safety kill');
  t.equal(result.code, 1, 'nothing was sent: the run failed');
  t.match(result.stderr, 'barrage: the run failed: no request was sent');
  const json = JSON.parse(result.stdout) as {
    unsent_errors: Record<string, number>;
    unsent: number;
  };
  t.ok(json.unsent > 0, `unsent requests were counted (${json.unsent})`);
  t.same(Object.keys(json.unsent_errors), ['missing_variable']);
  t.equal(target.seen.length, 0, 'nothing was sent');
});

t.test('a header value undici refuses fails as invalid_request, and the run goes on', async (t) => {
  // undici refuses the request inside dispatch() itself; the worker must go on in a later turn.
  const target = await recorder(t);
  const records = JSON.stringify([{ name: 'bad\nvalue' }, { name: 'good' }]);
  const result = await run(
    t,
    `target: ${target.url}\nrequests: 6\nconcurrency: 1\nfeeder: { file: users.json }\nendpoints: [{ url: /a, headers: { X-Name: "{{name}}" } }]\n`,
    { 'users.json': records },
  );
  t.equal(result.total, 3, 'the requests sent');
  t.same(
    (result as unknown as { unsent_errors: unknown }).unsent_errors,
    { invalid_request: 3 },
    'each request with the bad value was not sent',
  );
  t.equal(target.seen.length, 3, 'the others were sent');

  const dir = t.testdir({
    'load.yaml': `target: ${target.url}\nduration: 1s\nconcurrency: 2\nfeeder: { file: users.json }\nendpoints: [{ url: /a, headers: { X-Name: "{{name}}" } }]\n`,
    'users.json': JSON.stringify([{ name: 'bad\nvalue' }]),
  });
  const timed = await runCli(['run', 'load.yaml', '--json-output'], {
    cwd: dir,
    killAfterMs: 20_000,
  });
  t.equal(timed.signal, null, 'a timed run whose every request is refused ends by itself');
  const json = JSON.parse(timed.stdout) as {
    unsent_errors: Record<string, number>;
    unsent: number;
  };
  t.ok(json.unsent > 0, `unsent requests were counted (${json.unsent})`);
  t.same(Object.keys(json.unsent_errors), ['invalid_request']);
});

t.test('thresholds filter by endpoint', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}\nrequests: 100\nconcurrency: 2\nendpoints:\n  - { name: ok, url: /json }\n  - { name: broken, url: /status/500 }\nthresholds:\n  - "http_req_failed{endpoint=ok}:rate == 0"\n  - "http_req_failed{endpoint=broken}:rate == 1"\n  - "http_requests{endpoint=ok}:count > 20"\n`,
  });
  const result = await runInProcess(['run', 'load.yaml', '--seed', '3'], { cwd: dir });
  t.equal(result.code, 0, result.stdout);
  t.match(result.stdout, /Threshold Summary: 3\/3 passed/);
  t.match(result.stdout, /Endpoints:/, 'the per-endpoint table is shown');
});

t.test('a threshold on an endpoint the configuration lacks is refused first', async (t) => {
  const target = await recorder(t);
  const dir = t.testdir({
    'load.yaml': `target: ${target.url}\nrequests: 1\nendpoints: [{ name: products, url: /p }]\nthresholds: ['http_req_duration{endpoint=product}:p95 < 300']\n`,
  });
  const result = await runInProcess(['run', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    'load.yaml:4:14: thresholds[0]: expected an endpoint name: products, got "product" (did you mean products?)',
  );
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.equal(target.seen.length, 0, 'nothing was sent, not even after a whole run');
});
