// YAML control flow (runtime/worker/flow-walk.ts, the request path's reauth) in process against
// real local targets that count what they saw: a cursor pagination reads each page once and
// stops at the end; a list walked with loop over; if/else by the server's answer; a random pick
// from an extracted list, seeded; refresh on 401 against tokens that die after a few uses.
import t from 'tap';
import { seededRandom } from '../../model/random.js';
import { NO_INTENDED_TIME } from '../../runtime/schedule/permit-source.js';
import { IterationRunner } from '../../runtime/worker/iteration.js';
import { answer, pathRig, startTarget, type PathRig } from '../helpers/engine-rig.js';

function runnerOf(rig: PathRig): IterationRunner {
  return new IterationRunner({
    graph: { ...rig.plan.graph, picks: rig.plan.scenarios[0]!.picks },
    requests: rig.requests,
    recorder: rig.recorder,
    path: rig.path,
    feeder: undefined,
    feederPer: 'iteration',
    onFeederExhausted: () => undefined,
    ws: undefined,
    picks: seededRandom(1),
    now: rig.now,
  });
}

async function iterate(runner: IterationRunner, rig: PathRig, times = 1): Promise<void> {
  for (let i = 0; i < times; i++)
    await new Promise<void>((resolve, reject) =>
      runner.run(rig.vu, NO_INTENDED_TIME, { ended: resolve, failed: reject }),
    );
}

/** Four pages linked by cursors; the last has no `next`. */
const PAGES: Record<string, { items: number[]; next?: string }> = {
  '': { items: [1, 2], next: 'c2' },
  c2: { items: [3, 4], next: 'c3' },
  c3: { items: [5, 6], next: 'c4' },
  c4: { items: [7] },
};

function pagesRoute(): Parameters<typeof startTarget>[1] {
  return {
    '/items': (req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor') ?? '';
      const page = PAGES[cursor];
      if (page === undefined) res.writeHead(400).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    },
  };
}

t.test('a cursor pagination reads each page once and stops at the end', async (t) => {
  const target = await startTarget(t, pagesRoute());
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [
      { name: 'first', url: '/items', extract: { cursor: '$.next' } },
      { name: 'next', url: '/items?cursor={{cursor}}', extract: { cursor: '$.next' } },
    ],
    flows: [
      {
        name: 'walk',
        steps: [
          'first',
          { loop: { while: { json: '$.next', exists: true }, max: 50, steps: ['next'] } },
        ],
      },
    ],
  });
  await iterate(runnerOf(rig), rig, 3);
  const urls = target.received.map((r) => r.url);
  t.equal(urls.length, 12, 'three walks of four pages');
  for (const url of ['/items', '/items?cursor=c2', '/items?cursor=c3', '/items?cursor=c4'])
    t.equal(urls.filter((u) => u === url).length, 3, `${url}: once a walk`);
  t.strictSame(urls.slice(0, 4), [
    '/items',
    '/items?cursor=c2',
    '/items?cursor=c3',
    '/items?cursor=c4',
  ]);
  t.match(rig.snapshot(), { iterations: 3, requests: 12, successes: 12 });
});

t.test('loop over a list an extractor stored whole, with count and a bound', async (t) => {
  const target = await startTarget(t, {
    ...pagesRoute(),
    '/item': answer(200),
    '/ping': answer(200),
  });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [
      { name: 'list', url: '/items', extract: { ids: { json: '$.items[*]', pick: 'all' } } },
      { name: 'item', url: '/item?id={{id}}' },
      { name: 'ping', url: '/ping' },
    ],
    flows: [
      {
        name: 'f',
        steps: [
          'list',
          { loop: { over: 'ids', as: 'id', steps: ['item'] } },
          { loop: { count: 3, steps: ['ping'] } },
          { loop: { over: 'ids', as: 'id', max: 1, steps: ['ping'] } },
        ],
      },
    ],
  });
  await iterate(runnerOf(rig), rig);
  t.strictSame(
    target.at('/item').map((r) => r.url),
    ['/item?id=1', '/item?id=2'],
    'each item of the list, in order',
  );
  t.equal(target.at('/ping').length, 4, 'count: 3, then an over loop held to max: 1');
});

