// The request path (runtime/worker/request-path.ts) in process against a real local target: what
// the server received and what the recorder counted agree for plain requests, redirects, retries,
// authorization, re-authorization after a backoff, unsent requests and event streams.
import t from 'tap';
import {
  NO_TOKEN,
  type AuthProvider,
  type Authorization,
} from '../../runtime/auth/auth-provider.js';
import { answer, pathRig, startTarget, type Route } from '../helpers/engine-rig.js';

/** Retries of 10 ms backoffs with no jitter (bounded: three attempts at most). */
const RETRY = { max_attempts: 3, backoff: '10ms', jitter: 0 };

/** Answers `first` to the first request at its path and `then` to the later ones. */
function firstThen(first: number, then: number): Route {
  return (_req, res, n) => res.writeHead(n === 0 ? first : then).end(n === 0 ? 'busy' : 'ok');
}

t.test('a plain 200 is one request, one success, its body bytes counted', async (t) => {
  const target = await startTarget(t, { '/plain': answer(200, 'hello') });
  const rig = await pathRig(t, { target: target.url, endpoints: [{ name: 'p', url: '/plain' }] });
  t.equal(await rig.send(0), true);
  t.equal(target.received.length, 1);
  t.equal(target.received[0]!.method, 'GET');
  t.equal(target.received[0]!.headers['user-agent'], 'barrage-test');
  const s = rig.snapshot();
  t.match(s, { requests: 1, successes: 1, failures: 0, retries: 0, redirects: 0 });
  t.strictSame(s.statusCodes, { '200': 1 });
  t.strictSame(s.errors, {});
  t.equal(s.bytesIn, 'hello'.length, 'the body bytes as sent');
});

t.test('redirects: 301/302/303 turn a POST into a GET, 307/308 keep method and body', async (t) => {
  const table: [number, string, string][] = [
    [301, 'GET', ''],
    [302, 'GET', ''],
    [303, 'GET', ''],
    [307, 'POST', 'payload'],
    [308, 'POST', 'payload'],
  ];
  for (const [status, method, body] of table) {
    const target = await startTarget(t, {
      '/from': answer(status, '', { location: '/to' }),
      '/to': answer(200, 'landed'),
    });
    const rig = await pathRig(t, {
      target: target.url,
      endpoints: [{ name: 'r', method: 'POST', url: '/from', body: 'payload' }],
    });
    t.equal(await rig.send(0), true, `${status} followed`);
    const [first, hop] = target.received;
    t.equal(first?.body, 'payload', `${status}: the first request carried the body`);
    t.equal(hop?.url, '/to');
    t.equal(hop?.method, method, `${status}: the hop is a ${method}`);
    t.equal(hop?.body, body, `${status}: the hop's body`);
    t.match(
      rig.snapshot(),
      { requests: 2, successes: 2, redirects: 1 },
      `${status}: the request and its hop, each a request the server saw`,
    );
    t.strictSame(
      rig.snapshot().statusCodes,
      { '200': 1, [status]: 1 },
      `${status}: the hop's status and the final one`,
    );
  }
});

t.test('a redirect loop stops at max_redirects as too_many_redirects', async (t) => {
  const target = await startTarget(t, { '/loop': answer(302, '', { location: '/loop' }) });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [{ name: 'loop', url: '/loop', max_redirects: 2 }],
  });
  t.equal(await rig.send(0), false);
  t.equal(target.received.length, 3, 'the request and its two hops');
  const s = rig.snapshot();
  t.match(s, { requests: 3, failures: 1, redirects: 2 }, 'three exchanges, the last one failed');
  t.strictSame(s.errors, { too_many_redirects: 1 });
  t.strictSame(s.statusCodes, { '302': 3 });
});

t.test('a hop to a host not allowed fails as url_not_allowed, unsent there', async (t) => {
  const elsewhere = await startTarget(t, { '/x': answer(200) });
  const target = await startTarget(t, {
    '/away': answer(302, '', { location: `${elsewhere.url}/x` }),
  });
  const rig = await pathRig(t, { target: target.url, endpoints: [{ name: 'a', url: '/away' }] });
  t.equal(await rig.send(0), false);
  t.equal(elsewhere.received.length, 0, 'the other host saw nothing');
  t.strictSame(rig.snapshot().errors, { url_not_allowed: 1 });
  t.equal(rig.snapshot().redirects, 0);
});

