/**
 * What k6 users reach for first, as a user runs it (the built CLI, spawned): console output on
 * stderr by virtual user, rate-limited, off with --quiet and redacted; teardown(data) once after
 * the load with setup()'s data, its requests not in the results, after a Ctrl+C too; http.batch()
 * sending its requests at once, as a test server counts them in flight.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** A target that counts requests by path, keeps their queries, and its most in flight at once. */
interface CountingTarget {
  readonly url: string;
  readonly hits: Map<string, string[]>;
  readonly maxInFlight: () => number;
}

async function countingTarget(t: Test): Promise<CountingTarget> {
  const hits = new Map<string, string[]>();
  let inFlight = 0;
  let most = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, [...(hits.get(url.pathname) ?? []), url.search]);
    inFlight++;
    most = Math.max(most, inFlight);
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    const answer = (): void => {
      inFlight--;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ path: url.pathname, query: url.search, headers: req.headers, body }),
      );
    };
    // Once the body is in; /delay/100 answers after 100 ms, as `barrage serve`'s does.
    req.on('end', () => (url.pathname === '/delay/100' ? setTimeout(answer, 100) : answer()));
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, maxInFlight: () => most };
}

/** Writes a scenario file in a folder of its own; returns its path. */
function scenario(source: string, name = 'k6-api.ts'): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-k6-api-'));
  writeFileSync(join(dir, name), source);
  return join(dir, name);
}

interface JsonResult {
  total: number;
  endpoints: { name: string; requests: number }[];
  checks?: { by_name: Record<string, { passes: number; fails: number }> };
}

const json = (r: SpawnResult): JsonResult => JSON.parse(r.stdout) as JsonResult;

const run = (file: string, url: string, ...extra: string[]): Promise<SpawnResult> =>
  runCli(['run', '--scenario', file, '--target', url, '--json-output', '--no-dashboard', ...extra]);

const CONSOLE = `import { http, type VirtualUser } from 'barrage';
export default async function (vu: VirtualUser): Promise<void> {
  await http.get('/a');
  console.log('hello from', vu.id, { iteration: vu.iteration, list: [1, 'two'] });
  console.warn('careful %s: %d', 'now', 7);
  if (vu.id === 1) for (let i = 0; i < 100; i++) console.info('flood', i);
}
`;

t.test('console lines reach stderr with their virtual user, rate-limited', async (t) => {
  const target = await countingTarget(t);
  const r = await run(scenario(CONSOLE), target.url, '-n', '2', '-c', '2', '--threads', '1');
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /^barrage: \[vu 0\] hello from 0 \{ iteration: 1, list: \[ 1, 'two' \] \}$/m);
  t.match(r.stderr, /^barrage: \[vu 1\] hello from 1 \{ iteration: 1, list: \[ 1, 'two' \] \}$/m);
  t.match(r.stderr, /^barrage: \[vu \d\] warn: careful now: 7$/m);
  // 104 lines asked for, 20 a second printed: the rest counted.
  const printed = r.stderr.split('\n').filter((line) => /^barrage: \[vu \d\]/.test(line));
  t.ok(printed.length <= 40, 'the bound held');
  const notes = [...r.stderr.matchAll(/^barrage: console: (\d+) lines? not printed/gm)];
  t.ok(notes.length > 0, r.stderr);
  const suppressed = notes.reduce((sum, note) => sum + Number(note[1]), 0);
  t.equal(printed.length + suppressed, 104, 'every line printed or counted');
  t.equal(json(r).total, 2, 'console calls are not requests');
});

t.test('--quiet silences the console', async (t) => {
  const target = await countingTarget(t);
  const r = await run(scenario(CONSOLE), target.url, '-n', '2', '-c', '1', '--quiet');
  t.equal(r.code, 0, r.stderr);
  t.notMatch(r.stderr, /\[vu \d\]|console:/);
  t.equal(json(r).total, 2);
});

t.test("a console.log of a ${ENV} header's value is redacted", async (t) => {
  const target = await countingTarget(t);
  const file = scenario(`import { http } from 'barrage';
export default async function (): Promise<void> {
  const echoed = await http.get('/echo');
  console.log('echoed', (echoed.json('$.headers') as Record<string, string>)['x-api-token']);
}
`);
  const config = join(file, '..', 'run.yaml');
  writeFileSync(
    config,
    `scenario: k6-api.ts\ntarget: ${target.url}\nheaders:\n  X-Api-Token: "\${API_TOKEN}"\n`,
  );
  const secret = 'canary-7f3e1d9a2b';
  const r = await runCli(['run', config, '-n', '1', '-c', '1', '--json-output', '--no-dashboard'], {
    env: { API_TOKEN: secret },
  });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /^barrage: \[vu 0\] echoed /m, 'the line is printed');
  t.notOk(r.stderr.includes(secret), 'without the secret');
  t.notOk(r.stdout.includes(secret));
});

