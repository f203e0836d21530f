// YAML control flow through the built binary against an express app that counts what it saw:
// refresh on 401 with the run's bearer auth (tokens that die after three uses, so no timing is
// involved), every 401 retried once after one refresh and the refreshes counted by the server;
// a random pick from an extracted list reproduced by --seed.
import t, { type Test } from 'tap';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

interface App {
  readonly url: string;
  readonly counts: { logins: number; refreshes: number; unauthorized: number; ok: number };
  readonly picked: string[];
}

async function startApp(t: Test): Promise<App> {
  const left = new Map<string, number>();
  const counts = { logins: 0, refreshes: 0, unauthorized: 0, ok: 0 };
  const picked: string[] = [];
  let issued = 0;
  const token = (): string => {
    const value = `tok${issued++}`;
    left.set(value, 3);
    return value;
  };
  const app = express();
  app.post('/login', (_req, res) => {
    counts.logins++;
    res.json({ token: token() });
  });
  app.post('/refresh', (_req, res) => {
    counts.refreshes++;
    res.json({ token: token() });
  });
  app.get('/data', (req, res) => {
    const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const uses = left.get(given) ?? 0;
    if (uses <= 0) {
      counts.unauthorized++;
      res.status(401).end();
      return;
    }
    left.set(given, uses - 1);
    counts.ok++;
    res.json({ ok: true });
  });
  app.get('/products', (_req, res) => {
    res.json({ items: Array.from({ length: 20 }, (_, i) => ({ id: `p${i}` })) });
  });
  app.get('/product/:id', (req, res) => {
    picked.push(req.params.id);
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts, picked };
}

/** The JSON result's parts read here. */
interface Result {
  readonly retries: number;
  readonly endpoints: readonly {
    readonly name: string;
    readonly requests: number;
    readonly status_codes: Record<string, number>;
  }[];
}

async function run(t: Test, config: string, args: string[] = []): Promise<Result> {
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runCli(['run', 'load.yaml', '--json-output', ...args], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Result;
}

t.test('refresh on 401 with bearer auth: no 401 left unretried', async (t) => {
  const app = await startApp(t);
  const result = await run(
    t,
    `target: ${app.url}
requests: 20
concurrency: 2
auth: { type: bearer, token: '{{token}}' }
endpoints:
  - { name: login, method: POST, url: /login, setup: true, extract: { token: $.token } }
  - { name: refresh, method: POST, url: /refresh, extract: { token: $.token } }
  - { name: data, url: /data, reauth: { on: [401], run: refresh } }
flows: [{ name: f, steps: [{ loop: { count: 5, steps: [data] } }] }]
`,
  );
  // 20 iterations of 5 calls: 100 calls answered; each worker's token serves 3, so the server
  // refused some, and each refusal was followed by one refresh and one answered retry.
  t.equal(app.counts.logins, 2, 'one login per worker');
  t.equal(app.counts.ok, 100, 'every call the user asked for was answered');
  t.ok(app.counts.unauthorized > 0, `the server refused calls (${app.counts.unauthorized})`);
  t.equal(app.counts.refreshes, app.counts.unauthorized, 'one refresh per refusal');
  const data = result.endpoints.find((e) => e.name === 'data')!;
  t.equal(
    data.requests,
    100 + app.counts.unauthorized,
    'each attempt a request, as the server saw',
  );
  t.equal(data.status_codes['401'], app.counts.unauthorized);
  t.equal(result.retries, app.counts.unauthorized, 'each 401 retried once');
});

t.test('a random pick from an extracted list, reproduced by --seed', async (t) => {
  const picks = async (seed: number): Promise<string[]> => {
    const app = await startApp(t);
    await run(
      t,
      `target: ${app.url}
requests: 60
concurrency: 1
endpoints:
  - { name: list, url: /products, extract: { id: { json: '$.items[*].id', pick: random } } }
  - { name: one, url: '/product/{{id}}' }
flows: [{ name: f, steps: [list, one] }]
`,
      ['--seed', String(seed)],
    );
    return app.picked;
  };
  const first = await picks(5);
  t.equal(first.length, 60);
  t.ok(new Set(first).size > 10, `many ids picked (${new Set(first).size} of 20)`);
  t.strictSame(await picks(5), first, 'the same seed, the same picks');
});
