/**
 * Which recorded request headers a replay sends. A browser's headers describe its connection and
 * its context; barrage opens its own connections and is not a browser, so some are dropped, each
 * with a reason the summary shows:
 *
 * | Category    | Headers                                                        | Why                      |
 * |-------------|----------------------------------------------------------------|--------------------------|
 * | connection  | Host, Connection, Keep-Alive, Proxy-Connection, Transfer-      | hop-by-hop: barrage sets |
 * |             | Encoding, TE, Trailer, Upgrade, Content-Length, Expect,        | them per request         |
 * |             | Sec-WebSocket-* (a handshake's key, version, extensions and    |                          |
 * |             | protocols: subprotocols go to the endpoint's `subprotocols`)   |                          |
 * | pseudo      | :authority, :method, :path, :scheme (HTTP/2 and HTTP/3)        | not headers on the wire  |
 * | browser     | Sec-Fetch-*, Sec-CH-*, Sec-GPC, Upgrade-Insecure-Requests,     | the browser's own        |
 * |             | Purpose, Sec-Purpose, Priority                                 | context                  |
 * | user-agent  | User-Agent                                                     | barrage sends its own    |
 * | trace       | traceparent, tracestate, baggage, sentry-trace, b3, X-B3-*,    | one recorded id on every |
 * |             | X-Request-Id, X-Correlation-Id, X-Amzn-Trace-Id,               | request would merge      |
 * |             | X-Cloud-Trace-Context                                          | unrelated traces         |
 * | secret      | Cookie, Authorization, token-like names, credential values     | unless --keep-secrets    |
 * | invalid     | names that are not HTTP tokens                                 | cannot be sent           |
 *
 * Accept-Encoding is kept: the server compresses as it does for the browser, so its compression
 * work and the real transfer sizes are what the load measures (bodies are decoded for extractors
 * and checks; the bytes counted are the wire's).
 */
import { isCredentialValue, isHarSecretName } from './har-secrets.js';

/** Why a header is not replayed. */
export type DroppedHeaderCategory =
  'connection' | 'pseudo' | 'browser' | 'user-agent' | 'trace' | 'secret' | 'invalid';

const CONNECTION = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
]);
const BROWSER = new Set([
  'sec-gpc',
  'upgrade-insecure-requests',
  'purpose',
  'sec-purpose',
  'priority',
]);
const TRACE = new Set([
  'traceparent',
  'tracestate',
  'baggage',
  'sentry-trace',
  'b3',
  'x-request-id',
  'x-correlation-id',
  'x-amzn-trace-id',
  'x-cloud-trace-context',
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The category a recorded header is dropped for (secrets: unless kept), or undefined to replay it. */
export function dropReason(name: string, value: string): DroppedHeaderCategory | undefined {
  const lower = name.toLowerCase();
  if (lower.startsWith(':')) return 'pseudo';
  if (!TOKEN.test(name)) return 'invalid';
  if (CONNECTION.has(lower) || lower.startsWith('sec-websocket-')) return 'connection';
  if (BROWSER.has(lower) || lower.startsWith('sec-fetch-') || lower.startsWith('sec-ch-'))
    return 'browser';
  if (lower === 'user-agent') return 'user-agent';
  if (TRACE.has(lower) || lower.startsWith('x-b3-')) return 'trace';
  if (isHarSecretName(name) || isCredentialValue(value)) return 'secret';
  return undefined;
}
