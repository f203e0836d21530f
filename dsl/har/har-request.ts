/**
 * One replayable entry → the request an endpoint sends: method, url (relative to the target for
 * the page's origin, absolute otherwise), the headers worth replaying (har-headers.ts), and the
 * body from postData, with secrets taken out (har-secrets.ts) unless they are to be kept.
 * Recorded text is literal, so "{{" is escaped: nothing recorded can become a placeholder.
 */
import { escapeTemplate } from '../grammar/escape-template.js';
import type { HarEntry } from './har-schema.js';
import { dropReason, type DroppedHeaderCategory } from './har-headers.js';
import { stripBody, stripQuery } from './har-secrets.js';

/** A request as an endpoint will send it (url, header values and body already escaped). */
export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** What converting one entry left out, for the summary. */
export interface RequestNotes {
  readonly droppedHeaders: readonly { category: DroppedHeaderCategory; name: string }[];
  /** Secrets found (dropped, or kept with keepSecrets): "header Cookie", "query token"… */
  readonly secrets: readonly string[];
  readonly acceptEncoding: boolean;
  /** The entry had a body (bodySize > 0) that the recording left out. */
  readonly bodyMissing: boolean;
}

/** How to write the url: relative when the entry is on the page's origin. */
export interface RequestContext {
  /** The recorded page's origin (scheme://host:port); its entries get relative urls. */
  readonly pageOrigin: string;
  /** The origin the page's requests are replayed against; Origin and Referer follow it. */
  readonly targetOrigin: string;
  readonly keepSecrets: boolean;
}

/** Converts one entry. */
export function toHarRequest(
  entry: HarEntry,
  url: URL,
  context: RequestContext,
): { request: HarRequest; notes: RequestNotes } {
  const secrets: string[] = [];
  const stripped = stripQuery(url.search);
  secrets.push(...stripped.dropped.map((name) => `query ${name}`));
  const query = context.keepSecrets ? url.search : stripped.text;
  const where = url.origin === context.pageOrigin ? '' : url.origin;
  const headers = replayedHeaders(entry, context);
  secrets.push(...headers.secrets);
  const body = requestBody(entry, context.keepSecrets);
  secrets.push(...body.secrets);
  if (body.text !== undefined && body.mimeType !== '' && !headers.hasContentType)
    headers.values['Content-Type'] = escapeTemplate(body.mimeType);
  return {
    request: {
      method: entry.request.method.toUpperCase(),
      url: escapeTemplate(`${where}${url.pathname}${query}`),
      headers: headers.values,
      body: body.text === undefined ? undefined : escapeTemplate(body.text),
    },
    notes: {
      droppedHeaders: headers.dropped,
      secrets,
      acceptEncoding: headers.acceptEncoding,
      bodyMissing: body.missing,
    },
  };
}

/**
 * The headers to replay, same-name headers joined ("; " for Cookie, ", " otherwise). Origin and
 * Referer naming the recorded page's origin are moved to the target's, as the urls are, so a
 * server that checks them (CSRF defences) sees its own origin.
 */
function replayedHeaders(entry: HarEntry, context: RequestContext) {
  const { keepSecrets } = context;
  const values: Record<string, string> = {};
  const nameOf = new Map<string, string>();
  const dropped: { category: DroppedHeaderCategory; name: string }[] = [];
  const secrets: string[] = [];
  for (const { name, value } of entry.request.headers) {
    const category = dropReason(name, value);
    if (category === 'secret') secrets.push(`header ${name}`);
    if (category !== undefined && !(category === 'secret' && keepSecrets)) {
      dropped.push({ category, name });
      continue;
    }
    const lower = name.toLowerCase();
    const shown = nameOf.get(lower) ?? name;
    nameOf.set(lower, shown);
    let text = lower === 'referer' && !keepSecrets ? refererWithoutSecrets(value) : value;
    if ((lower === 'origin' || lower === 'referer') && startsWithOrigin(text, context.pageOrigin))
      text = context.targetOrigin + text.slice(context.pageOrigin.length);
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
  for (const name of Object.keys(values)) values[name] = escapeTemplate(values[name] ?? '');
  return {
    values,
    dropped,
    secrets,
    acceptEncoding: nameOf.has('accept-encoding'),
    hasContentType: nameOf.has('content-type'),
  };
}

/** True when url is origin itself or a URL on it ("http://h:1" is not on "http://h:10"). */
function startsWithOrigin(url: string, origin: string): boolean {
  return origin !== '' && (url === origin || url.startsWith(`${origin}/`));
}

/** A Referer keeps its page but loses token-like query parameters (it is a recorded URL too). */
function refererWithoutSecrets(value: string): string {
  const query = value.indexOf('?');
  if (query < 0) return value;
  const hash = value.indexOf('#', query);
  const search = hash < 0 ? value.slice(query) : value.slice(query, hash);
  return value.slice(0, query) + stripQuery(search).text;
}

/** The body from postData: its text, else its form params url-encoded. */
function requestBody(entry: HarEntry, keepSecrets: boolean) {
  const post = entry.request.postData;
  const header = entry.request.headers.find((h) => h.name.toLowerCase() === 'content-type');
  const mimeType = post?.mimeType || header?.value || '';
  let text = post?.text;
  if ((text === undefined || text === '') && post?.params !== undefined && post.params.length > 0)
    text = post.params
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? '')}`)
      .join('&');
  const missing = (text === undefined || text === '') && (entry.request.bodySize ?? 0) > 0;
  if (text === undefined || text === '') return { text: undefined, mimeType, secrets: [], missing };
  const stripped = stripBody(text, mimeType);
  return {
    text: keepSecrets ? text : stripped.text,
    mimeType,
    secrets: stripped.dropped.map((name) => `body ${name}`),
    missing,
  };
}
