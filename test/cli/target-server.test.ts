// The embedded target server, exercised over real HTTP on 127.0.0.1:0; its counters and token
// store are also tested alone with a fake clock.
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { WebSocket } from 'ws';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { TargetStatsCounter } from '../../cli/serve/target-stats.js';
import { TokenStore } from '../../cli/serve/token-store.js';

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

async function call(server: TargetServer, path: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

function postJson(value: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  };
}

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  } satisfies RequestInit;
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

function tokenOf(reply: Reply): string {
  const token = (reply.json as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error(`no access_token in ${reply.text}`);
  return token;
}

/** Rejects after `ms` so a hang fails the test instead of the whole run timing out. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms, undefined, { ref: false }).then(() => {
      throw new Error(`${what} did not settle within ${ms} ms`);
    }),
  ]);
}

const server = await startTargetServer();
t.teardown(() => server.close());

t.test('binds 127.0.0.1 on an ephemeral port by default', (t) => {
  t.equal(server.host, '127.0.0.1');
  t.ok(server.port > 0);
  t.equal(server.url, `http://127.0.0.1:${server.port}`);
  t.end();
});

t.test('rejects invalid options, listing every problem', async (t) => {
  await t.rejects(
    startTargetServer({
      port: -1,
      flakyEvery: 0,
      tokenTtlSeconds: 0,
      sessionCapacity: 0.5,
      chatMaxMembers: 0,
      chatMaxRooms: 1.5,
    }),
    {
      name: 'RangeError',
      message: /port.*tokenTtlSeconds.*flakyEvery.*sessionCapacity.*chatMaxMembers.*chatMaxRooms/,
    },
  );
});

t.test('/ and /json', async (t) => {
  const root = await call(server, '/');
  t.equal(root.status, 200);
  t.equal(root.text, 'barrage target server\n');
  t.match(root.headers.get('content-type'), /^text\/plain/);
  const json = await call(server, '/json');
  t.equal(json.status, 200);
  t.equal(json.headers.get('content-type'), 'application/json');
  t.same(json.json, {
    ok: true,
    items: [
      { id: 1, name: 'alpha' },
      { id: 2, name: 'beta' },
    ],
  });
  t.equal((await call(server, '/json?x=1', { method: 'POST', body: 'ignored' })).status, 200);
});

t.test('/delay/:ms', async (t) => {
  const ok = await call(server, '/delay/20');
  t.equal(ok.status, 200);
  t.same(ok.json, { delayed_ms: 20 });
  t.same((await call(server, '/delay/0')).json, { delayed_ms: 0 });
  for (const bad of ['60001', 'abc', '-1', '1.5', '']) {
    t.equal((await call(server, `/delay/${bad}`)).status, 400, `/delay/${bad}`);
  }
});

t.test('/status/:code', async (t) => {
  for (const code of [200, 201, 302, 418, 500, 503, 599]) {
    const reply = await call(server, `/status/${code}`, { redirect: 'manual' });
    t.equal(reply.status, code);
    t.same(reply.json, { status: code });
  }
  const empty = await call(server, '/status/204');
  t.equal(empty.status, 204);
  t.equal(empty.text, '');
  for (const bad of ['100', '199', '600', '99', 'x']) {
    t.equal((await call(server, `/status/${bad}`)).status, 400, `/status/${bad}`);
  }
});

t.test('/login then /me', async (t) => {
  const login = await call(server, '/login', postJson({ user: 'ada', password: 'pw' }));
  t.equal(login.status, 200);
  t.match(login.json, { token_type: 'Bearer', expires_in: 3600, user: 'ada' });
  const token = tokenOf(login);
  const me = await call(server, '/me', { headers: { authorization: `Bearer ${token}` } });
  t.equal(me.status, 200);
  t.same(me.json, { user: 'ada' });
  const lower = await call(server, '/me', { headers: { authorization: `bearer ${token}` } });
  t.equal(lower.status, 200, 'the scheme name is case-insensitive');

  for (const authorization of [undefined, 'Bearer nope', `Basic ${token}`, 'Bearer ']) {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const denied = await call(server, '/me', { headers });
    t.equal(denied.status, 401, String(authorization));
    t.same(denied.json, { error: 'unauthorized' });
    t.match(denied.headers.get('www-authenticate'), /^Bearer/);
  }

  for (const body of [{}, { user: '' }, { user: 42 }, null]) {
    t.equal((await call(server, '/login', postJson(body))).status, 400, JSON.stringify(body));
  }
  const notJson = await call(server, '/login', { method: 'POST', body: '{user' });
  t.equal(notJson.status, 400);
  const get = await call(server, '/login');
  t.equal(get.status, 405);
  t.equal(get.headers.get('allow'), 'POST');
});

t.test('/oauth/token: client credentials grant', async (t) => {
  const grant = { grant_type: 'client_credentials' };
  const creds = { client_id: 'barrage-demo', client_secret: 'demo-secret' };

  const inBody = await call(server, '/oauth/token', postForm({ ...grant, ...creds, scope: 'a b' }));
  t.equal(inBody.status, 200);
  t.match(inBody.json, { token_type: 'Bearer', expires_in: 3600, scope: 'a b' });
  t.equal(inBody.headers.get('cache-control'), 'no-store');
  const me = await call(server, '/me', { headers: { authorization: `Bearer ${tokenOf(inBody)}` } });
  t.same(me.json, { user: 'barrage-demo' });

  const header = { authorization: basic('barrage-demo', 'demo-secret') };
  const viaBasic = await call(
    server,
    '/oauth/token',
    postForm({ ...grant, audience: 'x' }, header),
  );
  t.equal(viaBasic.status, 200);
  t.notOk('scope' in (viaBasic.json as object), 'no scope asked, none echoed');

  const cases: [string, RequestInit, number, string][] = [
    ['wrong grant', postForm({ grant_type: 'password', ...creds }), 400, 'unsupported_grant_type'],
    ['no grant', postForm(creds), 400, 'invalid_request'],
    ['bad secret', postForm({ ...grant, ...creds, client_secret: 'x' }), 401, 'invalid_client'],
    [
      'bad basic',
      postForm(grant, { authorization: basic('barrage-demo', 'x') }),
      401,
      'invalid_client',
    ],
    ['no client', postForm(grant), 401, 'invalid_client'],
    ['two methods', postForm({ ...grant, ...creds }, header), 400, 'invalid_request'],
    ['JSON body', postJson({ ...grant, ...creds }), 400, 'invalid_request'],
  ];
  for (const [name, init, status, error] of cases) {
    const reply = await call(server, '/oauth/token', init);
    t.equal(reply.status, status, name);
    t.same(reply.json, { error }, name);
  }
  const repeated = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&grant_type=client_credentials&client_id=barrage-demo&client_secret=demo-secret',
  });
  t.equal(repeated.status, 400, 'a repeated parameter is invalid_request');
  await repeated.body?.cancel();
  t.equal((await call(server, '/oauth/token')).status, 405);
});

t.test('/oauth/token tokens expire after tokenTtlSeconds', async (t) => {
  const short = await startTargetServer({ tokenTtlSeconds: 1, clientId: 'c', clientSecret: 's' });
  t.teardown(() => short.close());
  const body = { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' };
  const issued = await call(short, '/oauth/token', postForm(body));
  t.match(issued.json, { expires_in: 1 });
  const headers = { authorization: `Bearer ${tokenOf(issued)}` };
  t.equal((await call(short, '/me', { headers })).status, 200);
  await sleep(1100);
  const expired = await call(short, '/me', { headers });
  t.equal(expired.status, 401);
  t.same(expired.json, { error: 'unauthorized' });
  t.equal(short.stats().tokensIssued, 1);
});

t.test('/flaky fails every flakyEvery-th request', async (t) => {
  server.resetStats();
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await call(server, '/flaky')).status);
  t.same(statuses, [200, 200, 200, 200, 503, 200, 200, 200, 200, 503]);

  const every2 = await startTargetServer({ flakyEvery: 2 });
  t.teardown(() => every2.close());
  const pattern: number[] = [];
  for (let i = 0; i < 4; i++) pattern.push((await call(every2, '/flaky')).status);
  t.same(pattern, [200, 503, 200, 503]);
});

t.test('/echo returns the request', async (t) => {
  const reply = await call(server, '/echo?a=1&a=2&b=x%20y', {
    method: 'PUT',
    headers: { 'x-test': 'yes', 'content-type': 'text/plain' },
    body: 'héllo',
  });
  t.equal(reply.status, 200);
  t.match(reply.json, {
    method: 'PUT',
    path: '/echo',
    query: { a: ['1', '2'], b: 'x y' },
    headers: { 'x-test': 'yes' },
    body: 'héllo',
  });
  t.match((await call(server, '/echo')).json, { method: 'GET', query: {}, body: '' });
});

t.test('request bodies past 1 MiB get 413', async (t) => {
  const big = Buffer.alloc(1024 * 1024 + 1, 'a');
  const reply = await call(server, '/echo', { method: 'POST', body: big });
  t.equal(reply.status, 413);
  t.same(reply.json, { error: 'payload too large' });
  const exact = await call(server, '/echo', { method: 'POST', body: big.subarray(1) });
  t.equal(exact.status, 200, 'exactly 1 MiB is accepted');
  t.equal((await call(server, '/login', { method: 'POST', body: big })).status, 413);
});

t.test('/drip sends its bytes slowly', async (t) => {
  const reply = await call(server, '/drip?bytes=5&interval=10');
  t.equal(reply.status, 200);
  t.equal(reply.text, '*****');
  t.equal(reply.headers.get('content-length'), '5');
  t.equal((await call(server, '/drip?bytes=0&interval=10')).text, '');
  t.equal((await call(server, '/drip?bytes=x')).status, 400);
  t.equal((await call(server, '/drip?interval=60001')).status, 400);

  // A client that leaves mid-body: the server stops writing and keeps serving.
  const controller = new AbortController();
  const res = await fetch(`${server.url}/drip?bytes=1000&interval=5`, {
    signal: controller.signal,
  });
  t.equal(res.status, 200);
  controller.abort();
  await t.rejects(res.text());
  t.equal((await call(server, '/json')).status, 200);
});

t.test('/sse streams its events at its pace, then ends', async (t) => {
  const reply = await call(server, '/sse?events=3&every_ms=5');
  t.equal(reply.status, 200);
  t.equal(reply.headers.get('content-type'), 'text/event-stream');
  t.equal(reply.text, 'data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
  t.equal((await call(server, '/sse?events=0')).text, '');
  t.equal((await call(server, '/sse?events=10001')).status, 400);
  t.equal((await call(server, '/sse?every_ms=60001')).status, 400);
});

t.test('/chunks writes its NDJSON lines at their pace, then ends', async (t) => {
  const reply = await call(server, '/chunks?lines=3&every_ms=5');
  t.equal(reply.status, 200);
  t.equal(reply.headers.get('content-type'), 'application/x-ndjson');
  t.equal(reply.text, '{"n":1}\n{"n":2}\n{"n":3}\n');
  t.equal((await call(server, '/chunks?lines=0')).text, '');
  t.equal((await call(server, '/chunks?lines=10001')).status, 400);
  t.equal((await call(server, '/chunks?every_ms=60001')).status, 400);
});

t.test('/bytes/:n', async (t) => {
  for (const n of [0, 1, 1024, 10 * 1024 * 1024]) {
    const res = await fetch(`${server.url}/bytes/${n}`);
    t.equal(res.status, 200);
    t.equal((await res.arrayBuffer()).byteLength, n, `${n} bytes`);
  }
  for (const bad of [`${10 * 1024 * 1024 + 1}`, 'abc', '-1']) {
    t.equal((await call(server, `/bytes/${bad}`)).status, 400, `/bytes/${bad}`);
  }
});

t.test('unknown paths get 404', async (t) => {
  for (const path of ['/nope', '/delay', '/json/extra', '/oauth', '/app', '/app/', '/app/x/y']) {
    const reply = await call(server, path);
    t.equal(reply.status, 404, path);
    t.same(reply.json, { error: 'not found' });
  }
});

t.test('upgrades are refused on routes without an upgrade handler', async (t) => {
  const socket = connect(server.port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.write(
    'GET /json HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n',
  );
  const reply = await within(
    5000,
    new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('end', () => resolve(text));
    }),
    'upgrade refusal',
  );
  t.match(reply, /^HTTP\/1\.1 400 /);
});

/** Opens a WebSocket to the server; rejects on a refused upgrade with its status. */
function openWs(path: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(server.url.replace('http', 'ws') + path);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      reject(new Error(`status ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** The next frame, as [payload, isBinary]. */
function nextFrame(ws: WebSocket): Promise<[Buffer, boolean]> {
  return new Promise((resolve) =>
    ws.once('message', (data: Buffer, isBinary: boolean) => resolve([data, isBinary])),
  );
}

t.test('/ws/echo echoes text and binary frames, in order, with an optional delay', async (t) => {
  server.resetStats();
  const ws = await within(5000, openWs('/ws/echo'), 'open');
  t.teardown(() => ws.terminate());
  const text = nextFrame(ws);
  ws.send('hello');
  t.strictSame(await within(5000, text, 'text'), [Buffer.from('hello'), false]);
  const binary = nextFrame(ws);
  ws.send(Buffer.from([0, 1, 2, 255]));
  t.strictSame(await within(5000, binary, 'binary'), [Buffer.from([0, 1, 2, 255]), true]);

  const slow = await within(5000, openWs('/ws/echo?delay=30'), 'open delayed');
  t.teardown(() => slow.terminate());
  const replies: string[] = [];
  const both = new Promise<void>((resolve) =>
    slow.on('message', (data: Buffer) => {
      replies.push(data.toString());
      if (replies.length === 2) resolve();
    }),
  );
  slow.send('one');
  slow.send('two');
  await within(5000, both, 'delayed replies');
  t.same(replies, ['one', 'two']);
  t.equal(server.stats().byRoute.ws_echo, 2, 'one count per session');

  await t.rejects(openWs('/ws/echo?delay=abc'), /status 400/, 'bad delay');
  await t.rejects(openWs('/ws/echo?delay=60001'), /status 400/, 'delay too long');
  const plain = await call(server, '/ws/echo');
  t.equal(plain.status, 426, 'a plain GET needs an upgrade');
  t.equal(plain.headers.get('upgrade'), 'websocket');
});

t.test('stats count requests per route and per second', async (t) => {
  server.resetStats();
  t.same(server.stats().total, 0);
  await call(server, '/json');
  await call(server, '/json');
  await call(server, '/');
  await call(server, '/nope');
  await call(server, '/delay/1');
  await call(server, '/oauth/token', postForm({ grant_type: 'x' }));
  const stats = server.stats();
  t.equal(stats.total, 6);
  t.match(stats.byRoute, { json: 2, root: 1, not_found: 1, delay: 1, oauth_token: 1, me: 0 });
  t.same(Object.keys(stats.byRoute).sort(), [
    'app_dashboard',
    'app_login',
    'app_logout',
    'app_product',
    'app_products',
    'bytes',
    'chunks',
    'delay',
    'drip',
    'echo',
    'flaky',
    'json',
    'login',
    'me',
    'not_found',
    'oauth_token',
    'root',
    'sse',
    'status',
    'ws_chat',
    'ws_echo',
  ]);
  t.equal(
    stats.perSecond.reduce((a, b) => a + b, 0),
    6,
  );
  t.equal(stats.tokensIssued, 0);

  const viaHttp = await call(server, '/__stats');
  t.equal(viaHttp.status, 200);
  t.match(viaHttp.json, { total: 6, byRoute: { json: 2 } });
  t.equal(server.stats().total, 6, '/__stats is not counted');

  server.resetStats();
  t.match(server.stats(), { total: 0, tokensIssued: 0, byRoute: { json: 0 } });
});

t.test('TargetStatsCounter slots requests by whole second (fake clock)', (t) => {
  let now = 500;
  const counter = new TargetStatsCounter(['a', 'b'], () => now);
  counter.count(0);
  now = 1499;
  counter.count(1);
  now = 1500;
  counter.count(1);
  now = 3600;
  counter.count(0);
  counter.tokenIssued();
  counter.sessionEvent('logins');
  counter.sessionEvent('logins');
  counter.sessionEvent('csrfRejected');
  const session = {
    sessionsCreated: 0,
    logins: 2,
    badCredentials: 0,
    csrfRejected: 1,
    dashboardViews: 0,
    notLoggedIn: 0,
    logouts: 0,
  };
  t.same(counter.snapshot(), {
    total: 4,
    byRoute: { a: 2, b: 2 },
    perSecond: [2, 1, 0, 1],
    tokensIssued: 1,
    session,
  });
  now = 5600;
  t.same(counter.snapshot().perSecond, [2, 1, 0, 1, 0, 0], 'padded up to the current second');
  counter.reset();
  now = 6000;
  counter.count(1);
  t.same(counter.snapshot(), {
    total: 1,
    byRoute: { a: 0, b: 1 },
    perSecond: [1],
    tokensIssued: 0,
    session: { ...session, logins: 0, csrfRejected: 0 },
  });
  t.end();
});

t.test('TokenStore expires tokens and forgets the oldest past capacity (fake clock)', (t) => {
  let now = 0;
  const store = new TokenStore(() => now, 2);
  const first = store.issue('a', 1);
  const second = store.issue('b', 10);
  t.not(first, second);
  t.equal(store.subjectOf(first), 'a');
  now = 999;
  t.equal(store.subjectOf(first), 'a');
  now = 1000;
  t.equal(store.subjectOf(first), undefined, 'expired at exactly the TTL');
  const third = store.issue('c', 10);
  const fourth = store.issue('d', 10);
  t.equal(store.size, 2);
  t.equal(store.subjectOf(second), undefined, 'the oldest was dropped');
  t.equal(store.subjectOf(third), 'c');
  t.equal(store.subjectOf(fourth), 'd');
  t.equal(store.subjectOf('made-up'), undefined);
  t.end();
});

t.test('close() resolves promptly with idle and busy keep-alive connections', async (t) => {
  const own = await startTargetServer();
  const agent = new Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${own.url}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  t.equal(await get('/json'), 200, 'leaves an idle pooled connection');
  const busy = get('/delay/60000');
  busy.catch(() => undefined);
  await sleep(50);
  await within(5000, own.close(), 'close()');
  await t.rejects(busy, 'the busy request is cut');
  await own.close();
  t.pass('close() twice is fine');
  await t.rejects(fetch(`${own.url}/json`), 'nothing listens any more');
});