const TEARDOWN = `import { http, sleep } from 'barrage';
export async function setup(): Promise<{ value: string }> {
  await http.get('/setup');
  return { value: 'from-setup-' + String(6 * 7) };
}
export default async function (): Promise<void> {
  await http.get('/load');
  await sleep(0.05);
}
export async function teardown(data: { value: string }): Promise<void> {
  await http.get('/teardown', { query: { value: data.value } });
  console.log('teardown done');
}
`;

t.test("teardown runs once with setup()'s data; its requests are not in the results", async (t) => {
  const target = await countingTarget(t);
  const r = await run(scenario(TEARDOWN), target.url, '-n', '6', '-c', '3');
  t.equal(r.code, 0, r.stderr);
  t.same(target.hits.get('/teardown'), ['?value=from-setup-42']);
  t.equal(target.hits.get('/setup')?.length, 1);
  t.equal(target.hits.get('/load')?.length, 6);
  t.match(r.stderr, /^barrage: \[teardown\] teardown done$/m);
  const result = json(r);
  t.equal(result.total, 6);
  t.same(
    result.endpoints.map((e) => e.name),
    ['GET /load'],
  );
});

t.test('teardown runs after a first Ctrl+C', async (t) => {
  const target = await countingTarget(t);
  const r = await runCli(
    ['run', '--scenario', scenario(TEARDOWN), '--target', target.url, '-d', '60s', '-c', '2'],
    {
      killAfterMs: 30_000,
      onSpawn: (child) => {
        void eventually(() => (target.hits.get('/load')?.length ?? 0) >= 4).then(() =>
          child.kill('SIGINT'),
        );
      },
    },
  );
  t.equal(r.signal, null, 'it ended by itself');
  t.match(r.stderr, /SIGINT: stopping/);
  t.same(target.hits.get('/teardown'), ['?value=from-setup-42']);
  t.match(r.stderr, /^barrage: \[teardown\] teardown done$/m);
});

t.test('a teardown() that throws is an error on stderr, not a crash', async (t) => {
  const target = await countingTarget(t);
  const file = scenario(`import { http } from 'barrage';
export default async function (): Promise<void> {
  await http.get('/load');
}
export function teardown(): void {
  throw new Error('cleanup failed');
}
`);
  const r = await run(file, target.url, '-n', '2', '-c', '1');
  t.equal(r.code, 0, r.stderr);
  t.match(
    r.stderr,
    /barrage: teardown\(\) failed: script_error: .*k6-api\.ts:6:9: Error: cleanup failed/,
  );
  t.equal(json(r).total, 2, 'the report is there');
});

t.test('http.batch sends its requests at once and answers in order', async (t) => {
  const target = await countingTarget(t);
  const file = scenario(`import { check, http } from 'barrage';
export default async function (): Promise<void> {
  const five = await http.batch([0, 1, 2, 3, 4].map((i) => '/delay/100?i=' + i));
  check(five, {
    'five in order': (rs) => rs.map((r) => r.json('$.query')).join() === '?i=0,?i=1,?i=2,?i=3,?i=4',
    'all 200': (rs) => rs.every((r) => r.status === 200),
  });
  const mixed = await http.batch([
    ['POST', '/echo', 'a body\\nof two lines'],
    { method: 'GET', url: '/json', params: { name: 'named' } },
  ]);
  check(mixed, {
    'mixed 200': (rs) => rs.length === 2 && rs.every((r) => r.status === 200),
    'a body of two lines': (rs) => rs[0].json('$.body') === 'a body\\nof two lines',
  });
  check(await http.batch([]), { 'no request, no response': (rs) => rs.length === 0 });
}
`);
  const r = await run(file, target.url, '-n', '1', '-c', '1');
  t.equal(r.code, 0, r.stderr);
  t.equal(target.maxInFlight(), 5, 'the five were in flight at once');
  const result = json(r);
  t.equal(result.total, 7, 'each request counts');
  t.same(result.checks?.by_name, {
    'five in order': { passes: 1, fails: 0 },
    'all 200': { passes: 1, fails: 0 },
    'mixed 200': { passes: 1, fails: 0 },
    'a body of two lines': { passes: 1, fails: 0 },
    'no request, no response': { passes: 1, fails: 0 },
  });
  t.same(Object.fromEntries(result.endpoints.map((e) => [e.name, e.requests])), {
    'GET /delay/100': 5,
    'POST /echo': 1,
    named: 1,
  });
});

t.test('http.batch keeps at most 6 requests in flight', async (t) => {
  const target = await countingTarget(t);
  const file = scenario(`import { http } from 'barrage';
export default async function (): Promise<void> {
  await http.batch(Array.from({ length: 10 }, () => '/delay/100'));
}
`);
  const r = await run(file, target.url, '-n', '1', '-c', '1');
  t.equal(r.code, 0, r.stderr);
  t.equal(target.maxInFlight(), 6);
  t.equal(json(r).total, 10);
});
