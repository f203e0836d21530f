import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseHarFilter } from '../../dsl/grammar/har-filter.js';
import { parseTemplate } from '../../dsl/grammar/placeholder.js';
import { harToEndpoints, type HarOptions } from '../../dsl/har/har-to-endpoints.js';
import { parseHarText, readHarFile, type HarFile } from '../../dsl/har/read-har.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/har/', import.meta.url));

/** A fixture HAR, read as the CLI reads it. */
function fixture(name: string): HarFile {
  const read = readHarFile(`${FIXTURES}${name}`, name);
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  return read.value;
}

/** Converts with filter expressions and options. */
function convert(har: HarFile, filters: string[] = [], options: Partial<HarOptions> = {}) {
  const criteria = filters.flatMap((f) => {
    const parsed = parseHarFilter(f);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  });
  return harToEndpoints(har, {
    criteria,
    target: undefined,
    keepSecrets: false,
    asFlow: false,
    correlate: true,
    thinkScale: 1,
    takenNames: [],
    ...options,
  });
}

const SHOP = fixture('chromium-shop.har');
/** The shop's origin in the recording (its port was chosen when it was recorded). */
const SHOP_ORIGIN = new URL(SHOP.entries[0]!.request.url).origin;
/** Every recorded secret value in the Chromium fixture (see scripts/record-har-fixture.mjs). */
const SHOP_SECRETS = [
  'recorded-session-cookie',
  'recorded-bearer-token',
  'recorded-csrf-token',
  'recorded-password',
  'recorded-query-token',
];

const routes = (result: ReturnType<typeof convert>) =>
  result.endpoints.map((e) => `${e.method} ${e.url}`).sort();

t.test('a Chromium recording: the page host kept, third parties skipped and listed', async (t) => {
  const result = convert(SHOP);
  t.equal(result.target, SHOP_ORIGIN);
  t.same(result.summary.page, { origin: SHOP_ORIGIN, from: 'document' });
  t.equal(result.summary.entries, 13);
  t.equal(result.summary.kept, 11);
  t.same(
    result.summary.otherHosts.map((h) => [h.label.replace(/:\d+$/, ''), h.count]),
    [['cdn.tracker.test', 2]],
  );
  t.same(routes(result), [
    'DELETE /api/items/b2',
    'GET /',
    'GET /api/items?page=1',
    'GET /api/profile?view=full',
    'GET /static/app.js',
    'GET /static/logo.png',
    'GET /static/shop.woff2',
    'GET /static/site.css',
    'POST /api/cart',
    'POST /api/login',
  ]);
  const items = result.endpoints.find((e) => e.url === '/api/items?page=1');
  t.equal(items?.count, 2, 'two identical requests: one endpoint of weight 2');
  t.equal(items?.name, 'GET /api/items');
  const cart = result.endpoints.find((e) => e.name === 'POST /api/cart');
  t.equal(cart?.body, '{"item":"a1","quantity":2}', 'the body comes from postData');
  t.equal(cart?.headers['Content-Type'], 'application/json');
  t.equal(cart?.headers['Origin'], SHOP_ORIGIN);
  t.equal(result.endpoints.find((e) => e.name === 'POST /api/login')?.body, 'user=ada');
  t.equal(result.summary.staticKept, 4);
  t.ok(result.summary.acceptEncoding);
  t.equal(new Set(result.endpoints.map((e) => e.name)).size, result.endpoints.length);
});

t.test('secrets are dropped and named; --keep-secrets keeps them', async (t) => {
  const dropped = convert(SHOP);
  const text = JSON.stringify(dropped.endpoints);
  for (const secret of SHOP_SECRETS) t.notMatch(text, secret, `${secret} is not in the endpoints`);
  t.notMatch(
    text,
    /"(Cookie|Authorization|X-CSRF-Token|Host|Connection|Content-Length|User-Agent)"/,
  );
  t.same(dropped.summary.secrets.map((s) => s.label).sort(), [
    'body password',
    'header Authorization',
    'header Cookie',
    'header X-CSRF-Token',
    'query access_token',
  ]);
  t.equal(dropped.summary.secrets.find((s) => s.label === 'header Cookie')?.count, 10);
  t.notOk(dropped.summary.secretsKept);
  t.notMatch(JSON.stringify(dropped.summary), /recorded-/, 'the summary names, never shows');
  const kept = convert(SHOP, [], { keepSecrets: true });
  const keptText = JSON.stringify(kept.endpoints);
  for (const secret of SHOP_SECRETS) t.match(keptText, secret, `${secret} is kept`);
  t.ok(kept.summary.secretsKept);
  t.notMatch(keptText, /"(Host|Connection|Content-Length)"/, 'hop-by-hop headers go regardless');
});

