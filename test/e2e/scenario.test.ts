// TypeScript scenarios as users run them (the CLI in process, or spawned): scripted flows equal
// their YAML, responses read, calls in turn, hosts allowed, the shipped example, compile errors,
// setup() failures and ws.session. What depends on the isolate itself (escapes, the watchdog,
// memory, signals to the child) is in scenario-isolate.test.ts.
import t from 'tap';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';
import {
  EXAMPLES,
  FIXTURES,
  json,
  passedAll,
  run,
  runFixture,
  target,
  type JsonResult,
} from '../helpers/scripted-run.js';

t.test('a scripted flow gives the same totals as the equivalent YAML', async (t) => {
  const server = await target(t);
  const common = ['--target', server.url, '-n', '10', '-c', '2'];
  const yaml = await run([join(FIXTURES, 'flow.yaml'), ...common]);
  const script = await run(['--scenario', join(FIXTURES, 'flow.ts'), ...common]);
  t.equal(yaml.code, 0, yaml.stderr);
  t.equal(script.code, 0, script.stderr);
  const [a, b] = [json(yaml), json(script)];
  t.equal(b.total, 30);
  t.same(
    [b.total, b.successes, b.failures, b.status_codes],
    [a.total, a.successes, a.failures, a.status_codes],
  );
  const byName = (r: JsonResult) =>
    Object.fromEntries(r.endpoints.map((e) => [e.name, [e.requests, e.failures]]));
  t.same(byName(b), byName(a));
  t.same(
    b.checks?.by_name,
    passedAll(
      10,
      'me is 200',
      'the response as the script sees it',
      'the response stringifies with its fields',
      'the status cannot be changed',
    ),
  );
});