t.test('if and else: each branch taken as the condition says, by server counts', async (t) => {
  const target = await startTarget(t, {
    '/me': (_req, res, n) =>
      res
        .writeHead(n % 3 === 0 ? 403 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ role: n % 2 === 0 ? 'admin' : 'user' })),
    '/admin': answer(200),
    '/user': answer(200),
    '/denied': answer(200),
  });
  const rig = await pathRig(t, {
    target: target.url,
    expect: { status: [200, 403] },
    endpoints: [
      { name: 'me', url: '/me', extract: { role: '$.role' } },
      { name: 'admin', url: '/admin' },
      { name: 'user', url: '/user' },
      { name: 'denied', url: '/denied' },
    ],
    flows: [
      {
        name: 'f',
        steps: [
          'me',
          {
            if: { any: [{ status: 403 }, { not: { var: 'role', matches: '^(admin|user)$' } }] },
            steps: ['denied'],
            else: [{ if: { var: 'role', equals: 'admin' }, steps: ['admin'], else: ['user'] }],
          },
        ],
      },
    ],
  });
  await iterate(runnerOf(rig), rig, 12);
  // n = 0..11: 403 when n % 3 === 0 (0, 3, 6, 9); else admin for even n (2, 4, 8, 10), user for odd (1, 5, 7, 11).
  t.equal(target.at('/denied').length, 4, '403: the first branch');
  t.equal(target.at('/admin').length, 4, 'else, admin');
  t.equal(target.at('/user').length, 4, 'else, user');
  t.equal(target.received.length, 24, 'one branch per iteration');
});

t.test('a random pick from an extracted list follows the seed', async (t) => {
  const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
  // The rig's user draws from seededRandom(1), as a run's users draw from the run's seed.
  const picks = async (): Promise<string[]> => {
    const target = await startTarget(t, {
      '/products': answer(200, JSON.stringify({ items: ids.map((id) => ({ id })) }), {
        'content-type': 'application/json',
      }),
      '/product': answer(200),
    });
    const rig = await pathRig(t, {
      target: target.url,
      endpoints: [
        {
          name: 'list',
          url: '/products',
          extract: {
            id: { json: '$.items[*].id', pick: 'random' },
            all: { json: '$.items[*].id', pick: 'all' },
          },
        },
        { name: 'one', url: '/product?id={{id}}&other={{$randomItem all}}&s={{$randomString 8}}' },
      ],
      flows: [{ name: 'f', steps: ['list', 'one'] }],
    });
    await iterate(runnerOf(rig), rig, 200);
    return target.at('/product').map((r) => r.url);
  };
  const first = await picks();
  const chosen = first.map((u) => new URL(u, 'http://x').searchParams);
  const counts = new Map<string, number>();
  for (const q of chosen) counts.set(q.get('id')!, (counts.get(q.get('id')!) ?? 0) + 1);
  t.strictSame([...counts.keys()].sort(), ids, 'every id picked at some point');
  t.ok(
    Math.max(...counts.values()) < 60,
    `no id took most picks: ${[...counts.values()].join(', ')}`,
  );
  t.ok(
    chosen.every((q) => ids.includes(q.get('other')!)),
    '$randomItem drew from the list',
  );
  t.ok(
    chosen.every((q) => /^[A-Za-z0-9]{8}$/.test(q.get('s')!)),
    '$randomString 8',
  );
  t.strictSame(await picks(), first, 'the same seed, the same picks');
});

/** A target whose tokens die after `uses` uses; it counts refreshes and 401s. */
async function tokenTarget(
  t: Parameters<typeof startTarget>[0],
  uses: number,
  deadOnIssue = false,
): Promise<{ target: Awaited<ReturnType<typeof startTarget>>; counts: Record<string, number> }> {
  const left = new Map<string, number>();
  const counts = { refreshes: 0, unauthorized: 0, ok: 0 };
  let issued = 0;
  const target = await startTarget(t, {
    '/login': (_req, res) => {
      const token = `t${issued++}`;
      left.set(token, uses);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
    },
    '/refresh': (_req, res) => {
      counts.refreshes++;
      const token = `t${issued++}`;
      left.set(token, deadOnIssue ? 0 : uses);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
    },
    '/data': (req, res) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const remaining = left.get(token) ?? 0;
      if (remaining <= 0) {
        counts.unauthorized++;
        res.writeHead(401).end();
        return;
      }
      left.set(token, remaining - 1);
      counts.ok++;
      res.writeHead(200).end('ok');
    },
  });
  return { target, counts };
}