t.test('each filter key, and combinations, on the Chromium recording', async (t) => {
  const table: [string[], string[]][] = [
    [['method:POST'], ['POST /api/cart', 'POST /api/login']],
    [
      ['method:DELETE|POST', '!path:/api/login'],
      ['DELETE /api/items/b2', 'POST /api/cart'],
    ],
    [['status:201'], ['POST /api/cart']],
    [['status:20x !status:200'], ['DELETE /api/items/b2', 'POST /api/cart']],
    [['type:json method:GET'], ['GET /api/items?page=1', 'GET /api/profile?view=full']],
    [['type:text/html'], ['GET /']],
    [['type:image/*|font/*'], ['GET /static/logo.png', 'GET /static/shop.woff2']],
    [['path:/static/*.css|/static/*.js'], ['GET /static/app.js', 'GET /static/site.css']],
    [
      ['!static', 'path:/api/items*'],
      ['DELETE /api/items/b2', 'GET /api/items?page=1'],
    ],
    [
      ['static !type:image/*'],
      ['GET /static/app.js', 'GET /static/shop.woff2', 'GET /static/site.css'],
    ],
  ];
  for (const [filters, expected] of table)
    t.same(routes(convert(SHOP, filters)), expected, filters.join(' / '));
  const skipped = convert(SHOP, ['!static', 'method:GET']).summary.filtered;
  t.same(skipped, [
    { label: '!static', count: 4 },
    { label: 'method:GET', count: 3 },
  ]);
});