t.test(
  'a script reads response headers and body: repeated names joined, __proto__ a plain key, UTF-8',
  async (t) => {
    const server = createServer((_req, res) => {
      res.setHeader('x-twice', ['a', 'b']);
      res.setHeader('__proto__', 'plain');
      res.setHeader('X-Mixed-Case', 'yes');
      res.setHeader('x-empty', '');
      // node:http sends it as UTF-8.
      res.setHeader('x-utf8', 'café');
      res.end('line one\nzweite Zeile: ü\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runFixture('headers.ts', { url }, 2, 1);
    t.equal(result.code, 0, result.stderr);
    t.same(
      json(result).checks?.by_name,
      passedAll(
        2,
        'a repeated header is joined by ", "',
        'a header named __proto__ is a plain key',
        'names are lower case',
        'an empty value is kept',
        'a UTF-8 value is decoded',
        'the body is whole, lines and all',
      ),
    );
  },
);

t.test(
  'calls a virtual user makes together are sent in turn and settle each on its own',
  async (t) => {
    const server = await target(t);
    const result = await runFixture('concurrent.ts', server, 3, 1);
    t.equal(result.code, 0, result.stderr);
    const out = json(result);
    t.equal(out.total, 12, 'four requests sent per iteration; the refused one never was');
    t.same(out.status_codes, { '200': 9, '503': 3 });
    t.same(
      out.checks?.by_name,
      passedAll(
        3,
        'calls made together each get their own response',
        'a refused call does not hold up the next',
      ),
    );
  },
);

t.test('http reaches only the target and allowed_hosts', async (t) => {
  const server = await target(t);
  const other = await target(t);
  const dir = mkdtempSync(join(tmpdir(), 'barrage-hosts-'));
  const feeder = join(dir, 'urls.csv');
  writeFileSync(feeder, `url\n${other.url}/json\n${server.url}/json\n`);
  const config = join(dir, 'run.yaml');
  const write = (allowed: string[]) =>
    writeFileSync(
      config,
      `scenario: ${join(FIXTURES, 'hosts.ts')}\ntarget: ${server.url}\nfeeder: { file: urls.csv }\nallowed_hosts: ${JSON.stringify(allowed)}\n`,
    );
  write([]);
  const refused = await run([config, '-n', '2', '-c', '1']);
  t.equal(refused.code, 0, refused.stderr);
  t.same(json(refused).checks?.by_name, { sent: { passes: 1, fails: 1 } });
  t.equal(other.stats().total, 0, 'the host that is not allowed was never contacted');
  write([`127.0.0.1:${other.port}`]);
  const allowed = await run([config, '-n', '2', '-c', '1']);
  t.same(json(allowed).checks?.by_name, { sent: { passes: 2, fails: 0 } });
  t.equal(other.stats().total, 1, 'an allowed host is reached');
});

t.test('the spawned CLI runs the checkout example with --scenario', async (t) => {
  const server = await target(t);
  const result = await runCli([
    '--scenario',
    join(EXAMPLES, 'checkout.ts'),
    '--target',
    server.url,
    '-n',
    '6',
    '-c',
    '2',
    '--json-output',
  ]);
  t.equal(result.code, 0, result.stderr);
  const r = json(result);
  t.equal(r.failures, 0);
  t.equal(r.thresholds?.failed, 0);
  t.ok((r.checks?.passes ?? 0) >= 6 * 4, 'login, me, browse and checkout checks ran');
  t.ok(r.endpoints.some((e) => e.name === 'checkout'));
});

t.test('a scenario that does not compile is a validation error with its location', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bad-'));
  writeFileSync(
    join(dir, 'bad.ts'),
    "import fs from 'node:fs';\nexport default async function () { fs.readFileSync('x'); }\n",
  );
  const result = await runInProcess([
    'validate',
    '--scenario',
    join(dir, 'bad.ts'),
    '--target',
    'http://127.0.0.1:9',
  ]);
  t.equal(result.code, 1);
  t.equal(result.stdout, '');
  t.match(
    result.stderr,
    /bad\.ts:1:16: scenario: expected imports of local files or 'barrage' only/,
  );
});

t.test('a setup() that throws fails the run before any load, with its report', async (t) => {
  const server = await target(t);
  const dir = mkdtempSync(join(tmpdir(), 'barrage-setup-'));
  writeFileSync(
    join(dir, 'setup.ts'),
    "export function setup(): never {\n  throw new Error('no catalogue');\n}\nexport default async function (): Promise<void> {}\n",
  );
  const result = await run([
    '--scenario',
    join(dir, 'setup.ts'),
    '--target',
    server.url,
    '-n',
    '5',
  ]);
  t.equal(result.code, 1);
  t.equal(json(result).total, 0, 'the report is printed');
  t.match(
    result.stderr,
    /was lost: setup\(\) failed: script_error: .*setup\.ts:2:9: Error: no catalogue/,
  );
  t.equal(server.stats().total, 0);
});

t.test(
  'ws.session runs through the WebSocket runner and its metrics, and tells how it ended',
  async (t) => {
    const server = await target(t);
    const result = await runFixture('websocket.ts', server, 3, 1);
    t.equal(result.code, 0, result.stderr);
    const r = JSON.parse(result.stdout) as JsonResult & {
      websocket?: { sessions: number; msgs_sent: number; msgs_received: number };
    };
    t.same(r.checks?.by_name, passedAll(3, 'session ok', 'refused handshake'));
    t.match(r.websocket, { sessions: 6, msgs_sent: 6, msgs_received: 6 });
    t.same(r.status_codes, { '101': 3, '400': 3 });
    t.same(r.errors, { ws_handshake: 3 });
    t.ok(r.endpoints.some((e) => e.name === 'echo' && e.requests === 3 && e.failures === 0));
    t.ok(r.endpoints.some((e) => e.name === 'refused' && e.requests === 3 && e.failures === 3));
  },
);

t.test(
  "auth's {{token}} is filled by the scenario's vars.set, as docs/scenarios.md says",
  async (t) => {
    const server = await target(t);
    const dir = t.testdir({
      'login.ts': `import { check, http, vars } from 'barrage';
export default async function (): Promise<void> {
  if (vars.get('token') === undefined) {
    const login = await http.post('/login', { user: 'ada' });
    vars.set('token', String(login.json('$.access_token')));
  }
  const me = await http.get('/me');
  check(me, { 'me is 200': (r) => r.status === 200 });
}
`,
      'run.yaml': `scenario: login.ts\ntarget: ${server.url}\nauth: { type: bearer, token: '{{token}}' }\n`,
    });
    const result = await run([join(dir, 'run.yaml'), '-n', '4', '-c', '2']);
    t.equal(result.code, 0, result.stderr);
    t.same(json(result).checks?.by_name, passedAll(4, 'me is 200'));
    t.equal(server.stats().byRoute.me, 4, 'the target saw four /me, each with the token');
  },
);

t.test(
  'setup() and teardown() read JSON by a path, as k6 ports that log in there do',
  async (t) => {
    const server = await target(t);
    const dir = t.testdir({
      'hooks.ts': `import { check, http } from 'barrage';
export async function setup(): Promise<{ token: string }> {
  const login = await http.post('/login', { user: 'ada' });
  return { token: String(login.json('$.access_token')) };
}
export default async function (_vu: unknown, data: { token: string }): Promise<void> {
  const me = await http.get('/me', { headers: { Authorization: 'Bearer ' + data.token } });
  check(me, { 'the token from setup works': (r) => r.status === 200 });
}
export async function teardown(data: { token: string }): Promise<void> {
  const me = await http.get('/me', { headers: { Authorization: 'Bearer ' + data.token } });
  if (me.json('$.user') !== 'ada') throw new Error('teardown could not read the user');
}
`,
    });
    const result = await run([
      '--scenario',
      join(dir, 'hooks.ts'),
      '--target',
      server.url,
      '-n',
      '2',
    ]);
    t.equal(result.code, 0, result.stderr);
    t.notMatch(result.stderr, /bug:|failed/);
    t.same(json(result).checks?.by_name, passedAll(2, 'the token from setup works'));
  },
);
