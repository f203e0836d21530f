/**
 * A redirect's next hop (RFC 9110 §15.4), as browsers make it: which statuses are followed, where
 * a Location leads, and the hop's request built from the one just answered. 301/302 turn a POST
 * into a GET and 303 anything but HEAD (the body and its headers dropped); 307/308 keep method and
 * body. The jar's cookies are the hop's (a configured Cookie header goes with the first request
 * only), and Authorization goes no further than its origin.
 */
import { bodySize, type RequestOptions } from './compiled-request.js';

/** The statuses whose Location a client follows. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Where a Location header leads from `base`; undefined when it is not an http(s) url. */
export function redirectTarget(location: string, base: URL): URL | undefined {
  const next = URL.parse(location, base.href);
  return next !== null && (next.protocol === 'http:' || next.protocol === 'https:')
    ? next
    : undefined;
}

/** Fills `hop`, the next request after `from` was answered with `status`; returns its body size. */
export function fillHop(
  hop: RequestOptions,
  from: RequestOptions,
  status: number,
  origin: string,
  path: string,
  sameOrigin: boolean,
  cookie: string | undefined,
): number {
  const toGet =
    (status === 303 && from.method !== 'HEAD') ||
    ((status === 301 || status === 302) && from.method === 'POST');
  const headers: string[] = [];
  for (let i = 0; i + 1 < from.headers.length; i += 2) {
    const name = from.headers[i]!.toLowerCase();
    if (name === 'cookie' || (name === 'authorization' && !sameOrigin)) continue;
    if (toGet && (name === 'content-type' || name === 'content-length')) continue;
    headers.push(from.headers[i]!, from.headers[i + 1]!);
  }
  if (cookie !== undefined) headers.push('cookie', cookie);
  hop.body = toGet ? null : (from.body ?? null);
  hop.method = toGet ? 'GET' : from.method;
  hop.origin = origin;
  hop.path = path;
  hop.headers = headers;
  return bodySize(hop.body);
}
