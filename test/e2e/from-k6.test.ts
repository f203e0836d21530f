/**
 * The k6 ports of scenarios/from-k6/ (docs/from-k6.md), run as a user runs them: the built CLI
 * against the embedded target, each shortened by a small configuration file or flags (a higher
 * layer than the scenario's options) so that a run takes a couple of seconds. Each must run to
 * its end, send what the port sends, evaluate its thresholds and pass its checks; the target's
 * own counters (and, for stages-groups.ts, what a recording front saw) must agree with barrage's.
 * Latency thresholds are evaluated but may fail on a busy machine (no wall-clock assertions): the
 * exit code must then say so, and nothing else may fail.
 */
import t, { type Test } from 'tap';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';

const PORTS = fileURLToPath(new URL('../../scenarios/from-k6/', import.meta.url));

interface ThresholdResult {
  readonly threshold: string;
  readonly metric: string;
  readonly actual: number | null;
  readonly pass: boolean;
}
interface Figures {
  readonly total: number;
  readonly failures: number;
  readonly dropped: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly endpoints: readonly {
    readonly name: string;
    readonly requests: number;
    readonly total_failed: { readonly total: number } | null;
  }[];
}
interface JsonResult extends Figures {
  readonly iterations_failed: number;
  readonly iteration_duration_ms?: { readonly min: number };
  readonly redirects: number;
  readonly checks?: {
    readonly by_name: Readonly<Record<string, { passes: number; fails: number }>>;
  };
  readonly thresholds?: { readonly results: readonly ThresholdResult[] };
  readonly scenarios: Readonly<Record<string, Figures>>;
  readonly metrics?: Readonly<Record<string, { readonly type: string }>>;
}

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

/**
 * A front for the target that records the path and query of every request it passes on: what
 * the target was sent, which its counters do not say.
 */
async function recorder(t: Test, upstream: string): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const out = request(`${upstream}${req.url ?? '/'}`, {
      method: req.method,
      headers: req.headers,
    });
    out.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths };
}

/** `barrage run … --json-output` of a port (a config file naming it, or --scenario). */
async function run(t: Test, targetUrl: string, args: readonly string[]): Promise<JsonResult> {
  const result = await runCli(
    ['run', ...args, '--target', targetUrl, '--json-output', '--no-dashboard'],
    { killAfterMs: 30_000 },
  );
  t.equal(result.stdout.trimStart().startsWith('{'), true, `a JSON result: ${result.stderr}`);
  const json = JSON.parse(result.stdout) as JsonResult;
  const results = json.thresholds?.results ?? [];
  const failed = results.filter((r) => !r.pass);
  t.equal(result.code, failed.length === 0 ? 0 : 1, `exit code: ${result.stderr}`);
  t.strictSame(
    failed.filter((r) => r.metric !== 'http_req_duration'),
    [],
    'only a latency threshold may fail (a busy machine)',
  );
  t.ok(
    results.every((r) => typeof r.actual === 'number'),
    'every threshold had data',
  );
  t.equal(json.iterations_failed, 0, 'no iteration threw');
  return json;
}

/** A configuration file in a fresh folder: the port, with `scenarios` replacing its own. */
function config(t: Test, port: string, scenarios: string): string {
  const dir = t.testdir({ 'run.yaml': `scenario: ${join(PORTS, port)}\nscenarios:\n${scenarios}` });
  return join(dir, 'run.yaml');
}

const requestsOf = (figures: Figures, name: string): number =>
  figures.endpoints.find((e) => e.name === name)?.requests ?? 0;

/** Every named check ran and none failed. */
function checksPassed(t: Test, json: JsonResult, names: readonly string[]): void {
  const byName = json.checks?.by_name ?? {};
  t.strictSame(Object.keys(byName).sort(), [...names].sort(), 'the checks of the port');
  for (const name of names) {
    t.ok((byName[name]?.passes ?? 0) > 0, `${name}: passed`);
    t.equal(byName[name]?.fails, 0, `${name}: never failed`);
  }
}

