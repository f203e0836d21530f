// Authentication as users run it: the built CLI against real token endpoints and targets on
// 127.0.0.1 (the embedded target server, and scripted servers). Every output of every run is kept
// and searched for secrets at the end.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';
import { startTokenServer, type TokenServer } from '../helpers/token-server.js';

const CLIENT_SECRET = 'client-secret-5f3a9c';
const BEARER_TOKEN = 'static-bearer-token-8e21';
const BASIC_PASSWORD = 'basic-password-77d0';
/** Secrets that must appear in no output; tokens issued by scripted servers are added. */
const SECRETS = new Set([CLIENT_SECRET, BEARER_TOKEN, BASIC_PASSWORD]);
/** stdout, stderr and report files of every run. */
const OUTPUTS: string[] = [];

interface JsonResult {
  total: number;
  successes: number;
  failures: number;
  status_codes: Record<string, number>;
  endpoints: { name: string; requests: number; status_codes: Record<string, number> }[];
  auth?: { token_fetches: number; failures: number };
}

/** Writes the config, runs `barrage run load.yaml …`, keeps every output. */
async function run(
  t: Test,
  config: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<SpawnResult & { report: string | undefined }> {
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runCli(['run', 'load.yaml', '--no-dashboard', ...args, '--json', 'r.json'], {
    cwd: dir,
    env,
  });
  const file = join(dir, 'r.json');
  const report = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  OUTPUTS.push(result.stdout, result.stderr, report ?? '');
  return { ...result, report };
}

function json(result: SpawnResult): JsonResult {
  return JSON.parse(result.stdout) as JsonResult;
}

function oauth2(tokenUrl: string, extra = ''): string {
  return `auth:\n  type: oauth2\n  token_url: ${tokenUrl}\n  client_id: barrage-demo\n  client_secret: ${CLIENT_SECRET}\n${extra}`;
}

t.test('a long TTL: one token fetch for the whole run, 200 workers starting at once', async (t) => {
  const server = await startTargetServer({ clientSecret: CLIENT_SECRET });
  t.teardown(() => server.close());
  const config = `target: ${server.url}\nendpoints:\n  - url: /me\n${oauth2(`${server.url}/oauth/token`)}`;
  const result = await run(t, config, ['-c', '200', '-n', '400', '--json-output']);
  t.equal(result.code, 0, result.stderr);
  const out = json(result);
  t.equal(out.total, 400);
  t.equal(out.successes, 400, 'every request carried a token /me accepted');
  t.strictSame(out.status_codes, { '200': 400 });
  t.strictSame(out.auth, { ...out.auth, token_fetches: 1, failures: 0 });
  const stats = server.stats();
  t.equal(stats.tokensIssued, 1, 'single flight: one token request for 200 workers');
  t.equal(stats.byRoute.me, 400);
  t.equal(stats.byRoute.oauth_token, 1, 'the token fetch is not among the 400 requests');
  t.equal(result.report, result.stdout, 'the JSON report file is the printed result');
});

t.test(
  'a 2 s TTL refreshed 1 s before expiry over 7 s: ~7 fetches, never an expired token',
  async (t) => {
    const server = await startTargetServer({ clientSecret: CLIENT_SECRET, tokenTtlSeconds: 2 });
    t.teardown(() => server.close());
    const config =
      `target: ${server.url}\nendpoints:\n  - url: /me\n` +
      oauth2(`${server.url}/oauth/token`, '  refresh_before_expiry: 1s\n');
    const result = await run(t, config, ['-c', '4', '-r', '40', '-d', '7s', '--json-output']);
    t.equal(result.code, 0, result.stderr);
    const out = json(result);
    t.ok(out.total > 100, `${out.total} requests`);
    t.equal(out.failures, 0, 'no request was sent with an expired token');
    t.strictSame(Object.keys(out.status_codes), ['200'], 'every /me answered 200');
    const fetches = out.auth?.token_fetches ?? 0;
    t.ok(fetches >= 6 && fetches <= 8, `${fetches} token fetches, about 7`);
    t.equal(server.stats().tokensIssued, fetches);
    t.equal(server.stats().byRoute.me, out.total, 'token fetches are not in the request totals');
  },
);

/** A token endpoint that always answers `status`. */
async function failingEndpoint(t: Test, status: number, error: string): Promise<TokenServer> {
  const server = await startTokenServer(() => ({
    status,
    json: { error, error_description: `rejected ${CLIENT_SECRET}` },
  }));
  t.teardown(() => server.close());
  return server;
}

t.test('a failing token endpoint: retries, then a clean stop, the report, exit 1', async (t) => {
  const target = await startTargetServer();
  t.teardown(() => target.close());
  const idp = await failingEndpoint(t, 500, 'server_error');
  const config =
    `target: ${target.url}\nendpoints:\n  - url: /me\n` +
    oauth2(`${idp.url}/oauth/token?tenant=${CLIENT_SECRET}`, '  max_retries: 2\n');
  const result = await run(t, config, ['-c', '20', '-r', '50', '-d', '20s']);
  t.equal(result.code, 1);
  t.equal(idp.requests.length, 3, 'one fetch and two retries');
  t.equal(
    result.stderr,
    `barrage: the run stopped: auth: no token from ${idp.url}/oauth/token after 3 attempts ` +
      '(max_retries: 2); last failure: HTTP 500 server_error\n',
  );
  t.match(result.stdout, /^--- Load Test Results ---\nTotal Requests: 0\n/);
  t.match(result.stdout, /^Auth: 3 token fetches, 3 failed, p95 [\d.]+ms$/m);
  t.equal(target.stats().byRoute.me, 0, 'nothing was sent without a token');
  t.type(result.report, 'string', 'the report file is still written');
});

t.test('invalid client credentials, sent as HTTP Basic: the error code is shown', async (t) => {
  const target = await startTargetServer();
  t.teardown(() => target.close());
  const idp = await failingEndpoint(t, 401, 'invalid_client');
  const config =
    `target: ${target.url}\nendpoints:\n  - url: /me\n` +
    oauth2(`${idp.url}/${CLIENT_SECRET}/token`, '  client_auth: basic\n  max_retries: 1\n');
  const result = await run(t, config, ['-n', '10', '--json-output']);
  t.equal(result.code, 1);
  t.equal(idp.requests.length, 2);
  t.match(idp.requests[0]?.headers.authorization, /^Basic /);
  t.match(result.stderr, `no token from ${idp.url}/[redacted]/token`, 'the secret is masked');
  t.match(
    result.stderr,
    /after 2 attempts \(max_retries: 1\); last failure: HTTP 401 invalid_client\n$/,
  );
  t.strictSame(json(result).auth, { ...json(result).auth, token_fetches: 2, failures: 2 });
});

t.test('oauth2 against a scripted identity provider: issued tokens reach the target', async (t) => {
  const issued: string[] = [];
  const idp = await startTokenServer(() => {
    const token = `issued-token-${issued.length}-c0ffee`;
    issued.push(token);
    SECRETS.add(token);
    return { status: 200, json: { access_token: token, token_type: 'Bearer', expires_in: 600 } };
  });
  t.teardown(() => idp.close());
  const api = await startTokenServer((request) => ({
    status: request.headers.authorization === `Bearer ${issued[0]}` ? 200 : 401,
  }));
  t.teardown(() => api.close());
  const config =
    `target: ${api.url}\nendpoints:\n  - url: /orders\n` +
    `auth:\n  type: oauth2\n  token_url: ${idp.url}/token\n  client_id: barrage-demo\n` +
    '  client_secret: ${CLIENT_SECRET}\n  scope: orders:read\n';
  const result = await run(t, config, ['-c', '5', '-n', '50', '--json-output'], {
    CLIENT_SECRET,
  });
  t.equal(result.code, 0, result.stderr);
  t.strictSame(json(result).status_codes, { '200': 50 });
  t.equal(issued.length, 1);
  const form = new URLSearchParams(idp.requests[0]!.body);
  t.equal(form.get('client_secret'), CLIENT_SECRET, 'the secret from ${CLIENT_SECRET} was sent');
  t.equal(form.get('scope'), 'orders:read');
});

t.test('bearer with a token extracted from a login response', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const config =
    `target: ${server.url}\nendpoints:\n` +
    '  - name: login\n    method: POST\n    url: /login\n    body: { user: ada, password: pw }\n' +
    '    setup: true\n    extract: { token: $.access_token }\n' +
    '  - name: profile\n    url: /me\n' +
    "auth: { type: bearer, token: '{{token}}' }\n";
  const result = await run(t, config, ['-c', '3', '-n', '30', '--json-output']);
  t.equal(result.code, 0, result.stderr);
  const out = json(result);
  t.equal(out.failures, 0);
  const profile = out.endpoints.find((e) => e.name === 'profile');
  t.strictSame(profile?.status_codes, { '200': 30 }, 'every /me carried the extracted token');
  t.equal(server.stats().byRoute.login, 3, 'the login went out before a token existed');
});