t.test('a hop to an allowed host is followed without the Authorization header', async (t) => {
  const elsewhere = await startTarget(t, { '/x': answer(200) });
  const target = await startTarget(t, {
    '/away': answer(302, '', { location: `${elsewhere.url}/x` }),
  });
  const auth: AuthProvider = { authorization: () => 'Bearer secret', close: () => undefined };
  const rig = await pathRig(
    t,
    {
      target: target.url,
      allowed_hosts: [elsewhere.host],
      endpoints: [{ name: 'a', url: '/away' }],
    },
    { auth },
  );
  t.equal(await rig.send(0), true);
  t.equal(target.received[0]!.headers.authorization, 'Bearer secret', 'sent to the origin');
  t.equal(elsewhere.received.length, 1);
  t.equal(elsewhere.received[0]!.headers.authorization, undefined, 'dropped off the origin');
  t.equal(rig.snapshot().redirects, 1);
});

t.test('cookies set by a redirect are carried on its hop', async (t) => {
  const target = await startTarget(t, {
    '/login': answer(302, '', { location: '/home', 'set-cookie': 'sid=abc123; Path=/' }),
    '/home': answer(200),
  });
  const rig = await pathRig(t, { target: target.url, endpoints: [{ name: 'l', url: '/login' }] });
  t.equal(await rig.send(0), true);
  t.equal(target.at('/login')[0]!.headers.cookie, undefined);
  t.equal(target.at('/home')[0]!.headers.cookie, 'sid=abc123');
});

t.test('retries: what is retried and how it is counted', async (t) => {
  const table: [number, boolean][] = [
    [503, true],
    [429, true],
    [500, true],
    [404, false],
    [400, false],
  ];
  for (const [first, retried] of table) {
    const target = await startTarget(t, { '/r': firstThen(first, 200) });
    const rig = await pathRig(t, {
      target: target.url,
      retry: RETRY,
      endpoints: [{ name: 'r', url: '/r' }],
    });
    t.equal(await rig.send(0), retried, `${first}: ok after its retry, or failed`);
    t.equal(target.received.length, retried ? 2 : 1, `${first}: the server saw each attempt`);
    const s = rig.snapshot();
    t.equal(s.requests, target.received.length, `${first}: each attempt is a request`);
    t.equal(s.retries, retried ? 1 : 0, `${first}: the retries among them`);
    t.strictSame(
      s.statusCodes,
      retried ? { [first]: 1, '200': 1 } : { [first]: 1 },
      `${first}: every status the server answered`,
    );
    const total = s.totalFailed as readonly [number, number] | undefined;
    t.same(total, [retried ? 0 : 1, 1], `${first}: one logical request, its final outcome`);
  }
});

t.test(
  'a retry starts over from the first url: the server saw requests + retries + redirects',
  async (t) => {
    const target = await startTarget(t, {
      '/from': answer(302, '', { location: '/to' }),
      '/to': firstThen(503, 200),
    });
    const rig = await pathRig(t, {
      target: target.url,
      retry: RETRY,
      endpoints: [{ name: 'r', url: '/from' }],
    });
    t.equal(await rig.send(0), true);
    t.strictSame(
      target.received.map((r) => r.url),
      ['/from', '/to', '/from', '/to'],
    );
    const s = rig.snapshot();
    t.match(s, { requests: 4, retries: 1, redirects: 2 });
    t.equal(s.requests, target.received.length, 'the requests are what the server saw');
  },
);

