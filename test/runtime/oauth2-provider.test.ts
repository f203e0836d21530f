// The OAuth 2.0 provider against real token endpoints on 127.0.0.1 (the embedded target server and
// scripted ones), with a fake clock and a fake sleep: no assertion depends on real time.
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { NO_TOKEN } from '../../runtime/auth/auth-provider.js';
import { OAuth2Provider } from '../../runtime/auth/oauth2-provider.js';
import type { TokenState } from '../../runtime/auth/token-machine.js';
import { parseTokenResponse, type OAuth2Plan } from '../../runtime/auth/token-request.js';
import { seededRandom } from '../../model/random.js';
import { startTokenServer } from '../helpers/token-server.js';

const SECRET = 'demo-secret';

function oauth2(tokenUrl: string, over: Partial<OAuth2Plan> = {}): OAuth2Plan {
  return {
    type: 'oauth2',
    tokenUrl,
    clientId: 'barrage-demo',
    clientSecret: SECRET,
    grantType: 'client_credentials',
    scope: undefined,
    audience: undefined,
    clientAuth: 'body',
    refreshBeforeExpiryMs: undefined,
    maxRetries: 3,
    ...over,
  };
}

/** A provider with a fake clock (µs, set by the test), a recording sleep, fetches and fatals. */
function harness(t: Test, plan: OAuth2Plan, timeoutMs = 5_000) {
  const seen = {
    clock: 0,
    fetches: [] as boolean[],
    sleeps: [] as number[],
    fatals: [] as string[],
  };
  const provider = new OAuth2Provider(plan, {
    timeoutMs,
    insecure: false,
    tls: undefined,
    proxy: undefined,
    now: () => seen.clock,
    random: seededRandom(7),
    sleep: (ms) => {
      seen.sleeps.push(ms);
      return Promise.resolve();
    },
    recordFetch: (ok) => seen.fetches.push(ok),
    fatal: (message) => seen.fatals.push(message),
  });
  t.teardown(() => provider.close());
  return { seen, provider };
}

/** Waits (a bounded number of short real pauses) until the provider reaches `state`. */
async function reach(provider: OAuth2Provider, state: TokenState): Promise<void> {
  for (let i = 0; i < 500 && provider.state !== state; i++) await sleep(10);
  if (provider.state !== state) throw new Error(`still ${provider.state}, not ${state}`);
}

t.test('single flight: 200 concurrent callers cause one token request', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/oauth/token`));
  t.equal(provider.state, 'NoToken');
  const answers = Array.from({ length: 200 }, () => provider.authorization());
  t.equal(provider.state, 'Fetching');
  t.ok(
    answers.every((a) => a instanceof Promise),
    'every caller waits while Fetching',
  );
  const headers = await Promise.all(answers.map((a) => Promise.resolve(a)));
  t.equal(new Set(headers).size, 1, 'all got the same token');
  t.match(headers[0], /^Bearer [A-Za-z0-9_-]{32}$/);
  t.equal(server.stats().tokensIssued, 1);
  t.strictSame(seen.fetches, [true]);
  t.equal(provider.state, 'Valid');
  seen.clock = 3_599_000_000;
  t.equal(provider.authorization(), headers[0], 'a cached token is returned at once');
  t.equal(server.stats().tokensIssued, 1);
});

t.test('refresh before expiry: one background refresh, the old token used meanwhile', async (t) => {
  const server = await startTargetServer({ tokenTtlSeconds: 2 });
  t.teardown(() => server.close());
  const plan = oauth2(`${server.url}/oauth/token`, { refreshBeforeExpiryMs: 1_000 });
  const { seen, provider } = harness(t, plan);
  const first = await provider.authorization();
  seen.clock = 999_999;
  t.equal(provider.authorization(), first, 'before the refresh point: the token, no refresh');
  t.equal(provider.state, 'Valid');
  seen.clock = 1_000_000;
  t.equal(
    provider.authorization(),
    first,
    'the request that starts the refresh gets the old token',
  );
  t.equal(provider.state, 'Refreshing');
  t.equal(provider.authorization(), first, 'so do requests during the refresh');
  await reach(provider, 'Valid');
  const second = provider.authorization();
  t.type(second, 'string');
  t.not(second, first, 'the new token replaced the old');
  t.equal(server.stats().tokensIssued, 2, 'one refresh, however many requests came meanwhile');
  t.strictSame(seen.fetches, [true, true]);
  seen.clock = 1_999_999;
  t.equal(provider.authorization(), second, 'the new token is counted from its own request');
  t.equal(provider.state, 'Valid');
});

t.test('without refresh_before_expiry the token is renewed only once expired', async (t) => {
  const server = await startTargetServer({ tokenTtlSeconds: 2 });
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/oauth/token`));
  const first = await provider.authorization();
  seen.clock = 1_999_999;
  t.equal(provider.authorization(), first);
  seen.clock = 2_000_000;
  const renewed = provider.authorization();
  t.type(renewed, Promise, 'an expired token is never handed out: the caller waits');
  t.equal(provider.state, 'Fetching');
  t.not(await renewed, first);
  t.equal(server.stats().tokensIssued, 2);
});

