// The host side of a TypeScript scenario's http calls (runtime/script/script-ops.ts) in process,
// against a real local target: a call's method, headers and body reach the server through the
// request path, the response the scenario gets has its status, headers and body, and the call is
// counted under its request name.
import t, { type Test } from 'tap';
import type { ScriptPlan } from '../../model/plan/plan.js';
import type { Settled } from '../../runtime/script/sandbox.js';
import { ScriptOps } from '../../runtime/script/script-ops.js';
import type { HttpArgs } from '../../runtime/script/script-request.js';
import { ScriptUser } from '../../runtime/script/script-user.js';
import { answer, pathRig, startTarget, type Route } from '../helpers/engine-rig.js';

/** The bundled scenario's side the operations read: the run's headers and expected statuses. */
const SCRIPT: ScriptPlan = {
  file: 'scenario.ts',
  code: '',
  sourceMap: '',
  headers: [{ name: 'user-agent', value: ['barrage-script'] }],
  expect: undefined,
  env: {},
};

/** A response as the bootstrap reads it (runtime/script/bootstrap-source.ts, class Response). */
interface ReadResponse {
  readonly status: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly error: string;
}

/** Reads a settled http call: url, then header names and values a line each, then the body. */
function readResponse(settled: Settled): ReadResponse {
  if (settled.kind !== 'response') throw new Error(`not a response: ${JSON.stringify(settled)}`);
  const lines = settled.text.split('\n');
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < settled.fields; i += 2)
    headers[lines[1 + i]!.toLowerCase()] = lines[2 + i]!;
  return {
    status: settled.status,
    url: lines[0]!,
    headers,
    body: lines.slice(1 + settled.fields).join('\n'),
    error: settled.error,
  };
}

/** A call's arguments as the bootstrap builds them, with `given` over the defaults. */
function httpArgs(method: string, url: string, given: Partial<HttpArgs> = {}): string {
  const args: HttpArgs = {
    method,
    url,
    body: undefined,
    json: false,
    query: [],
    form: undefined,
    multipart: undefined,
    headers: {},
    timeout: undefined,
    name: undefined,
    group: undefined,
    tags: undefined,
    redirects: undefined,
    expect: undefined,
    stream: undefined,
    idleTimeout: undefined,
    ...given,
  };
  return JSON.stringify(args);
}

/** The operations of a segment whose one scripted user calls `routes` on a local target. */
async function scripted(t: Test, routes: Readonly<Record<string, Route>>) {
  const target = await startTarget(t, routes);
  const rig = await pathRig(t, { target: target.url }, { scripted: true });
  const user = new ScriptUser(rig.vu, {
    path: rig.path,
    recorder: rig.recorder,
    exec: '',
    scenario: 'default',
    nextInTest: () => 0,
  });
  const ops = new ScriptOps({
    plan: rig.plan,
    script: SCRIPT,
    recorders: [rig.recorder],
    auth: undefined,
    feeder: undefined,
    onFeederExhausted: () => undefined,
    user: () => user,
    hardStop: new AbortController().signal,
    now: rig.now,
  });
  t.teardown(() => ops.close());
  const call = (json: string): Promise<Settled> =>
    new Promise((resolve) => ops.later(rig.vu.id, 'http', json, resolve));
  return { target, rig, call };
}

t.test(
  'a call reaches the server with its headers and body; the response comes back',
  async (t) => {
    const { target, call } = await scripted(t, {
      '/orders': answer(201, '{"id":7}', { 'x-reply': 'yes', 'content-type': 'application/json' }),
    });
    const settled = await call(
      httpArgs('POST', '/orders?x=1', {
        body: '{"item":"tea"}',
        json: true,
        query: [['q', 'a b']],
        headers: { 'X-Trace': 'abc' },
      }),
    );
    t.equal(target.received.length, 1);
    const got = target.received[0]!;
    t.equal(got.method, 'POST');
    t.equal(got.url, '/orders?x=1&q=a+b', "the url's query, then the call's");
    t.equal(got.headers['x-trace'], 'abc');
    t.equal(got.headers['content-type'], 'application/json', 'a JSON body says so');
    t.equal(got.headers['user-agent'], 'barrage-script', "the run's headers");
    t.equal(got.body, '{"item":"tea"}');
    const res = readResponse(settled);
    t.equal(res.status, 201);
    t.equal(res.url, `${target.url}/orders?x=1&q=a+b`);
    t.equal(res.headers['x-reply'], 'yes');
    t.equal(res.body, '{"id":7}');
    t.equal(res.error, '');
  },
);

t.test('a call is counted under its name, or METHOD path without the query', async (t) => {
  const { rig, call } = await scripted(t, { '/items': answer(200), '/pay': answer(500) });
  await call(httpArgs('GET', '/items?page=1'));
  await call(httpArgs('GET', '/items?page=2'));
  await call(httpArgs('POST', '/pay', { name: 'checkout' }));
  const s = rig.snapshot();
  t.strictSame(s.endpointNames, ['GET /items', 'checkout']);
  t.strictSame(
    s.endpoints.map((e) => [e.requests, e.failures]),
    [
      [2, 0],
      [1, 1],
    ],
  );
  t.strictSame(s.endpoints[1]!.errors, { http_5xx: 1 });
  t.match(s.endpointTags, [{ method: 'GET' }, { method: 'POST' }]);
});

t.test('a redirect is followed on the same path; the response has the final url', async (t) => {
  const { target, rig, call } = await scripted(t, {
    '/old': answer(302, '', { location: '/new' }),
    '/new': answer(200, 'here'),
  });
  const res = readResponse(await call(httpArgs('GET', '/old')));
  t.equal(res.status, 200);
  t.equal(res.url, `${target.url}/new`);
  t.equal(res.body, 'here');
  t.match(
    rig.snapshot(),
    { requests: 2, redirects: 1 },
    'the call and its hop: what the server saw',
  );
});

t.test("a user's calls go one at a time, in the order made", async (t) => {
  let inFlight = 0;
  let most = 0;
  const slow: Route = (req, res) => {
    most = Math.max(most, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.end(req.url);
    }, 10);
  };
  const { target, call } = await scripted(t, { '/slow': slow });
  const settled = await Promise.all([1, 2, 3].map((n) => call(httpArgs('GET', `/slow?n=${n}`))));
  t.equal(most, 1, 'never two at once');
  t.strictSame(
    target.received.map((r) => r.url),
    ['/slow?n=1', '/slow?n=2', '/slow?n=3'],
  );
  t.strictSame(
    settled.map((s) => readResponse(s).body),
    ['/slow?n=1', '/slow?n=2', '/slow?n=3'],
    'each call got its own response',
  );
});

t.test('a call to a host not allowed is refused and nothing is sent', async (t) => {
  const other = await startTarget(t, { '/x': answer(200) });
  const { target, rig, call } = await scripted(t, {});
  const settled = await call(httpArgs('GET', `${other.url}/x`));
  t.equal(settled.kind, 'refused');
  t.match(settled, { message: /not the target's host nor in allowed_hosts/ });
  t.equal(other.received.length + target.received.length, 0);
  t.equal(rig.snapshot().requests, 0);
});
