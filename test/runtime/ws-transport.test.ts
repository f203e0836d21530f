// Which settings a WebSocket session's connection opens with (runtime/ws/ws-transport.ts):
// wss://host:port takes the `tls:` settings of https://host:port (the default port left out on
// both sides), cleartext ws:// none, and the proxy routes ws:// as http:// and wss:// as https://.
import t from 'tap';
import type { TlsPlan } from '../../model/plan/tls-plan.js';
import { WsTransport } from '../../runtime/ws/ws-transport.js';

const TLS: TlsPlan = {
  run: { servername: 'run' },
  origins: {
    'https://a.example': { servername: 'a' },
    'https://b.example:8443': { servername: 'b' },
  },
};
const PROXY = { origin: 'http://proxy.example:3128', authorization: undefined };

/** [url, the servername its options carry (undefined: none)] */
const TLS_CASES: readonly [string, string | undefined][] = [
  ['wss://a.example/chat', 'a'],
  ['wss://a.example:443/chat', 'a'],
  ['wss://A.Example/chat', 'a'],
  ['wss://a.example:8443/chat', 'run'],
  ['wss://b.example:8443/', 'b'],
  ['wss://b.example/', 'run'],
  ['wss://c.example/', 'run'],
  ['ws://a.example/', undefined],
];

t.test('wss://host:port takes the settings of https://host:port', async (t) => {
  const transport = new WsTransport({ insecure: false, tls: TLS, proxy: undefined, timeoutMs: 1 });
  for (const [url, servername] of TLS_CASES)
    t.equal(transport.connectOptions(url).servername, servername, url);
  t.equal(transport.connectOptions('wss://a.example/').rejectUnauthorized, true);
  t.same(transport.connectOptions('not a url'), {}, 'ws refuses it itself');
});

t.test('insecure reaches wss:// sessions without tls:', async (t) => {
  const transport = new WsTransport({
    insecure: true,
    tls: undefined,
    proxy: undefined,
    timeoutMs: 1,
  });
  t.same(transport.connectOptions('wss://a.example/'), { rejectUnauthorized: false });
  t.same(transport.connectOptions('ws://a.example/'), {});
});

t.test('the proxy opens ws:// and wss:// sessions as it opens http:// and https://', async (t) => {
  const httpsOnly = new WsTransport({
    insecure: false,
    tls: undefined,
    proxy: { http: undefined, https: PROXY, noProxy: ['direct.example'] },
    timeoutMs: 1,
  });
  const tunnelled = (url: string) => httpsOnly.connectOptions(url).createConnection !== undefined;
  t.equal(tunnelled('wss://a.example/'), true, 'wss:// through the https proxy');
  t.equal(tunnelled('ws://a.example/'), false, 'no http proxy: ws:// direct');
  t.equal(tunnelled('wss://direct.example/'), false, 'NO_PROXY applies');
});
