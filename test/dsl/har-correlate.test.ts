/**
 * Correlation, think times and the import fixes of issue 29, each on a minimal recording, and the
 * dynamic values found and correlated on every committed real recording.
 */
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { harToEndpoints, type HarOptions } from '../../dsl/har/har-to-endpoints.js';
import { parseHarText, readHarFile, type HarFile } from '../../dsl/har/read-har.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/har/', import.meta.url));

function fixture(name: string): HarFile {
  const read = readHarFile(`${FIXTURES}${name}`, name);
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  return read.value;
}

/** A HAR text from entries. */
function harOf(entries: unknown[]): HarFile {
  const parsed = parseHarText('t.har', JSON.stringify({ log: { entries } }));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

function convert(har: HarFile, options: Partial<HarOptions> = {}) {
  return harToEndpoints(har, {
    criteria: [],
    target: undefined,
    keepSecrets: false,
    asFlow: true,
    correlate: true,
    thinkScale: 1,
    takenNames: [],
    ...options,
  });
}

interface EntryOptions {
  readonly method?: string;
  readonly headers?: { name: string; value: string }[];
  readonly body?: { mimeType: string; text: string };
  readonly status?: number;
  readonly responseHeaders?: { name: string; value: string }[];
  readonly json?: unknown;
  readonly html?: string;
  readonly at?: number;
}

/** One entry; `at` is its start in seconds from 10:00:00 (each takes 100 ms). */
function entry(url: string, o: EntryOptions = {}) {
  const text = o.json === undefined ? o.html : JSON.stringify(o.json);
  const mimeType = o.json === undefined ? 'text/html' : 'application/json';
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 10, 0, 0) + (o.at ?? 0) * 1000).toISOString(),
    time: 100,
    request: {
      method: o.method ?? 'GET',
      url,
      headers: o.headers ?? [],
      ...(o.body === undefined ? {} : { postData: o.body }),
    },
    response: {
      status: o.status ?? 200,
      headers: o.responseHeaders ?? [],
      content: { mimeType, ...(text === undefined ? {} : { text }) },
    },
  };
}

t.test('dynamic values found and correlated on the committed recordings', async (t) => {
  const expected: Record<string, [number, number]> = {
    'chromium-shop.har': [0, 0],
    'firefox.har': [0, 0],
    'devtools-h2.har': [0, 0],
    'proxy.har': [0, 0],
    'chromium-checkout.har': [3, 3],
  };
  for (const [name, [found, correlated]] of Object.entries(expected)) {
    const { summary } = convert(fixture(name));
    t.equal(summary.dynamic.length, found, `${name}: found`);
    t.equal(summary.dynamic.filter((d) => d.correlated).length, correlated, `${name}: correlated`);
  }
  const checkout = convert(fixture('chromium-checkout.har'));
  t.same(
    checkout.summary.dynamic.map((d) => [d.name, d.where, d.uses]),
    [
      ['_csrf', 'HTML input[name="_csrf"]', 1],
      ['_csrf_2', 'HTML input[name="_csrf"]', 2],
      ['orderId', 'JSON $.orderId', 1],
    ],
  );
  t.same(checkout.summary.credentials, ['PASSWORD']);
  const off = convert(fixture('chromium-checkout.har'), { correlate: false });
  t.same(off.summary.dynamic, [], '--no-correlate');
  t.match(JSON.stringify(off.endpoints), /ord_[0-9a-f]{16}/, 'the recorded id is sent again');
  const mix = convert(fixture('chromium-checkout.har'), { asFlow: false });
  t.same(mix.summary.dynamic, [], 'weighted endpoints are not correlated: no order to rely on');
});

t.test('the most specific extractor; the latest response; what the client made up', async (t) => {
  const result = convert(
    harOf([
      entry('https://shop.test/', { html: '<meta name="csrf-token" content="tok-first-1">' }),
      entry('https://shop.test/', { html: '<meta name="csrf-token" content="tok-latest-2">' }),
      entry('https://shop.test/api/search?q=blue%20shirt', {
        headers: [{ name: 'X-CSRF-Token', value: 'tok-latest-2' }],
        json: { results: [{ sku: 'SKU-4411' }], query: 'blue shirt', total: 12345 },
      }),
      entry('https://shop.test/api/carts', {
        method: 'POST',
        status: 201,
        responseHeaders: [{ name: 'Location', value: '/api/carts/c-777' }],
        body: { mimeType: 'application/json', text: '{"sku":"SKU-4411","count":12345}' },
      }),
      entry('https://shop.test/api/carts/c-777', {
        headers: [{ name: 'X-Cart', value: '/api/carts/c-777' }],
      }),
      entry('https://shop.test/api/search?q=blue%20shirt'),
    ]),
  );
  const [home, search, carts, cart] = result.endpoints;
  t.equal(result.endpoints.length, 5, 'the two pages are one endpoint');
  t.same(home?.extract, { csrf_token: { css: 'meta[name="csrf-token"]', attr: 'content' } });
  t.equal(search?.headers['X-CSRF-Token'], '{{csrf_token}}', 'the latest token, by its extractor');
  t.equal(search?.url, '/api/search?q=blue%20shirt', 'the query the user typed stays as typed');
  t.same(search?.extract, { sku: '$.results[0].sku', total: '$.total' });
  t.same(carts?.body, { json: { sku: '{{sku}}', count: '{{total}}' } }, 'a number stays typed');
  t.same(carts?.extract, { location: { header: 'Location' } });
  t.equal(cart?.headers['X-Cart'], '{{location}}');
  t.equal(cart?.url, '/api/carts/c-777', 'a path segment is not a whole Location');
});

