/**
 * One recorded entry → the facts filters test (host, method, type, status, path, static), or the
 * reason it cannot be replayed at all:
 *
 * | Entry                                   | Reason                                             |
 * |-----------------------------------------|----------------------------------------------------|
 * | URL that does not parse                 | invalid URL                                        |
 * | ws:// or wss://, or an http(s) upgrade  | WebSocket without recorded messages                |
 * | (101 or Upgrade: websocket), no frames  |                                                    |
 * | any other non-http(s) scheme            | <scheme> URL (data:, blob:, chrome-extension:…)    |
 * | CONNECT                                 | CONNECT tunnel (a proxy's, not the application's)  |
 * | method that is not letters only         | method not supported                               |
 * | Chrome's _fromCache                     | served from the browser cache                      |
 * | response status 0 or -1 (Playwright)    | no response (blocked, cancelled or failed)         |
 *
 * A WebSocket with recorded frames is replayable (har-websocket.ts): its facts are those of its
 * handshake, a GET, on its http(s) url (wss:// as https://), so host rules and filters treat it
 * as the page's other requests.
 */
import type { HarEntryFacts } from '../grammar/har-filter.js';
import type { HarEntry } from './har-schema.js';
import { hasRecordedFrames, isWebSocket } from './har-websocket.js';

/** An entry that can be replayed: its parsed URL and filter facts. */
export interface Replayable {
  readonly url: URL;
  readonly facts: HarEntryFacts;
  /** A top-level or frame document (Chrome's resource type, else an HTML GET). */
  readonly isDocument: boolean;
  /** A WebSocket handshake with recorded frames (its url is the http(s) one). */
  readonly isWebSocket: boolean;
}

/** Chrome's resource types of static assets. */
const STATIC_RESOURCES = new Set(['image', 'font', 'stylesheet', 'script', 'media', 'manifest']);
/** Media types of static assets: images, fonts, CSS, JavaScript, audio and video. */
const STATIC_TYPES =
  /^(?:image|font|audio|video)\/|^text\/css$|javascript|ecmascript|^application\/(?:x-)?font|^application\/vnd\.ms-fontobject$|^application\/wasm$/;
/** Path extensions of static assets, for entries recorded without a response type. */
const STATIC_EXTENSIONS =
  /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|css|m?js|map|mp4|webm|mp3|ogg|wasm)$/i;
const METHOD = /^[A-Za-z]+$/;

/** The facts of an entry, or why it is not replayed. */
export function entryFacts(entry: HarEntry): Replayable | { readonly reason: string } {
  let url: URL;
  try {
    url = new URL(entry.request.url);
  } catch {
    return { reason: 'invalid URL' };
  }
  if (isWebSocket(entry, url)) return webSocketFacts(entry, url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { reason: `${url.protocol} URL` };
  const method = entry.request.method.toUpperCase();
  if (method === 'CONNECT') return { reason: "CONNECT tunnel (a proxy's, not the application's)" };
  if (!METHOD.test(method)) return { reason: 'method not supported' };
  if (entry._fromCache !== undefined)
    return { reason: 'served from the browser cache (never reached the server)' };
  // Playwright writes -1 for a request that got no response.
  if (entry.response.status <= 0)
    return { reason: 'no response (blocked, cancelled or failed in the browser)' };
  const type = mediaType(entry);
  const resource = entry._resourceType?.toLowerCase();
  const isStatic =
    (resource !== undefined && STATIC_RESOURCES.has(resource)) ||
    STATIC_TYPES.test(type) ||
    (type === '' && STATIC_EXTENSIONS.test(url.pathname));
  const isDocument =
    resource !== undefined
      ? resource === 'document'
      : method === 'GET' && /^(?:text\/html|application\/xhtml\+xml)$/.test(type);
  return {
    url,
    isDocument,
    isWebSocket: false,
    facts: {
      hostname: url.hostname.toLowerCase(),
      host: url.host.toLowerCase(),
      method,
      type,
      status: entry.response.status,
      path: url.pathname,
      isStatic,
    },
  };
}

/** A WebSocket handshake: replayable with its frames, on its http(s) url. */
function webSocketFacts(entry: HarEntry, recorded: URL): Replayable | { readonly reason: string } {
  if (!hasRecordedFrames(entry)) return { reason: 'WebSocket without recorded messages' };
  const url = new URL(recorded.href.replace(/^ws(s?):/i, 'http$1:'));
  return {
    url,
    isDocument: false,
    isWebSocket: true,
    facts: {
      hostname: url.hostname.toLowerCase(),
      host: url.host.toLowerCase(),
      method: 'GET',
      type: '',
      status: entry.response.status,
      path: url.pathname,
      isStatic: false,
    },
  };
}

/** The response's media type without parameters, lower case: content.mimeType, else the header. */
function mediaType(entry: HarEntry): string {
  const header = entry.response.headers.find((h) => h.name.toLowerCase() === 'content-type');
  const raw = entry.response.content?.mimeType || header?.value || '';
  const type = (raw.split(';')[0] ?? '').trim().toLowerCase();
  // Chrome writes x-unknown when the response had no type (a 204, for one).
  return type === 'x-unknown' ? '' : type;
}
