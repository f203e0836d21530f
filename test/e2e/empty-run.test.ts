// No silent success (docs/reports.md, "A run that proved nothing"): a run whose setup login fails
// exits 1 with the cause, and a failed `setup: true` endpoint stops its virtual user instead of
// letting it send requests that cannot succeed. Counted against what the server saw.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  readonly total: number;
  readonly successes: number;
  readonly iterations: number;
  readonly vus_stopped?: number;
}

/** A server counting requests by path; POST /login accepts only the body `good`. */
async function app(t: Test): Promise<{ url: string; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.set(path, (seen.get(path) ?? 0) + 1);
      if (path === '/login') {
        res.statusCode = body.includes('good') ? 200 : 401;
        res.end(body.includes('good') ? '{"token":"t1"}' : '{}');
        return;
      }
      res.end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const yaml = (target: string, extra: string[]) =>
  [
    `target: ${target}`,
    'duration: 1s',
    'endpoints:',
    '  - { name: login, method: POST, url: /login, body: "{{pass}}", setup: true }',
    '  - { name: home, url: /home }',
    ...extra,
    '',
  ].join('\n');

t.test('every setup login refused: each user stops after it, and the run fails', async (t) => {
  const { url, seen } = await app(t);
  const dir = t.testdir({
    'load.yaml': yaml(url, ['concurrency: 2', 'feeder: { file: users.csv, per: worker }']),
    'users.csv': 'pass\nbad\n',
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 1, 'exit 1 without any threshold');
  t.match(result.stderr, 'barrage: the run failed: none of its 2 requests succeeded (http_4xx: 2)');
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  const json = JSON.parse(result.stdout) as Json;
  t.same(Object.fromEntries(seen), { '/login': 2 }, 'one login a user, then nothing');
  t.equal(json.total, 2);
  t.equal(json.vus_stopped, 2, 'both users stopped');
});

t.test(
  'one user of two refused: only that one stops, and the run is judged as usual',
  async (t) => {
    const { url, seen } = await app(t);
    const dir = t.testdir({
      'load.yaml': yaml(url, ['concurrency: 2', 'feeder: { file: users.csv, per: worker }']),
      'users.csv': 'pass\nbad\ngood\n',
    });
    const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    t.equal(seen.get('/login'), 2);
    t.ok((seen.get('/home') ?? 0) > 0, 'the logged-in user went on');
    t.equal(json.vus_stopped, 1);
    t.equal(json.total, 2 + seen.get('/home')!, 'every request the server saw, no more');
  },
);

const FAILED_LOGIN = `import { http, type VirtualUser } from 'barrage';
export async function setup(): Promise<{ token: string }> {
  const res = await http.post('/login', 'bad');
  return { token: res.status === 200 ? String(res.json('$.token')) : '' };
}
export default async function (_vu: VirtualUser, data: { token: string }): Promise<void> {
  if (data.token === '') return;
  await http.get('/home', { headers: { Authorization: 'Bearer ' + data.token } });
}
`;

t.test('a scenario whose setup() login fails sends nothing: exit 1, the cause named', async (t) => {
  const { url, seen } = await app(t);
  const dir = t.testdir({ 'load.ts': FAILED_LOGIN });
  const result = await runCli(
    ['run', '--scenario', 'load.ts', '--target', url, '-d', '1s', '-c', '1', '--json-output'],
    { cwd: dir },
  );
  t.equal(result.code, 1, 'exit 1 without any threshold');
  t.match(
    result.stderr,
    /barrage: the run failed: no request was sent: its \d+ iterations made no request/,
  );
  const json = JSON.parse(result.stdout) as Json;
  t.same(Object.fromEntries(seen), { '/login': 1 }, 'only the login reached the server');
  t.equal(json.total, 0);
  t.ok(json.iterations > 0);
});
