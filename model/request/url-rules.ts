/**
 * The rules for the urls a user writes, in one place: YAML endpoints (dsl/compile), their
 * validation (dsl/schema/refinements.ts), scripted calls (runtime/script/call-targets.ts) and
 * proxies. A url is absolute when it names its scheme (`scheme://…`, RFC 3986 §3.1), else it is
 * relative to the target. Texts are joined as strings, so placeholders are not percent-encoded.
 */

/** `scheme://` at the start of a url. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** `scheme://authority` at the start of a url. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
/** The schemes barrage speaks. */
const SUPPORTED = /^(https?|wss?|grpcs?):\/\//i;
const WEBSOCKET = /^wss?:\/\//i;
const GRPC = /^grpcs?:\/\//i;

/** True when `url` names its scheme (`http://…`, `wss://…`), false for a relative one. */
export function isAbsoluteUrl(url: string): boolean {
  return SCHEME.test(url);
}

/** `scheme://authority` of an absolute url as written, undefined for a relative one. */
export function originOfUrl(url: string): string | undefined {
  return ORIGIN.exec(url)?.[0];
}

/** True for an http, https, ws, wss, grpc or grpcs url. */
export function isSupportedUrl(url: string): boolean {
  return SUPPORTED.test(url);
}

/** True for a ws:// or wss:// url (a WebSocket session, not a request). */
export function isWebSocketUrl(url: string): boolean {
  return WEBSOCKET.test(url);
}

/** True for a grpc:// or grpcs:// url (a gRPC call, docs/grpc.md). */
export function isGrpcUrl(url: string): boolean {
  return GRPC.test(url);
}

/** `base` with an http(s) scheme made ws(s): the base of a relative WebSocket url. */
export function webSocketBase(base: string): string {
  return base.replace(/^http/i, 'ws');
}

/** `target` + a relative `url` (an absolute one, or one without a target, as it is). */
export function joinUrl(target: string | undefined, url: string): string {
  if (isAbsoluteUrl(url) || target === undefined) return url;
  const base = target.replace(/\/+$/, '');
  return url.startsWith('/') ? base + url : `${base}/${url}`;
}