t.test('a token past expiry during a slow refresh: callers wait for the refresh', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = await startTokenServer(async (_request, index) => {
    if (index === 1) await held;
    return { status: 200, json: { access_token: `token-${index}`, expires_in: 2 } };
  });
  t.teardown(() => server.close());
  const plan = oauth2(`${server.url}/token`, { refreshBeforeExpiryMs: 1_000 });
  const { seen, provider } = harness(t, plan);
  t.equal(await provider.authorization(), 'Bearer token-0');
  seen.clock = 1_500_000;
  t.equal(provider.authorization(), 'Bearer token-0');
  t.equal(provider.state, 'Refreshing');
  seen.clock = 2_000_000;
  const waiting = provider.authorization();
  t.type(waiting, Promise, 'the old token has expired: no longer handed out');
  release();
  t.equal(await waiting, 'Bearer token-1');
  t.equal(server.requests.length, 2);
});

t.test('a failed background refresh keeps the old token, then retries later', async (t) => {
  const server = await startTokenServer((_request, index) =>
    index === 0 || index === 2
      ? { status: 200, json: { access_token: `token-${index}`, expires_in: 2 } }
      : { status: 503, json: { error: 'temporarily_unavailable' } },
  );
  t.teardown(() => server.close());
  const plan = oauth2(`${server.url}/token`, { refreshBeforeExpiryMs: 1_000 });
  const { seen, provider } = harness(t, plan);
  t.equal(await provider.authorization(), 'Bearer token-0');
  seen.clock = 1_000_000;
  t.equal(provider.authorization(), 'Bearer token-0');
  await reach(provider, 'Valid');
  t.strictSame(seen.fetches, [true, false]);
  t.equal(provider.authorization(), 'Bearer token-0', 'old token kept (Refreshing → Valid)');
  t.equal(server.requests.length, 2, 'no new refresh before the backoff passed');
  t.equal(seen.fatals.length, 0, 'a failed background refresh does not stop the run');
  seen.clock = 1_000_000 + 200_000;
  t.equal(provider.authorization(), 'Bearer token-0', 'after the backoff: the next refresh');
  t.equal(provider.state, 'Refreshing');
  await reach(provider, 'Valid');
  t.equal(provider.authorization(), 'Bearer token-2');
});

t.test('failed fetches: Error, retries with backoff, then the run is stopped', async (t) => {
  const server = await startTokenServer(() => ({
    status: 500,
    json: { error: `leak ${SECRET}`, error_description: SECRET },
  }));
  t.teardown(() => server.close());
  const url = `${server.url}/token?tenant=a`;
  const { seen, provider } = harness(t, oauth2(url, { maxRetries: 2 }));
  const waiting = [provider.authorization(), provider.authorization()];
  t.equal(await waiting[0], NO_TOKEN, 'callers waiting when the provider gives up get NO_TOKEN');
  t.equal(await waiting[1], NO_TOKEN);
  t.equal(server.requests.length, 3, 'one fetch and max_retries retries');
  t.strictSame(seen.fetches, [false, false, false]);
  t.equal(seen.sleeps.length, 2);
  t.ok(seen.sleeps[0]! >= 100 && seen.sleeps[0]! <= 200, `first backoff ${seen.sleeps[0]}`);
  t.ok(seen.sleeps[1]! >= 200 && seen.sleeps[1]! <= 400, `second backoff ${seen.sleeps[1]}`);
  t.equal(provider.state, 'End');
  t.strictSame(seen.fatals, [
    `auth: no token from ${server.url}/token after 3 attempts (max_retries: 2); last failure: HTTP 500`,
  ]);
  t.equal(provider.authorization(), NO_TOKEN, 'after giving up, nothing is sent');
});

t.test('Error → retry → a token: the run goes on', async (t) => {
  const server = await startTokenServer((_request, index) =>
    index < 2
      ? { status: 502, text: 'bad gateway' }
      : { status: 200, json: { access_token: 'late', token_type: 'bearer', expires_in: 60 } },
  );
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/token`));
  t.equal(await provider.authorization(), 'Bearer late');
  t.strictSame(seen.fetches, [false, false, true]);
  t.equal(seen.fatals.length, 0);
  t.equal(provider.state, 'Valid');
});

t.test('max_retries 0 gives up after the first failure', async (t) => {
  const server = await startTokenServer(() => ({ status: 401, json: { error: 'invalid_client' } }));
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/token`, { maxRetries: 0 }));
  t.equal(await provider.authorization(), NO_TOKEN);
  t.equal(server.requests.length, 1);
  t.match(
    seen.fatals[0],
    /after 1 attempt \(max_retries: 0\); last failure: HTTP 401 invalid_client$/,
  );
});