t.test('no retry once the run is stopping: the failed attempt stands', async (t) => {
  let stopping = false;
  const target = await startTarget(t, {
    '/r': (_req, res) => {
      stopping = true;
      res.writeHead(503).end();
    },
  });
  const rig = await pathRig(
    t,
    { target: target.url, retry: RETRY, endpoints: [{ name: 'r', url: '/r' }] },
    { stopping: () => stopping },
  );
  t.equal(await rig.send(0), false);
  t.equal(target.received.length, 1);
  t.match(rig.snapshot(), {
    requests: 1,
    retries: 0,
    errors: { http_5xx: 1 },
    totalFailed: [1, 1],
  });
});

t.test('a retry carries the Authorization value current after its backoff', async (t) => {
  const values = ['Bearer one', 'Bearer two'];
  let asked = 0;
  const auth: AuthProvider = {
    authorization: () => values[Math.min(asked++, values.length - 1)],
    close: () => undefined,
  };
  const target = await startTarget(t, { '/r': firstThen(503, 200) });
  const rig = await pathRig(
    t,
    { target: target.url, retry: RETRY, endpoints: [{ name: 'r', url: '/r' }] },
    { auth },
  );
  t.equal(await rig.send(0), true);
  t.strictSame(
    target.received.map((r) => r.headers.authorization),
    ['Bearer one', 'Bearer two'],
    'the second attempt carried the renewed value',
  );
  t.equal(asked, 2, 'asked once per attempt');
  t.match(rig.snapshot(), { requests: 2, retries: 1, totalFailed: [0, 1] });
});

t.test(
  'authorizing: a value now or later is sent; NO_TOKEN sends and counts nothing',
  async (t) => {
    const table: [string, Authorization | Promise<Authorization>, string | undefined][] = [
      ['at once', 'Bearer now', 'Bearer now'],
      ['from a promise', Promise.resolve('Bearer later'), 'Bearer later'],
      ['NO_TOKEN', NO_TOKEN, undefined],
      ['NO_TOKEN from a promise', Promise.resolve(NO_TOKEN), undefined],
    ];
    for (const [name, value, sent] of table) {
      const target = await startTarget(t, { '/p': answer(200) });
      const auth: AuthProvider = { authorization: () => value, close: () => undefined };
      const rig = await pathRig(
        t,
        { target: target.url, endpoints: [{ name: 'p', url: '/p' }] },
        { auth },
      );
      t.equal(await rig.send(0), sent !== undefined, name);
      t.strictSame(
        target.received.map((r) => r.headers.authorization),
        sent === undefined ? [] : [sent],
        `${name}: what the server saw`,
      );
      const s = rig.snapshot();
      t.equal(s.requests, sent === undefined ? 0 : 1, `${name}: requests`);
      t.strictSame(s.unsent, {}, `${name}: not an unsent request either`);
    }
  },
);

t.test('a placeholder with no value: missing_variable, nothing sent, counted unsent', async (t) => {
  const target = await startTarget(t, { '/a': answer(200, '{"tok":"t1"}'), '/b': answer(200) });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [
      { name: 'a', url: '/a', extract: { tok: '$.tok' } },
      { name: 'b', url: '/b?tok={{tok}}' },
    ],
  });
  t.equal(await rig.send(1), false);
  t.equal(target.received.length, 0, 'the server saw nothing');
  const s = rig.snapshot();
  t.equal(s.requests, 0, 'not a request');
  t.equal(Object.keys(s.unsent).length, 1);
  t.match(Object.keys(s.unsent)[0], /^missing_variable: .*\btok\b.*\bb\b/);
  t.equal(Object.values(s.unsent)[0], 1);
  t.equal(await rig.send(0), true, 'the extractor fills it');
  t.equal(await rig.send(1), true);
  t.equal(target.at('/b')[0]!.url, '/b?tok=t1', 'the server saw the extracted value');
});

t.test('a stream endpoint records its Server-Sent Events', async (t) => {
  const target = await startTarget(t, {
    '/sse': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
    },
  });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [{ name: 's', url: '/sse', stream: 'sse' }],
  });
  t.equal(await rig.send(0), true);
  const s = rig.snapshot();
  t.equal(s.sseEvents, 3, 'three events');
  t.equal(s.endpoints[0]!.sseEvents, 3, 'on the endpoint too');
  t.equal(target.received[0]!.headers.accept, 'text/event-stream');
});