/** A target that accepts exactly one Authorization value. */
async function guarded(t: Test, expected: string): Promise<TokenServer> {
  const server = await startTokenServer((request) => ({
    status: request.headers.authorization === expected ? 200 : 401,
  }));
  t.teardown(() => server.close());
  return server;
}

t.test('bearer with a static token from the environment', async (t) => {
  const api = await guarded(t, `Bearer ${BEARER_TOKEN}`);
  const config = `target: ${api.url}\nauth: { type: bearer, token: '\${API_TOKEN}' }\n`;
  const result = await run(t, config, ['-c', '2', '-n', '20', '--json-output'], {
    API_TOKEN: BEARER_TOKEN,
  });
  t.equal(result.code, 0, result.stderr);
  t.strictSame(json(result).status_codes, { '200': 20 });
});

t.test('basic', async (t) => {
  const credentials = Buffer.from(`ada:${BASIC_PASSWORD}`).toString('base64');
  const api = await guarded(t, `Basic ${credentials}`);
  SECRETS.add(credentials);
  const config = `target: ${api.url}\nauth: { type: basic, username: ada, password: ${BASIC_PASSWORD} }\n`;
  const result = await run(t, config, ['-c', '2', '-n', '20', '--json-output']);
  t.equal(result.code, 0, result.stderr);
  t.strictSame(json(result).status_codes, { '200': 20 });
  const text = await run(t, config, ['-c', '2', '-n', '20']);
  t.match(text.stdout, /^Total Requests: 20$/m);
});

t.test('no secret in any output', async (t) => {
  t.ok(OUTPUTS.length >= 27, `${OUTPUTS.length} outputs captured`);
  const all = OUTPUTS.join('\n');
  for (const secret of SECRETS) t.notOk(all.includes(secret), `${secret.slice(0, 6)}… absent`);
  // Tokens of the embedded target server: 32 base64url characters.
  t.notMatch(all, /[A-Za-z0-9_-]{32}/, 'no issued token');
});
