/**
 * A scripted http call's arguments as the JSON text the host reads (runtime/script/script-ops.ts):
 * method, url, body (text, bytes, or JSON of any other value), query and form as [name, value]
 * pairs, multipart parts, headers, and the options, with the call's group and tags. Bytes (an
 * ArrayBuffer, a typed array or a DataView: a raw body, a multipart file's data) are copied as
 * they are at the call into the call's list of buffers, which cross as bytes (vu-host.ts's wait);
 * the JSON text names each by its place in that list (`binary`, a part's `bytes`).
 */
import { stringify, textOf } from './intrinsics.js';
import { groupName, groups, hasVuTags, tagsOf } from './vu-host.js';

/** A call's options as the scenario gives them (scenarios/barrage.d.ts's RequestOptions). */
interface Options {
  readonly headers?: Readonly<Record<string, unknown>> | null;
  readonly cookies?: Readonly<Record<string, unknown>> | null;
  readonly query?: Readonly<Record<string, unknown>> | null;
  readonly form?: Readonly<Record<string, unknown>> | null;
  readonly multipart?: Readonly<Record<string, unknown>> | null;
  readonly timeout?: unknown;
  readonly redirects?: unknown;
  readonly expect?: unknown;
  readonly stream?: unknown;
  readonly idleTimeout?: unknown;
  readonly llm?: unknown;
  readonly name?: unknown;
  readonly tags?: unknown;
}

/** A multipart file as the scenario gives it. */
interface FilePart {
  readonly data?: unknown;
  readonly filename?: unknown;
  readonly contentType?: unknown;
}

// The arguments of calls with no body, options or group, as JSON text, by method and url: a
// scenario repeats its calls, and their text is built once (for up to MAX_PLAIN urls a method).
const plain = new Map<string, Map<unknown, string>>();
const MAX_PLAIN = 1000;

// query and form as [name, value] pairs: a list value repeats its name.
const pairs = (value: Readonly<Record<string, unknown>> | null | undefined): string[][] => {
  const out: string[][] = [];
  if (value !== undefined && value !== null)
    for (const [name, item] of Object.entries(value))
      for (const one of Array.isArray(item) ? (item as unknown[]) : [item])
        out.push([textOf(name), textOf(one)]);
  return out;
};

/** A copy of the bytes an ArrayBuffer or a view holds (only those it covers), else undefined. */
const bytesOf = (value: unknown): ArrayBuffer | undefined => {
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (!ArrayBuffer.isView(value)) return undefined;
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice().buffer;
};

/** Adds a copy of `value`'s bytes to `bytes`; returns its place there, or undefined for no bytes. */
const placeOf = (value: unknown, bytes: ArrayBuffer[]): number | undefined => {
  const copy = bytesOf(value);
  if (copy === undefined) return undefined;
  bytes.push(copy);
  return bytes.length - 1;
};

// A multipart part: bytes are a file ("blob"), any other value not an object a field,
// { data, filename?, contentType? } a file whose data is text or bytes.
const part = (name: string, item: unknown, bytes: ArrayBuffer[]) => {
  const raw = placeOf(item, bytes);
  if (raw !== undefined) return { name, data: '', bytes: raw, file: true };
  if (item === null || typeof item !== 'object') return { name, data: textOf(item), file: false };
  const file = item as FilePart;
  const place = placeOf(file.data, bytes);
  return {
    name,
    data: place === undefined ? textOf(file.data) : '',
    bytes: place,
    file: true,
    filename: file.filename === undefined ? undefined : textOf(file.filename),
    contentType: file.contentType === undefined ? undefined : textOf(file.contentType),
  };
};

// multipart: its parts in order; a list value repeats its name, one part an item.
const parts = (value: Readonly<Record<string, unknown>>, bytes: ArrayBuffer[]) =>
  Object.entries(value).flatMap(([name, item]) =>
    (Array.isArray(item) ? (item as unknown[]) : [item]).map((one) =>
      part(textOf(name), one, bytes),
    ),
  );

/**
 * A call's `cookies` (k6's params.cookies: a value, or { value }) added to its Cookie header as
 * `name=value` pairs, after a Cookie header of its own; the request path then adds the jar's
 * cookies of other names (runtime/http/cookie-jar.ts's mergeCookieHeader), so a call's cookie
 * wins over the jar's of the same name, as in k6. They are not stored in the jar.
 */
