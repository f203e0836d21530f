/**
 * The API's `http`: calls through the host's request path (runtime/script/script-ops.ts), their
 * arguments as JSON text (request-args.ts), their results as responses (response.ts); http.batch()
 * and the virtual user's cookie jar.
 */
import type { CookieAttributes } from './host-calls.js';
import { textOf } from './intrinsics.js';
import { batchArgs, requestArgs } from './request-args.js';
import type { ResponseValues } from './records.js';
import { response, type Response } from './response.js';
import { URL } from './url.js';
import { MAX_WAITING_CALLS } from '../waiting-calls.js';
import { hostCall, room, settled, wait } from './vu-host.js';

const requested = async (method: string, url: unknown, body: unknown, opts: unknown) => {
  const bytes: ArrayBuffer[] = [];
  const json = requestArgs(method, url, body, opts, bytes);
  return settled(await wait('http', json, bytes));
};

/** Statuses that succeed by default (docs/scenarios.md, Checks), and a digest challenge's 401. */
const CHALLENGE_STATUSES: readonly (string | number)[] = ['1xx', '2xx', '3xx', 401];

/**
 * A call with `auth: 'digest'` (k6's): the user and password come from the url, which is sent
 * without them; a 401 with a Digest challenge (expected, so not a failure) is answered once with
 * the Authorization header the host computes (runtime/script/digest-auth.ts). Both are requests.
 */
const digested = async (method: string, url: unknown, body: unknown, opts: DigestOptions) => {
  const target = new URL(textOf(url));
  const username = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  target.username = '';
  target.password = '';
  const { auth: _auth, ...rest } = opts;
  const own = rest.expect?.status;
  const statuses = own === undefined ? CHALLENGE_STATUSES : [...[own].flat(), 401];
  const first = (await requested(method, target.href, body, {
    ...rest,
    expect: { status: statuses },
  })) as Response;
  const challenge = first.status === 401 ? first.headers['www-authenticate'] : undefined;
  if (challenge === undefined || !/^digest\s/i.test(challenge)) return first;
  const uri = target.pathname + target.search;
  const authorization = hostCall('digest', [challenge, username, password, method, uri]);
  const headers = { ...rest.headers, Authorization: textOf(authorization) };
  return requested(method, target.href, body, { ...rest, headers });
};

/** A call's options as a digest call reads them. */
interface DigestOptions {
  readonly auth?: unknown;
  readonly expect?: { readonly status?: unknown };
  readonly headers?: Readonly<Record<string, unknown>>;
}

const request = (method: string, url: unknown, body: unknown, opts: unknown) => {
  room('http');
  const o = opts as DigestOptions | null | undefined;
  if (o?.auth === undefined) return requested(method, url, body, opts);
  if (o.auth !== 'digest')
    throw new TypeError(
      `${method} ${textOf(url)}: auth is 'digest' (for basic, send an Authorization header)`,
    );
  return digested(method, url, body, o);
};

// http.batch(): one host call carrying every request's arguments, one JSON text a line (JSON text
// holds no raw line break), so that the host keys each by the text a single call would send; it
// settles with each response's values (records.ts's ResponseValues), in order. The bytes of every request are one list, which their texts name by place.
const batched = async (json: string, bytes: readonly ArrayBuffer[]) =>
  (settled(await wait('http.batch', json, bytes)) as ResponseValues[]).map(response);

const batch = (requests: unknown) => {
  if (!Array.isArray(requests)) throw new TypeError('http.batch(): an array of requests');
  if (requests.length > MAX_WAITING_CALLS)
    throw new RangeError(
      `http.batch(): at most ${MAX_WAITING_CALLS} requests, got ${requests.length}`,
    );
  room('http');
  const bytes: ArrayBuffer[] = [];
  return batched(requests.map((entry) => batchArgs(entry, bytes)).join('\n'), bytes);
};

/** jar.set()'s options (k6's: domain, path, expires, max_age, secure, http_only), checked. */
const cookieAttributes = (opts: unknown): CookieAttributes | undefined => {
  if (opts === undefined || opts === null) return undefined;
  if (typeof opts !== 'object') throw new TypeError('cookieJar().set(): options are an object');
  const o = opts as Record<string, unknown>;
  const text = (v: unknown) => (v === undefined ? undefined : textOf(v));
  const flag = (v: unknown) => (v === undefined ? undefined : Boolean(v));
  const maxAge = o.max_age ?? o.maxAge;
  return {
    domain: text(o.domain),
    path: text(o.path),
    expires: text(o.expires),
    maxAge: maxAge === undefined ? undefined : Number(maxAge),
    secure: flag(o.secure),
    httpOnly: flag(o.http_only ?? o.httpOnly),
  };
};

// The virtual user's cookie jar (k6's http.cookieJar()): the same jar its requests use.
const jar = Object.freeze({
  cookiesForURL: (url: unknown) => hostCall('cookies.get', textOf(url)),
  set: (url: unknown, name: unknown, value: unknown, opts?: unknown) => {
    hostCall('cookies.set', [textOf(url), textOf(name), textOf(value), cookieAttributes(opts)]);
  },
  clear: (url?: unknown) => {
    hostCall('cookies.clear', url === undefined ? null : [textOf(url), undefined]);
  },
  delete: (url: unknown, name: unknown) => {
    hostCall('cookies.clear', [textOf(url), textOf(name)]);
  },
});

/** The API's `http`. */
export const http = Object.freeze({
  get: (url: unknown, opts?: unknown) => request('GET', url, undefined, opts),
  del: (url: unknown, opts?: unknown) => request('DELETE', url, undefined, opts),
  post: (url: unknown, body?: unknown, opts?: unknown) => request('POST', url, body, opts),
  put: (url: unknown, body?: unknown, opts?: unknown) => request('PUT', url, body, opts),
  patch: (url: unknown, body?: unknown, opts?: unknown) => request('PATCH', url, body, opts),
  request: (method: unknown, url: unknown, body?: unknown, opts?: unknown) =>
    request(textOf(method).toUpperCase(), url, body, opts),
  cookieJar: () => jar,
  batch,
});