const REAUTH_CONFIG = {
  endpoints: [
    { name: 'login', method: 'POST', url: '/login', extract: { token: '$.token' } },
    { name: 'refresh', method: 'POST', url: '/refresh', extract: { token: '$.token' } },
    {
      name: 'data',
      url: '/data',
      headers: { Authorization: 'Bearer {{token}}' },
      reauth: { on: [401], run: 'refresh' },
    },
  ],
  flows: [{ name: 'f', steps: ['login', { loop: { count: 10, steps: ['data'] } }] }],
};

t.test('refresh on 401: every 401 retried once after one refresh', async (t) => {
  const { target, counts } = await tokenTarget(t, 3);
  const rig = await pathRig(t, { target: target.url, ...REAUTH_CONFIG });
  await iterate(runnerOf(rig), rig, 2);
  // Per iteration: a fresh login token serves 3 calls, then each refresh's token 3 more: 10 calls
  // need 3 refreshes, each after one 401.
  t.strictSame(counts, { refreshes: 6, unauthorized: 6, ok: 20 }, 'what the server saw');
  const data = rig.snapshot().endpoints[2]!;
  t.equal(data.requests, 26, 'each attempt is a request: 20 answered, 6 refused');
  t.equal(data.statusCodes['401'], 6);
  t.strictSame(data.totalFailed, [0, 20], 'no request the user asked for failed');
  t.equal(rig.snapshot().retries, 6, 'each 401 retried once');
  const urls = target.received.map((r) => r.url);
  urls.forEach((url, i) => {
    if (url !== '/refresh') return;
    t.strictSame(
      [target.received[i - 1]!.url, urls[i + 1]],
      ['/data', '/data'],
      'a refresh comes between the refused call and its retry',
    );
  });
  t.equal(rig.snapshot().endpoints[1]!.requests, 6, 'the refresh endpoint: one request per 401');
});

t.test('a second 401 after the refresh is the request failure, not retried again', async (t) => {
  const { target, counts } = await tokenTarget(t, 1, true);
  const rig = await pathRig(t, {
    target: target.url,
    ...REAUTH_CONFIG,
    flows: [{ name: 'f', steps: ['login', 'data', 'data'] }],
  });
  await iterate(runnerOf(rig), rig);
  t.strictSame(counts, { refreshes: 1, unauthorized: 2, ok: 1 }, 'one refresh, one retry, no more');
  const data = rig.snapshot().endpoints[2]!;
  t.strictSame(data.totalFailed, [1, 2], 'the second call failed after its one retry');
  t.equal(data.requests, 3);
});

t.test("loop over a list of objects: each item's fields as item.field", async (t) => {
  const rows = [
    { path: 'a', code: 200 },
    { path: 'b', code: 204 },
  ];
  const target = await startTarget(t, {
    '/rows': answer(200, JSON.stringify(rows), { 'content-type': 'application/json' }),
    '/a': answer(200),
    '/b': answer(204),
  });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [
      { name: 'rows', url: '/rows', extract: { rows: { json: '$[*]', pick: 'all' } } },
      {
        name: 'get',
        url: '/{{row.path}}',
        checks: [{ name: 'code', status: [200, 204] }],
        headers: { 'x-want': '{{row.code}}' },
      },
    ],
    flows: [{ name: 'f', steps: ['rows', { loop: { over: 'rows', as: 'row', steps: ['get'] } }] }],
  });
  await iterate(runnerOf(rig), rig);
  t.strictSame(
    target.received.slice(1).map((r) => [r.url, r.headers['x-want']]),
    [
      ['/a', '200'],
      ['/b', '204'],
    ],
  );
});