const addCookies = (headers: Record<string, string>, cookies: Options['cookies']): void => {
  if (cookies === undefined || cookies === null) return;
  const given = Object.entries(cookies).map(([name, item]) => {
    const value =
      item !== null && typeof item === 'object' ? (item as { value?: unknown }).value : item;
    return textOf(name) + '=' + textOf(value);
  });
  if (given.length === 0) return;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === 'cookie') ?? 'Cookie';
  const own = headers[key];
  headers[key] = own === undefined || own === '' ? given.join('; ') : own + '; ' + given.join('; ');
};

const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;

/** The one of a body, form or multipart a call gives; throws when it gives more. */
const oneBody = (method: string, url: unknown, body: unknown, o: Options, bytes: ArrayBuffer[]) => {
  const form = o.form === undefined || o.form === null ? undefined : pairs(o.form);
  const multipart =
    o.multipart === undefined || o.multipart === null ? undefined : parts(o.multipart, bytes);
  const given = [
    body !== undefined && body !== null ? 'a body' : '',
    form ? 'form' : '',
    multipart ? 'multipart' : '',
  ].filter((g) => g !== '');
  if (given.length > 1)
    throw new Error(
      `${method} ${textOf(url)}: give one of a body, form or multipart, not ${given.join(' and ')}`,
    );
  return { form, multipart };
};

const argsText = (
  method: string,
  url: unknown,
  body: unknown,
  opts: unknown,
  bytes: ArrayBuffer[],
): string => {
  const o = (opts === undefined || opts === null ? {} : opts) as Options;
  const headers: Record<string, string> = {};
  if (o.headers !== undefined)
    for (const [k, v] of Object.entries(o.headers as object)) headers[textOf(k)] = textOf(v);
  addCookies(headers, o.cookies);
  const { form, multipart } = oneBody(method, url, body, o, bytes);
  const binary = placeOf(body, bytes);
  const isText =
    binary !== undefined || body === undefined || body === null || typeof body === 'string';
  return stringify({
    method,
    url: textOf(url),
    body: binary !== undefined || body === null ? undefined : isText ? body : stringify(body),
    binary,
    json: !isText,
    query: pairs(o.query),
    form,
    multipart,
    headers,
    timeout: numberOr(o.timeout),
    redirects: numberOr(o.redirects),
    expect: o.expect,
    stream: o.stream,
    idleTimeout: numberOr(o.idleTimeout),
    llm: o.llm,
    name: o.name === undefined ? undefined : textOf(o.name),
    group: groupName(),
    tags: tagsOf(o.tags),
  });
};

/** A call's arguments as JSON text, its bytes added to `bytes` (see the file comment). */
export const requestArgs = (
  method: string,
  url: unknown,
  body: unknown,
  opts: unknown,
  bytes: ArrayBuffer[],
): string => {
  const simple =
    body === undefined &&
    opts === undefined &&
    groups.length === 0 &&
    !hasVuTags() &&
    typeof url === 'string';
  if (simple) {
    const known = plain.get(method)?.get(url);
    if (known !== undefined) return known;
  }
  const json = argsText(method, url, body, opts, bytes);
  if (simple) {
    let urls = plain.get(method);
    if (urls === undefined) plain.set(method, (urls = new Map<unknown, string>()));
    if (urls.size < MAX_PLAIN) urls.set(url, json);
  }
  return json;
};

/** A request of http.batch(): a url, [method, url, body?, params?] or an object of them. */
export const batchArgs = (entry: unknown, bytes: ArrayBuffer[]): string => {
  if (typeof entry === 'string') return requestArgs('GET', entry, undefined, undefined, bytes);
  if (Array.isArray(entry)) {
    const [method, url, body, params] = entry as unknown[];
    return requestArgs(textOf(method ?? 'GET').toUpperCase(), url, body, params, bytes);
  }
  if (entry !== null && typeof entry === 'object') {
    const e = entry as { method?: unknown; url?: unknown; body?: unknown; params?: unknown };
    return requestArgs(textOf(e.method ?? 'GET').toUpperCase(), e.url, e.body, e.params, bytes);
  }
  throw new TypeError(
    'http.batch(): each request is a url, [method, url, body?, params?] or { method, url, body?, params? }',
  );
};
