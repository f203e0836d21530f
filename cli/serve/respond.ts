/**
 * How target routes write their responses. Fixed responses are serialized once, with their
 * headers object, so the hot routes only call writeHead and end.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A response built once at startup: status, headers and body bytes. */
export interface PrebuiltResponse {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

/** Serializes `value` once as a JSON response with `status` and any further headers. */
export function prebuildJson(
  status: number,
  value: unknown,
  headers: OutgoingHttpHeaders = {},
): PrebuiltResponse {
  return prebuild(status, 'application/json', JSON.stringify(value), headers);
}

/** Builds a fixed response with `status`, content type, body and any further headers. */
export function prebuild(
  status: number,
  contentType: string,
  body: string,
  headers: OutgoingHttpHeaders = {},
): PrebuiltResponse {
  const bytes = Buffer.from(body, 'utf8');
  return {
    status,
    headers: { ...headers, 'content-type': contentType, 'content-length': bytes.length },
    body: bytes,
  };
}

/** Writes a prebuilt response. */
export function sendPrebuilt(res: ServerResponse, response: PrebuiltResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** Writes `body`, already JSON text, with `status`; headers set earlier with setHeader are kept. */
export function sendJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Writes an HTML page with `status`, never cached (pages may carry a CSRF token); headers set
 * earlier with setHeader (a Set-Cookie) are kept.
 */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
  });
  res.end(html);
}

/** Answers 302 Found to `location`, with an optional Set-Cookie, and no body. */
export function redirect(res: ServerResponse, location: string, setCookie?: string): void {
  if (setCookie !== undefined) res.setHeader('set-cookie', setCookie);
  res.writeHead(302, { location, 'content-length': 0 });
  res.end();
}

/** 413 for a request body past the 1 MiB cap. */
export const PAYLOAD_TOO_LARGE = prebuildJson(413, { error: 'payload too large' });

/** 405 for a route that only accepts POST. */
export const POST_ONLY = prebuildJson(405, { error: 'method not allowed' }, { allow: 'POST' });

/** 405 for a route that only answers GET (and HEAD). */
export const GET_ONLY = prebuildJson(405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });

/** 426 for a plain request to a WebSocket route, with the Upgrade header a client needs. */
export const UPGRADE_REQUIRED = prebuildJson(
  426,
  { error: 'a WebSocket route: connect with Upgrade: websocket' },
  { upgrade: 'websocket', connection: 'Upgrade' },
);
