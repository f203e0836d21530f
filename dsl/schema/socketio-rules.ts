/**
 * Cross-field rules of a Socket.IO endpoint (docs/socketio.md): `socketio:` goes with an http or
 * https url (Socket.IO's own; the client opens its WebSocket transport itself), and its outcome
 * is its session's, so the keys of HTTP responses and of WebSocket sessions are refused beside it.
 */
import type { Config } from './config-schema.js';
import { isWebSocketEndpoint } from './endpoint-kind.js';
import type { Refinement } from './refinements.js';

type Endpoint = NonNullable<Config['endpoints']>[number];

/** Keys an endpoint with `socketio:` does not take (urlRules refuses the WebSocket ones on any http url). */
const NOT_BESIDE = [
  'expect',
  'checks',
  'checks_fail_request',
  'stream',
  'llm',
  'body',
  'query',
  'form',
  'multipart',
  'max_redirects',
] as const;

/** The issues of endpoint `i`'s `socketio:`; none for an endpoint without it. */
export function socketioRules(
  endpoint: Endpoint,
  i: number,
  target: string | undefined,
): Refinement[] {
  if (endpoint.socketio === undefined) return [];
  const out: Refinement[] = [];
  if (isWebSocketEndpoint(endpoint.url, target))
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'url'],
      expected: 'an http:// or https:// url with socketio (the client opens its WebSocket itself)',
      actual: JSON.stringify(endpoint.url),
    });
  if (!serverUrl(endpoint.url))
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'url'],
      expected:
        "the Socket.IO server's url without a path or query (the namespace is socketio.namespace, the query socketio.query)",
      actual: JSON.stringify(endpoint.url),
    });
  for (const key of NOT_BESIDE)
    if (endpoint[key] !== undefined)
      out.push({
        code: 'invalid_value',
        path: ['endpoints', i, key],
        expected: `socketio without ${key} (a Socket.IO endpoint's outcome is its session's; its handshake query is socketio.query)`,
        actual: `${key} beside socketio`,
      });
  if (endpoint.method !== 'GET')
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'method'],
      expected: 'no method on a Socket.IO endpoint',
      actual: endpoint.method,
    });
  return out;
}

/** True for a url that names a server alone: an absolute url or "/" with no path or query. */
function serverUrl(url: string): boolean {
  if (url === '' || url === '/') return true;
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && parsed.search === '' && parsed.hash === '';
  } catch {
    return false;
  }
}
