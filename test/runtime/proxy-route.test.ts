// NO_PROXY matching as curl reads it (runtime/http/proxy-route.ts), and which proxy a scheme uses.
import t from 'tap';
import { ProxyRoutes } from '../../runtime/http/proxy-route.js';
import { noProxyEntries, parseProxyUrl } from '../../dsl/schema/proxy-schema.js';

const HTTP = { origin: 'http://proxy.example:3128', authorization: undefined };
const HTTPS = { origin: 'http://secure-proxy.example:3128', authorization: undefined };

/** [NO_PROXY, origin, proxied?] */
const CASES: readonly [string, string, boolean][] = [
  ['', 'https://api.example.com/', true],
  ['*', 'https://api.example.com/', false],
  ['example.com', 'https://example.com/', false],
  ['example.com', 'https://api.example.com/', false],
  ['.example.com', 'https://api.example.com/', false],
  ['.example.com', 'https://example.com/', false],
  ['example.com', 'https://notexample.com/', true],
  ['EXAMPLE.com', 'https://Api.Example.COM./', false],
  ['example.com:8443', 'https://example.com:8443/', false],
  ['example.com:8443', 'https://example.com/', true],
  ['example.com:443', 'https://example.com/', false],
  ['localhost, 127.0.0.1', 'http://127.0.0.1:8080/', false],
  ['127.0.0.1', 'http://127.0.0.2/', true],
  ['10.0.0.0/8', 'http://10.1.2.3/', false],
  ['10.0.0.0/8', 'http://11.1.2.3/', true],
  ['10.0.0.0/8', 'http://ten.example/', true],
  ['::1', 'http://[::1]:8080/', false],
  ['[::1]:8080', 'http://[::1]:8080/', false],
  ['[::1]:8080', 'http://[::1]:9090/', true],
  ['fd00::/8', 'https://[fd12::1]/', false],
  ['other.example api.example.com', 'https://api.example.com/', false],
];

t.test('NO_PROXY entries as curl matches them', async (t) => {
  for (const [noProxy, origin, proxied] of CASES) {
    const routes = new ProxyRoutes({ http: HTTP, https: HTTPS, noProxy: noProxyEntries(noProxy) });
    const url = new URL(origin);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const server = routes.serverFor(url.protocol, url.hostname, port);
    t.equal(server !== undefined, proxied, `NO_PROXY=${JSON.stringify(noProxy)} ${origin}`);
  }
});

t.test('each scheme has its proxy; a missing one means direct', async (t) => {
  const both = new ProxyRoutes({ http: HTTP, https: HTTPS, noProxy: [] });
  t.equal(both.serverFor('https:', 'a.example', 443), HTTPS);
  t.equal(both.serverFor('wss:', 'a.example', 443), HTTPS);
  t.equal(both.serverFor('http:', 'a.example', 80), HTTP);
  const httpsOnly = new ProxyRoutes({ http: undefined, https: HTTPS, noProxy: [] });
  t.equal(httpsOnly.serverFor('http:', 'a.example', 80), undefined);
});

t.test('proxy URLs: scheme, credentials, refusals that never quote the text', async (t) => {
  t.same(parseProxyUrl('proxy.example:3128'), {
    ok: true,
    value: { origin: 'http://proxy.example:3128', authorization: undefined },
  });
  t.same(parseProxyUrl('http://u%40x:p%3Aw@proxy.example'), {
    ok: true,
    value: {
      origin: 'http://proxy.example:80',
      authorization: `Basic ${Buffer.from('u@x:p:w').toString('base64')}`,
    },
  });
  t.same(parseProxyUrl('http://u%zz:pw@p.example'), {
    ok: false,
    error: 'a URL whose user info holds a malformed %-escape',
  });
  for (const bad of ['https://p.example', 'socks5://u:pw@p.example', 'http://p.example/x', '::']) {
    const parsed = parseProxyUrl(bad);
    t.equal(parsed.ok, false, bad);
    if (!parsed.ok) t.notMatch(parsed.error, 'pw', 'the error does not quote the URL');
  }
});