t.test('a host criterion replaces the page-host rule: other hosts stay absolute', async (t) => {
  const tracker = convert(SHOP, ['host:cdn.tracker.test']);
  t.same(tracker.summary.otherHosts, [], 'no page-host rule with a host criterion');
  t.equal(tracker.endpoints.length, 2);
  for (const e of tracker.endpoints) t.match(e.url, /^http:\/\/cdn\.tracker\.test:\d+\//);
  t.match(tracker.endpoints.map((e) => e.name).sort(), [
    /^GET cdn\.tracker\.test:\d+\/analytics\.js$/,
    /^GET cdn\.tracker\.test:\d+\/pixel\.gif$/,
  ]);
  const both = convert(SHOP, ['host:shop.test|cdn.tracker.test', '!static']);
  t.equal(both.summary.kept, 7);
  t.equal(both.summary.filtered[0]?.count, 6);
  const none = convert(SHOP, ['host:*.example.com']);
  t.equal(none.endpoints.length, 0);
});

t.test(
  'a target elsewhere: relative urls are replayed there, Origin and Referer follow',
  async (t) => {
    const result = convert(SHOP, [], { target: 'http://127.0.0.1:9/base' });
    t.equal(result.target, 'http://127.0.0.1:9/base');
    t.same(result.summary.page, { origin: SHOP_ORIGIN, from: 'document' });
    const cart = result.endpoints.find((e) => e.name === 'POST /api/cart');
    t.equal(cart?.url, '/api/cart');
    t.equal(cart?.headers['Origin'], 'http://127.0.0.1:9');
    t.equal(cart?.headers['Referer'], 'http://127.0.0.1:9/');
  },
);

t.test("a target on a recorded host makes that host the page's", async (t) => {
  const tracker = /cdn\.tracker\.test:\d+/.exec(JSON.stringify(SHOP.entries))![0];
  const result = convert(SHOP, [], { target: `http://${tracker}` });
  t.equal(result.summary.page?.from, 'target');
  t.same(routes(result), ['GET /analytics.js', 'GET /pixel.gif']);
  t.equal(result.summary.otherHosts[0]?.count, 11);
});

t.test('as a flow: one step per kept entry in recorded order', async (t) => {
  const result = convert(SHOP, ['!static'], { asFlow: true });
  t.same(result.flowSteps, [
    'GET /',
    'GET /api/items',
    'GET /api/items',
    'POST /api/cart',
    'POST /api/login',
    'GET /api/profile',
    'DELETE /api/items/b2',
  ]);
  t.equal(result.summary.flowSteps, 7);
  t.equal(convert(SHOP).flowSteps, undefined);
});

t.test('Firefox: media type parameters, per-request trace ids, form params, escapes', async (t) => {
  const result = convert(fixture('firefox.har'));
  t.same(result.summary.page, { origin: 'https://app.example.test', from: 'document' });
  const orders = result.endpoints.find((e) => e.url === '/api/orders?status=open');
  t.equal(orders?.count, 2, 'requests that differ only by traceparent are one endpoint');
  t.notOk(orders && 'traceparent' in orders.headers);
  t.same(routes(convert(fixture('firefox.har'), ['type:json'])), [
    'GET /api/orders/17',
    'GET /api/orders?status=open',
    'GET /api/search?q=load%20test',
    'PUT /api/orders/17',
  ]);
  const put = result.endpoints.find((e) => e.method === 'PUT');
  t.equal(
    put?.headers['Referer'],
    'https://app.example.test/dashboard?tab=2',
    'the Referer loses its token',
  );
  const body = parseTemplate(typeof put?.body === 'string' ? put.body : '');
  t.same(
    body,
    {
      ok: true,
      value: ['{"note":"use {{braces}} and ${dollars} literally","owner":{"name":"ada"}}'],
    },
    '"{{" stays literal',
  );
  t.equal(
    result.endpoints.find((e) => e.method === 'POST')?.body,
    'email=ada%40example.test&remember=on',
    'form params without text',
  );
  t.equal(
    result.endpoints.find((e) => e.url.startsWith('/api/search'))?.url,
    '/api/search?q=load%20test',
  );
  t.same(result.summary.secrets.map((s) => s.label).sort(), [
    'body apiKey',
    'body password',
    'header Cookie',
    'query key',
  ]);
  t.match(JSON.stringify(result.summary.droppedHeaders), /"TE".*|"Sec-Fetch-Dest"/);
  t.notMatch(
    JSON.stringify(result.endpoints),
    /ff-(session-cookie|referer-token|body-api-key|form-password|query-api-key)/,
  );
});

t.test(
  'Chrome DevTools over HTTP/2: pseudo-headers, cache, blocked, data: and wss: entries',
  async (t) => {
    const result = convert(fixture('devtools-h2.har'));
    t.same(result.summary.unsupported.map((u) => u.label).sort(), [
      'WebSocket without recorded messages',
      'data: URL',
      'no response (blocked, cancelled or failed in the browser)',
      'served from the browser cache (never reached the server)',
    ]);
    t.same(result.summary.otherHosts, [{ label: 'fonts.cdn.test', count: 1 }]);
    const cart = result.endpoints.find((e) => e.url === '/api/cart');
    t.equal(cart?.count, 3);
    t.same(Object.keys(cart?.headers ?? {}).sort(), [
      'accept',
      'accept-encoding',
      'accept-language',
    ]);
    t.same(result.summary.droppedHeaders.find((d) => d.category === 'pseudo')?.names, [
      ':authority',
      ':method',
      ':scheme',
      ':path',
    ]);
    const products = result.endpoints.find((e) => e.url.includes('products'));
    t.same(parseTemplate(products?.url ?? ''), { ok: true, value: ['/api/products?tpl={{name}}'] });
    t.same(parseTemplate(products?.headers['x-trace'] ?? ''), {
      ok: true,
      value: ['static-{{id}}'],
    });
    t.equal(
      result.endpoints.find((e) => e.url === '/api/checkout')?.body,
      '{"cart":"c-1","payment":{"amount":42}}',
    );
    t.equal(result.summary.bodiesMissing, 1);
    t.notMatch(JSON.stringify(result.endpoints), /eyJ|devtools-(api-key|csrf|card-token)/);
  },
);

t.test('a proxy capture: no document request, CONNECT and odd methods skipped', async (t) => {
  const result = convert(fixture('proxy.har'));
  t.same(result.summary.page, { origin: 'https://api.internal.test:8443', from: 'first entry' });
  t.same(result.summary.unsupported.map((u) => u.label).sort(), [
    "CONNECT tunnel (a proxy's, not the application's)",
    'method not supported',
  ]);
  t.same(routes(result), ['GET /v1/health', 'POST /v1/events']);
  t.equal(
    result.endpoints.find((e) => e.method === 'POST')?.count,
    2,
    'x-request-id differs, still one',
  );
  t.same(
    routes(convert(fixture('proxy.har'), ['type:json method:POST'])),
    ['POST /v1/events'],
    'type from the header',
  );
  t.same(routes(convert(fixture('proxy.har'), ['host:*.internal.test'])).length, 3);
});

t.test('names are unique against the configuration and each other', async (t) => {
  const entries = ['/a?x=1', '/a?x=2', '/a?x=3'].map((path) => ({
    request: { method: 'GET', url: `http://h.test${path}`, headers: [] },
    response: { status: 200, headers: [] },
  }));
  const long = `/${'segment/'.repeat(12)}end`;
  entries.push({
    request: { method: 'GET', url: `http://h.test${long}`, headers: [] },
    response: { status: 200, headers: [] },
  });
  const har = parseHarText('n.har', JSON.stringify({ log: { entries } }));
  if (!har.ok) throw new Error('fixture');
  const result = convert(har.value, [], { takenNames: ['GET /a #2'] });
  t.same(
    result.endpoints.map((e) => e.name),
    ['GET /a', 'GET /a #3', 'GET /a #4', `GET ${long.slice(0, 59)}…`],
  );
});

t.test('an empty recording keeps nothing', async (t) => {
  const har = parseHarText('e.har', '{"log":{"entries":[]}}');
  if (!har.ok) throw new Error('fixture');
  const result = convert(har.value);
  t.equal(result.endpoints.length, 0);
  t.equal(result.summary.page, undefined);
});

t.test(
  'WebSocket: mitmproxy handshakes, binary frames, pauses, subprotocols, step limit',
  async (t) => {
    const frames = Array.from({ length: 120 }, (_, i) => ({
      type: i % 2 === 0 ? 'send' : 'receive',
      time: 1000 + i * 0.001,
      opcode: 1,
      data: `m${i}`,
    }));
    const parsed = parseHarText(
      'ws.har',
      JSON.stringify({
        log: {
          entries: [
            {
              request: {
                method: 'GET',
                url: 'https://rt.test/socket?room=1',
                headers: [
                  { name: 'Upgrade', value: 'websocket' },
                  { name: 'Sec-WebSocket-Protocol', value: 'v2.json, v1.json' },
                ],
              },
              response: { status: 101 },
              _webSocketMessages: [
                { type: 'send', time: 10, opcode: 2, data: 'AAE' },
                { type: 'receive', time: 10.5, opcode: 10, data: '' },
                { type: 'receive', time: 12.04, opcode: 1, data: 'ok' },
                { type: 'receive', time: 12.06, opcode: 1, data: 'ok' },
                { type: 'bogus', time: 12.1, opcode: 1, data: 'x' },
                'not a frame',
              ],
            },
            {
              request: { method: 'GET', url: 'https://rt.test/feed', headers: [] },
              response: { status: 101 },
              _webSocketMessages: frames,
            },
          ],
        },
      }),
    );
    t.ok(parsed.ok);
    if (!parsed.ok) return;
    const result = convert(parsed.value, [], { asFlow: true, thinkScale: 0.5 });
    const [socket, feed] = result.endpoints;
    t.equal(socket?.url, 'wss://rt.test/socket?room=1', 'https with a 101 replays on wss');
    t.equal(socket?.name, 'WS /socket');
    t.same(socket?.webSocket, {
      session: [
        { send: { binary: 'base64:AAE=' } },
        { pause: '1.02s' },
        { receive: 'any' },
        { receive: 'any' },
      ],
      subprotocols: ['v2.json', 'v1.json'],
      dropped: 0,
    });
    t.equal(feed?.webSocket?.session.length, 100, 'at most 100 steps');
    t.equal(feed?.webSocket?.dropped, 20);
    t.same(result.summary.webSockets, { endpoints: 2, framesDropped: 20 });
    t.same(result.flowSteps, ['WS /socket', 'WS /feed']);
    t.same(result.summary.unsupported, []);
  },
);
