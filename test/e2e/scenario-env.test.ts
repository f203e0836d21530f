/**
 * `env` and `__ENV`, `${NAME}` in options and the web globals as a user meets them
 * (docs/scenarios.md, "Environment and web globals"): the built CLI, a scenario in a temporary
 * folder, and a loopback target that records what each request carried.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { childrenOf } from '../helpers/processes.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** A token-like value that must never be printed. */
const TOKEN = 'tok-5f2a9c71e4';

/** What the target saw of one request. */
interface Seen {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

async function recorder(t: Test): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A folder with `files` in it. */
function folder(t: Test, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-env-e2e-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** `barrage <command>` of a scenario, one iteration, with `env` in the process environment. */
function barrage(
  command: 'run' | 'validate',
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<SpawnResult> {
  const extra = command === 'run' ? ['--json-output', '--no-dashboard', '-n', '1', '-c', '1'] : [];
  return runCli([command, ...extra, ...args], { cwd: dir, env });
}

t.test('env holds exactly the variables named by --env and scenario_env', async (t) => {
  const target = await recorder(t);
  const dir = folder(t, {
    'env.ts': `import { env, http } from 'barrage';
      export default async function () {
        const keys = Object.keys(env).sort().join(',');
        await http.get('/env', { query: { keys, region: env.REGION ?? '', key: env.API_KEY ?? '', alias: String(__ENV === env),
          frozen: String(Object.isFrozen(env)), unnamed: String(env.UNNAMED) } });
      }`,
    'run.yaml': `scenario: env.ts\nscenario_env: [API_KEY, NOT_SET]\n`,
  });
  const result = await barrage(
    'run',
    dir,
    ['run.yaml', '--target', target.url, '--env', 'REGION=eu-west', '--env', 'FROM_HERE'],
    { API_KEY: 'key-123456', FROM_HERE: 'here', UNNAMED: 'not-for-you' },
  );
  t.equal(result.code, 0, result.stderr);
  t.equal(target.seen.length, 1);
  const query = new URL(target.seen[0]!.url, target.url).searchParams;
  t.equal(query.get('keys'), 'API_KEY,FROM_HERE,REGION', 'no NOT_SET, no UNNAMED, no PATH');
  t.equal(query.get('region'), 'eu-west');
  t.equal(query.get('key'), 'key-123456');
  t.equal(query.get('alias'), 'true', '__ENV is env');
  t.equal(query.get('frozen'), 'true');
  t.equal(query.get('unnamed'), 'undefined');
});

t.test("the scenario's child process gets only the environment Node needs", async (t) => {
  // The one request is held until the child's environment has been read, so it is alive then.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    void held.then(() => res.end('ok'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    release();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = folder(t, {
    'one.ts': `import { http } from 'barrage';
      export default async function () { await http.get('/held'); }`,
  });
  let environ: string[] = [];
  const result = await runCli(
    ['run', '--scenario', 'one.ts', '--target', url, '-n', '1', '--quiet'],
    {
      cwd: dir,
      env: { AWS_SECRET_ACCESS_KEY: TOKEN, LC_ALL: 'C.UTF-8', TZ: 'UTC' },
      onSpawn: (barrage) =>
        void eventually(() => requests === 1).then(() => {
          const [child] = childrenOf(barrage.pid!, 'child-entry.js');
          environ = readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').filter(Boolean);
          release();
        }),
    },
  );
  t.equal(result.code, 0, result.stderr);
  t.equal(requests, 1);
  const names = environ.map((line) => line.slice(0, line.indexOf('=')));
  t.notOk(names.includes('AWS_SECRET_ACCESS_KEY'), "barrage's secret is not in the child's");
  t.notMatch(environ.join('\n'), TOKEN);
  t.ok(names.includes('PATH'), 'PATH is kept');
  t.ok(environ.includes('LC_ALL=C.UTF-8') && environ.includes('TZ=UTC'), 'locale and zone kept');
});

t.test('--env KEY with KEY unset, or a bad name, is refused naming the flag', async (t) => {
  const dir = folder(t, { 'env.ts': `export default async function () {}` });
  const unset = await barrage('validate', dir, ['--scenario', 'env.ts', '--env', 'MISSING_ONE']);
  t.equal(unset.code, 1);
  t.match(unset.stderr, /--env/);
  t.match(unset.stderr, /MISSING_ONE/);
  const bad = await barrage('validate', dir, ['--scenario', 'env.ts', '--env', `9X=${TOKEN}`]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /--env/);
  t.notMatch(bad.stderr + bad.stdout, TOKEN, 'the value is not quoted');
});

t.test('${NAME} in options is expanded from the named variables', async (t) => {
  const target = await recorder(t);
  const dir = folder(t, {
    'opts.ts': `import { http } from 'barrage';
      export const options = { headers: { 'X-Region': '\${REGION}', 'X-Fallback': '\${NOPE:-dflt}', 'X-Literal': '$\${REGION}' } };
      export default async function () { await http.get('/opts'); }`,
  });
  const result = await barrage('run', dir, [
    '--scenario',
    'opts.ts',
    '--target',
    target.url,
    '--env',
    'REGION=ap-south',
  ]);
  t.equal(result.code, 0, result.stderr);
  const headers = target.seen[0]?.headers ?? {};
  t.equal(headers['x-region'], 'ap-south');
  t.equal(headers['x-fallback'], 'dflt');
  t.equal(headers['x-literal'], '${REGION}');
});

t.test('${NAME} unset, or set but not named, is refused with the option path', async (t) => {
  const target = await recorder(t);
  const dir = folder(t, {
    'opts.ts': `export const options = { headers: { 'X-Secret': '\${AWS_SECRET}' } };
      export default async function () {}`,
  });
  const args = ['--scenario', 'opts.ts', '--target', target.url];
  for (const env of [{}, { AWS_SECRET: TOKEN }]) {
    const result = await barrage('validate', dir, args, env);
    t.equal(result.code, 1);
    t.match(result.stderr, /headers\.X-Secret/);
    t.match(result.stderr, /AWS_SECRET/);
    t.match(result.stderr, /--env/);
    t.notMatch(result.stderr + result.stdout, TOKEN);
  }
  const sent = await barrage('run', dir, args, { AWS_SECRET: TOKEN });
  t.equal(sent.code, 1);
  t.equal(target.seen.length, 0, 'nothing was sent');
});

t.test('options may not set scenario_env', async (t) => {
  const dir = folder(t, {
    'widen.ts': `export const options = { scenario_env: ['HOME'] };
      export default async function () {}`,
  });
  const result = await barrage('validate', dir, [
    '--scenario',
    'widen.ts',
    '--target',
    'http://127.0.0.1:9',
  ]);
  t.equal(result.code, 1);
  t.match(result.stderr, /scenario_env/);
});

t.test('env values are redacted in check names, errors and reports', async (t) => {
  const target = await recorder(t);
  const dir = folder(t, {
    'leak.ts': `import { check, env, http } from 'barrage';
      export default async function () {
        const res = await http.get('/leak');
        check(res, { ['has ' + env.TOKEN]: () => true });
        throw new Error('refused with ' + env.TOKEN);
      }`,
  });
  const json = join(dir, 'report.json');
  const result = await barrage('run', dir, [
    '--scenario',
    'leak.ts',
    '--target',
    target.url,
    '--env',
    `TOKEN=${TOKEN}`,
    '--json',
    json,
  ]);
  t.equal(target.seen.length, 1, result.stderr);
  const printed = result.stdout + result.stderr;
  t.notMatch(printed, TOKEN);
  t.match(printed, /has \[redacted\]/);
  t.match(result.stderr, /refused with \[redacted\]/);
});

t.test('web globals work at the top level and in iterations', async (t) => {
  const target = await recorder(t);
  const dir = folder(t, {
    'web.ts': `import { crypto, env, http } from 'barrage';
      const base = new URL('/api/v1/', 'http://example.test');
      export const options = { headers: { 'X-Base': base.pathname } };
      export default async function () {
        const body = JSON.stringify({ id: globalThis.crypto.randomUUID() });
        const signature = crypto.hmac('sha256', env.KEY ?? '', body, 'hex');
        const query = new URLSearchParams({ sig: signature, b64: btoa('a:b'), txt: new TextDecoder().decode(new TextEncoder().encode('日本')) });
        await http.get('/signed?' + query, { headers: { 'X-Body': body } });
      }`,
  });
  const result = await barrage('run', dir, [
    '--scenario',
    'web.ts',
    '--target',
    target.url,
    '--env',
    'KEY=Jefe',
  ]);
  t.equal(result.code, 0, result.stderr);
  const seen = target.seen[0]!;
  t.equal(seen.headers['x-base'], '/api/v1/');
  const query = new URL(seen.url, target.url).searchParams;
  const { createHmac } = await import('node:crypto');
  const body = seen.headers['x-body'] as string;
  t.match(body, /"id":"[0-9a-f-]{36}"/);
  t.equal(query.get('sig'), createHmac('sha256', 'Jefe').update(body).digest('hex'));
  t.equal(query.get('b64'), 'YTpi');
  t.equal(query.get('txt'), '日本');
});
