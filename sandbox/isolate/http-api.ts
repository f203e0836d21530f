/**
 * The API's `http`: calls through the host's request path (runtime/script/script-ops.ts), their
 * arguments as JSON text (request-args.ts), their results as responses (response.ts); http.batch()
 * and the virtual user's cookie jar.
 */
import { textOf } from './intrinsics.js';
import { batchArgs, requestArgs } from './request-args.js';
import type { ResponseValues } from './records.js';
import { response } from './response.js';
import { MAX_WAITING_CALLS } from '../waiting-calls.js';
import { hostCall, room, settled, wait } from './vu-host.js';

const requested = async (method: string, url: unknown, body: unknown, opts: unknown) => {
  const bytes: ArrayBuffer[] = [];
  const json = requestArgs(method, url, body, opts, bytes);
  return settled(await wait('http', json, bytes));
};

const request = (method: string, url: unknown, body: unknown, opts: unknown) => {
  room('http');
  return requested(method, url, body, opts);
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

// The virtual user's cookie jar (k6's http.cookieJar()): the same jar its requests use.
const jar = Object.freeze({
  cookiesForURL: (url: unknown) => hostCall('cookies.get', textOf(url)),
  set: (url: unknown, name: unknown, value: unknown) => {
    hostCall('cookies.set', [textOf(url), textOf(name), textOf(value)]);
  },
  clear: () => {
    hostCall('cookies.clear', null);
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