t.test('stages-groups.ts: ramping VUs, groups, thresholds, data.json, --env', async (t) => {
  const server = await target(t);
  const front = await recorder(t, server.url);
  const file = config(
    t,
    'stages-groups.ts',
    `  default:
    executor: ramping-vus
    start_vus: 1
    stages: [{ duration: 1s, target: 3 }, { duration: 1s, target: 0 }]
`,
  );
  const json = await run(t, front.url, [file, '--env', 'THINK=1.6']);
  const logins = requestsOf(json, 'POST /login');
  t.ok(logins > 0, 'logged in');
  t.equal(requestsOf(json, 'browse'), logins, 'one browse per login');
  t.equal(requestsOf(json, 'GET /me'), logins, 'one /me per login');
  t.strictSame(Object.keys(json.scenarios), ['default']);
  t.strictSame(
    json.thresholds?.results.map((r) => r.threshold),
    [
      'http_req_duration{endpoint=browse}:p95 < 300',
      'http_req_duration{group=login}:p99 < 500',
      'http_req_failed:rate < 0.01',
      'checks:rate > 0.99',
    ],
  );
  checksPassed(t, json, ['login is 200', 'browse is JSON', 'me knows the token']);
  const stats = server.stats();
  t.equal(stats.byRoute.login, logins, 'the target saw every login');
  t.equal(stats.byRoute.me, logins, 'and every /me');
  const browsed = front.paths.filter((path) => path.startsWith('/json'));
  t.equal(browsed.length, logins, 'the front saw every browse');
  const ids = new Set(['1070', '1071', '1072', '1073', '1074']);
  t.ok(
    browsed.every((path) => ids.has(new URL(path, front.url).searchParams.get('item') ?? '')),
    `every item browsed is a record of items.json: ${browsed.join(' ')}`,
  );
  t.ok(
    (json.iteration_duration_ms?.min ?? 0) >= 1500,
    `every iteration slept THINK=1.6 s from --env (unset: 1 s): ${json.iteration_duration_ms?.min}`,
  );
});

t.test('web-flow.ts: cookies, a followed and a read redirect, a form post', async (t) => {
  const server = await target(t);
  const json = await run(t, server.url, [
    '--scenario',
    join(PORTS, 'web-flow.ts'),
    '-d',
    '1s',
    '-c',
    '3',
  ]);
  const logins = json.endpoints.find((e) => e.name === 'log in')?.total_failed?.total ?? 0;
  t.ok(logins > 0, 'logged in');
  for (const name of ['login form', 'log out'])
    t.equal(requestsOf(json, name), logins, `${name}: once per visit`);
  for (const name of ['log in', 'dashboard, logged out'])
    t.equal(requestsOf(json, name), 2 * logins, `${name}: its request and its redirect's hop`);
  t.equal(json.failures, 0);
  t.equal(json.status_codes['302'], 3 * logins, 'the logout 302s, read; two followed');
  t.equal(json.redirects, 2 * logins, 'two redirects followed per visit');
  checksPassed(t, json, [
    'a session cookie',
    'lands on the dashboard',
    'greets the user',
    'logout redirects to the form',
    'the dashboard sends us to the form',
  ]);
  t.equal(json.thresholds?.results.length, 3);
  const session = server.stats().session;
  t.equal(session.logins, logins, 'the app logged every visit in');
  t.equal(session.dashboardViews, logins, 'and showed each its dashboard');
  t.equal(session.logouts, logins, 'and logged each out');
  t.equal(session.notLoggedIn, logins, 'and sent each back to the form afterwards');
  t.equal(session.csrfRejected, 0, 'the CSRF token came from the form');
  t.equal(session.badCredentials, 0);
});

t.test('custom-metrics.ts: two scenarios, custom metrics, expected 404s', async (t) => {
  const server = await target(t);
  const file = config(
    t,
    'custom-metrics.ts',
    `  catalogue: { executor: constant-vus, vus: 2, duration: 1s, exec: catalogue }
  lookups:
    executor: constant-arrival-rate
    rate: 20
    duration: 2s
    pre_allocated_vus: 8
    max_vus: 8
    start_time: 200ms
    exec: lookups
`,
  );
  const json = await run(t, server.url, [file]);
  const { catalogue, lookups } = json.scenarios;
  t.ok(catalogue!.total > 0, 'the catalogue was browsed');
  t.equal(lookups!.total + lookups!.dropped, 40, 'lookups: 20/s for 2 s, each sent or dropped');
  t.ok(lookups!.total > 0);
  t.equal(requestsOf(json, 'products'), catalogue!.total, 'the catalogue scenario browses');
  t.equal(requestsOf(json, 'product'), lookups!.total, 'the lookups scenario looks up');
  const notFound = json.status_codes['404'] ?? 0;
  // The first ids of users next to each other step by 7 in 60: the first lookups of any three
  // reach the third of the ids that does not exist. Eight users made before the start (a busy
  // machine may drop permits for want of a free one, never all but two users' first).
  t.ok(notFound > 0, 'some products did not exist');
  t.equal(json.failures, 0, 'a 404 is expected: not a failure');
  const found = lookups!.total - notFound;
  t.match(json.metrics, {
    product_bytes: { type: 'trend', count: found },
    missing_products: { type: 'counter', count: notFound },
    found_rate: { type: 'rate', total: lookups!.total, trues: found },
    catalogue_size: { type: 'gauge', value: 40 },
  });
  t.equal(json.thresholds?.results.length, 6);
  checksPassed(t, json, ['a list of products', 'a product or a 404']);
  t.equal(server.stats().byRoute.app_product, lookups!.total, 'the target saw every lookup');
});