t.test('a cookie value echoed in a header is found, not correlated, and dropped', async (t) => {
  const result = convert(
    harOf([
      entry('https://shop.test/', {
        html: '<p>hi</p>',
        responseHeaders: [{ name: 'Set-Cookie', value: 'XSRF-TOKEN=xsrf-cookie-9; Path=/' }],
      }),
      entry('https://shop.test/api/x', {
        method: 'POST',
        headers: [{ name: 'X-Echo', value: 'xsrf-cookie-9' }],
        body: { mimeType: 'application/json', text: '{"visitor":"xsrf-cookie-9","n":1}' },
      }),
    ]),
  );
  t.same(result.summary.dynamic, [
    { name: 'XSRF_TOKEN', from: 0, where: 'cookie XSRF-TOKEN', uses: 1, correlated: false },
  ]);
  const post = result.endpoints[1];
  t.same(post?.headers, { 'Content-Type': 'application/json' });
  t.equal(post?.body, '{"n":1}');
  t.match(result.summary.secrets, [
    { label: "header X-Echo (a secret's value)" },
    { label: "body visitor (a secret's value)" },
  ]);
});

t.test('think times from the recorded pauses, scaled or off', async (t) => {
  const har = harOf([
    entry('https://shop.test/', { at: 0 }),
    entry('https://shop.test/a.css', { at: 0.2 }),
    entry('https://shop.test/cart', { at: 3.1 }),
    entry('https://shop.test/', { at: 4 }),
    entry('https://shop.test/done', { at: 9.1 }),
  ]);
  const thinks = (o: Partial<HarOptions>) =>
    convert(har, o).endpoints.map((e) => [e.name, e.think]);
  t.same(thinks({}), [
    ['GET /', '5s'],
    ['GET /a.css', '2.8s'],
    ['GET /cart', undefined],
    ['GET /done', undefined],
  ]);
  t.same(thinks({ thinkScale: 0.5 })[1], ['GET /a.css', '1.4s']);
  t.same(
    thinks({ thinkScale: 0 }).map(([, think]) => think),
    [undefined, undefined, undefined, undefined],
  );
  const mix = convert(har, { asFlow: false });
  t.same(
    mix.endpoints.map((e) => e.think),
    [undefined, undefined, undefined, undefined],
    'weighted endpoints: no pauses',
  );
});

t.test('fixes: scheme, port, WebSocket upgrades, status -1, malformed entries', async (t) => {
  const parsed = parseHarText(
    't.har',
    JSON.stringify({
      log: {
        entries: [
          entry('http://shop.test/'),
          entry('https://shop.test/api/secure'),
          entry('http://shop.test:8443/api/other-port'),
          {
            ...entry('https://shop.test/live'),
            request: {
              method: 'GET',
              url: 'https://shop.test/live',
              headers: [{ name: 'Upgrade', value: 'websocket' }],
            },
            response: { status: 101, headers: [] },
          },
          entry('https://shop.test/ws', { status: 101 }),
          entry('http://shop.test/aborted', { status: -1 }),
          {
            request: {
              method: 'POST',
              url: 'https://tracker.test/collect',
              postData: { params: [{ name: 'x', value: { nested: 1 } }] },
            },
            response: { status: 200 },
          },
        ],
      },
    }),
  );
  t.ok(parsed.ok, 'one malformed entry does not refuse the file');
  if (!parsed.ok) return;
  const result = convert(parsed.value, { target: 'http://staging.test:9000' });
  t.same(
    result.endpoints.map((e) => e.url),
    ['/', '/api/secure'],
    'https on the page host is rebased onto the target',
  );
  t.same(
    result.summary.otherHosts,
    [{ label: 'shop.test:8443', count: 1 }],
    'another port is another host',
  );
  t.same(result.summary.unsupported, [
    { label: 'WebSocket without recorded messages', count: 2 },
    { label: 'no response (blocked, cancelled or failed in the browser)', count: 1 },
    {
      label: 'malformed entry (request.postData.params[].value: expected text (form field value))',
      count: 1,
    },
  ]);
});
