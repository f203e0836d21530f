/**
 * One replayable entry → the request an endpoint sends: method, url (relative to the target for
 * the page's host, whatever its scheme; absolute otherwise), the headers worth replaying
 * (har-headers.ts), and the body from postData, each field kept, dropped as a secret or replaced
 * by a placeholder (har-fields.ts). Recorded text is literal, so "{{" is escaped: nothing
 * recorded can become a placeholder; only the placeholders correlation puts in are templates.
 */
import { escapeTemplate } from '../grammar/escape-template.js';
import type { HarEntry } from './har-schema.js';
import { dropReason, type DroppedHeaderCategory } from './har-headers.js';
import {
  rewriteBody,
  rewritePath,
  rewriteQuery,
  type FieldRules,
  type HarBody,
} from './har-fields.js';

/** A request as an endpoint will send it (url, header values and body are template text). */
export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: HarBody | undefined;
}

/** What converting one entry left out, for the summary. */
export interface RequestNotes {
  readonly droppedHeaders: readonly { category: DroppedHeaderCategory; name: string }[];
  /** Secrets found (dropped, or kept with keepSecrets): "header Cookie", "query token"… */
  readonly secrets: readonly string[];
  readonly acceptEncoding: boolean;
  /** The entry had a body (bodySize > 0) that the recording left out. */
  readonly bodyMissing: boolean;
  /** Placeholders put in for values recorded responses gave, or for passwords from ${ENV}. */
  readonly placed: number;
  /** The url path for the endpoint's name: as recorded, a correlated segment as "{orderId}". */
  readonly namePath: string;
}

/** How to write the url: relative when the entry is on the page's host. */
export interface RequestContext {
  /** The recorded page's origin (scheme://host:port); Origin and Referer naming it follow the target. */
  readonly pageOrigin: string;
  /** The page's host (host:port): its entries get relative urls whatever their scheme. */
  readonly pageHost: string;
  /** The origin the page's requests are replayed against; Origin and Referer follow it. */
  readonly targetOrigin: string;
  /** How this entry's fields are judged (its correlated values among them). */
  readonly rules: FieldRules;
}

/** Converts one entry. */
export function toHarRequest(
  entry: HarEntry,
  url: URL,
  context: RequestContext,
): { request: HarRequest; notes: RequestNotes } {
  const { rules } = context;
  const secrets: string[] = [];
  const query = rewriteQuery(url.search, rules);
  secrets.push(...query.dropped.map((name) => `query ${name}`));
  const path = rewritePath(url.pathname, rules);
  const where = url.host.toLowerCase() === context.pageHost ? '' : escapeTemplate(url.origin);
  const headers = replayedHeaders(entry, context);
  secrets.push(...headers.secrets);
  const body = requestBody(entry, rules);
  secrets.push(...body.secrets);
  if (body.value !== undefined && body.mimeType !== '' && !headers.hasContentType)
    headers.values['Content-Type'] = escapeTemplate(body.mimeType);
  return {
    request: {
      method: entry.request.method.toUpperCase(),
      url: `${where}${path.value}${query.value}`,
      headers: headers.values,
      body: body.value,
    },
    notes: {
      droppedHeaders: headers.dropped,
      secrets,
      acceptEncoding: headers.acceptEncoding,
      bodyMissing: body.missing,
      placed: query.placed.length + path.placed.length + headers.placed + body.placed,
      namePath: path.shown,
    },
  };
}

/**
 * The headers to replay, same-name headers joined ("; " for Cookie, ", " otherwise). Origin and
 * Referer naming the recorded page's origin are moved to the target's, as the urls are, so a
 * server that checks them (CSRF defences) sees its own origin. A value a response gave (whole, or
 * after an auth scheme: "Bearer <token>") becomes its placeholder, even in a secret header; never
 * in Cookie, which the cookie jar fills. A value equal to a dropped secret's is dropped as one.
 */