t.test('the token request: form body, or HTTP Basic client authentication', async (t) => {
  const server = await startTokenServer(() => ({
    status: 200,
    json: { access_token: 'x', expires_in: 60 },
  }));
  t.teardown(() => server.close());
  const extra = { scope: 'read write', audience: 'https://api' };
  const inBody = harness(t, oauth2(`${server.url}/token`, extra)).provider;
  await inBody.authorization();
  const form = new URLSearchParams(server.requests[0]!.body);
  t.equal(server.requests[0]!.method, 'POST');
  t.equal(server.requests[0]!.headers['content-type'], 'application/x-www-form-urlencoded');
  t.strictSame(Object.fromEntries(form), {
    grant_type: 'client_credentials',
    scope: 'read write',
    audience: 'https://api',
    client_id: 'barrage-demo',
    client_secret: SECRET,
  });
  t.equal(server.requests[0]!.headers.authorization, undefined);

  const id = 'a b:c';
  const secret = 'p@ss w/rd+';
  const basic = harness(
    t,
    oauth2(`${server.url}/token`, { clientAuth: 'basic', clientId: id, clientSecret: secret }),
  ).provider;
  await basic.authorization();
  const sent = server.requests[1]!;
  t.strictSame(Object.fromEntries(new URLSearchParams(sent.body)), {
    grant_type: 'client_credentials',
  });
  const encoded = /^Basic (.+)$/.exec(sent.headers.authorization ?? '')?.[1] ?? '';
  const [user, pass] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  t.equal(user, 'a+b%3Ac', 'RFC 6749 §2.3.1: the id is form-urlencoded');
  t.equal(pass, 'p%40ss+w%2Frd%2B');
  t.equal(new URLSearchParams(`u=${user}`).get('u'), id);
  t.equal(new URLSearchParams(`p=${pass}`).get('p'), secret);
});

t.test('the embedded target server accepts both client authentications', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  for (const clientAuth of ['body', 'basic'] as const) {
    const { provider, seen } = harness(t, oauth2(`${server.url}/oauth/token`, { clientAuth }));
    t.match(await provider.authorization(), /^Bearer /, clientAuth);
    t.strictSame(seen.fetches, [true]);
  }
});

t.test('a token endpoint that does not answer fails within the timeout', async (t) => {
  const server = await startTokenServer(() => new Promise(() => undefined));
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/token`, { maxRetries: 0 }), 100);
  t.equal(await provider.authorization(), NO_TOKEN);
  t.match(seen.fatals[0], /last failure: no answer within 100 ms$/);
});

t.test('an unreachable token endpoint is a network failure', async (t) => {
  const server = await startTokenServer(() => ({ status: 200 }));
  const url = `${server.url}/token`;
  await server.close();
  const { seen, provider } = harness(t, oauth2(url, { maxRetries: 0 }));
  t.equal(await provider.authorization(), NO_TOKEN);
  t.match(seen.fatals[0], /last failure: connection refused$/);
});

t.test('close() ends a fetch in flight: waiting callers get NO_TOKEN, no fatal', async (t) => {
  const server = await startTokenServer(() => new Promise(() => undefined));
  t.teardown(() => server.close());
  const { seen, provider } = harness(t, oauth2(`${server.url}/token`));
  const waiting = provider.authorization();
  await sleep(20);
  provider.close();
  t.equal(await waiting, NO_TOKEN);
  t.strictSame(seen.fatals, []);
  t.strictSame(seen.fetches, [], 'an aborted fetch is not a failure of the identity provider');
});

/** Token responses: status, body → outcome. */
const RESPONSES: readonly [string, number, string, ReturnType<typeof parseTokenResponse>][] = [
  [
    'a token with a lifetime',
    200,
    '{"access_token":"t","token_type":"Bearer","expires_in":3600}',
    { ok: true, accessToken: 't', expiresInS: 3600 },
  ],
  [
    'expires_in as a string',
    200,
    '{"access_token":"t","expires_in":"90"}',
    { ok: true, accessToken: 't', expiresInS: 90 },
  ],
  [
    'no expires_in: never expires',
    200,
    '{"access_token":"t"}',
    { ok: true, accessToken: 't', expiresInS: undefined },
  ],
  [
    'not JSON',
    200,
    'access_token=t',
    { ok: false, reason: 'HTTP 200 with a body that is not JSON' },
  ],
  [
    'no access_token',
    200,
    '{"token":"t"}',
    { ok: false, reason: 'no access_token in the response' },
  ],
  [
    'another token type',
    200,
    '{"access_token":"t","token_type":"mac"}',
    { ok: false, reason: 'token_type is not Bearer' },
  ],
  [
    'a negative lifetime',
    200,
    '{"access_token":"t","expires_in":-1}',
    { ok: false, reason: 'expires_in is not a positive number' },
  ],
  [
    'an OAuth error code is quoted',
    400,
    '{"error":"invalid_scope","error_description":"nope"}',
    { ok: false, reason: 'HTTP 400 invalid_scope' },
  ],
  [
    'any other error text is not',
    401,
    '{"error":"your secret is hunter2"}',
    { ok: false, reason: 'HTTP 401' },
  ],
  ['an empty failure', 503, '', { ok: false, reason: 'HTTP 503' }],
];

t.test('token responses', async (t) => {
  for (const [name, status, body, expected] of RESPONSES)
    t.strictSame(parseTokenResponse(status, body), expected, name);
});