function replayedHeaders(entry: HarEntry, context: RequestContext) {
  const { rules } = context;
  const values: Record<string, string> = {};
  const nameOf = new Map<string, string>();
  const dropped: { category: DroppedHeaderCategory; name: string }[] = [];
  const secrets: string[] = [];
  let placed = 0;
  for (const { name, value } of entry.request.headers) {
    const lower = name.toLowerCase();
    let text = lower === 'cookie' ? undefined : placeholderIn(value, rules.uses);
    if (text !== undefined) placed++;
    else {
      let category = dropReason(name, value);
      if (category === undefined && !rules.keepSecrets && rules.secretValues.has(value)) {
        category = 'secret';
        secrets.push(`header ${name} (a secret's value)`);
      } else if (category === 'secret') secrets.push(`header ${name}`);
      if (category !== undefined && !(category === 'secret' && rules.keepSecrets)) {
        dropped.push({ category, name });
        continue;
      }
      text = lower === 'referer' ? refererFor(value, rules) : escapeTemplate(value);
      if ((lower === 'origin' || lower === 'referer') && startsWithOrigin(text, context.pageOrigin))
        text = context.targetOrigin + text.slice(context.pageOrigin.length);
    }
    const shown = nameOf.get(lower) ?? name;
    nameOf.set(lower, shown);
    const before = Object.hasOwn(values, shown) ? values[shown] : undefined;
    const joined =
      before === undefined ? text : `${before}${lower === 'cookie' ? '; ' : ', '}${text}`;
    Object.defineProperty(values, shown, {
      value: joined,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return {
    values,
    dropped,
    secrets,
    placed,
    acceptEncoding: nameOf.has('accept-encoding'),
    hasContentType: nameOf.has('content-type'),
  };
}

/** The header value with a response's value in it as a placeholder, or undefined. */
function placeholderIn(value: string, uses: ReadonlyMap<string, string>): string | undefined {
  const whole = uses.get(value.trim());
  if (whole !== undefined) return whole;
  const scheme = /^(\S+\s+)(\S+)$/.exec(value.trim());
  const use = scheme?.[2] === undefined ? undefined : uses.get(scheme[2]);
  return use === undefined ? undefined : `${escapeTemplate(scheme?.[1] ?? '')}${use}`;
}

/** True when url is origin itself or a URL on it ("http://h:1" is not on "http://h:10"). */
function startsWithOrigin(url: string, origin: string): boolean {
  return origin !== '' && (url === origin || url.startsWith(`${origin}/`));
}

/** A Referer keeps its page; its query is judged as a request's (it is a recorded URL too). */
function refererFor(value: string, rules: FieldRules): string {
  const query = value.indexOf('?');
  if (query < 0) return escapeTemplate(value);
  const hash = value.indexOf('#', query);
  const search = hash < 0 ? value.slice(query) : value.slice(query, hash);
  return escapeTemplate(value.slice(0, query)) + rewriteQuery(search, rules).value;
}

/** The body from postData: its text, else its form params url-encoded. */
function requestBody(entry: HarEntry, rules: FieldRules) {
  const post = entry.request.postData;
  const header = entry.request.headers.find((h) => h.name.toLowerCase() === 'content-type');
  const mimeType = post?.mimeType || header?.value || '';
  let text = post?.text;
  if ((text === undefined || text === '') && post?.params !== undefined && post.params.length > 0)
    text = post.params
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? '')}`)
      .join('&');
  const missing = (text === undefined || text === '') && (entry.request.bodySize ?? 0) > 0;
  if (text === undefined || text === '')
    return { value: undefined, mimeType, secrets: [], missing, placed: 0 };
  const body = rewriteBody(text, mimeType, rules);
  return {
    value: body.value,
    mimeType,
    secrets: body.dropped.map((name) => `body ${name}`),
    missing,
    placed: body.placed.length,
  };
}
