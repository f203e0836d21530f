/**
 * The web globals' calls to the host (sandbox/web-host.ts's webHost, an isolated-vm Callback),
 * typed by operation. The context's entry hands it over with setWebCall() before anything uses it.
 */

/** The most bytes crypto.getRandomValues() fills in one call (the web's quota). */
export const MAX_RANDOM_BYTES = 65_536;

/** A URL's parts in web-host.ts's order: href, origin, protocol, username, password, host,
 * hostname, port, pathname, search, hash. */
export type UrlParts = readonly string[];

/** A call that may fail with a DOMException: [0, value] or [1, name, message]. */
export type DomResult<T> = readonly [0, T] | readonly [1, string, string];

/** Text or bytes given to a digest. */
export type DigestData = string | ArrayBuffer;

/** The host's operations. */
export interface WebCall {
  (op: 'url', url: string, base?: string): UrlParts;
  (op: 'url.set', href: string, part: string, value: string): UrlParts;
  (op: 'url.canParse', url: string, base?: string): boolean;
  (op: 'query.parse', query: string): readonly string[];
  (op: 'query.serialize', flat: readonly string[]): string;
  (op: 'encode', text: string): Uint8Array;
  (op: 'encodeInto', text: string, length: number): readonly [number, number, Uint8Array];
  (op: 'decoder', label: string, fatal: boolean, ignoreBOM: boolean): string;
  (op: 'decode', label: string, fatal: boolean, ignoreBOM: boolean, bytes: ArrayBuffer): string;
  (op: 'atob' | 'btoa', data: string): DomResult<string>;
  (op: 'clone', value: unknown): unknown;
  (op: 'uuid'): string;
  (op: 'random', size: number): Uint8Array;
  (op: 'hash', algorithm: string, data: DigestData, encoding: unknown): string | ArrayBuffer;
  (
    op: 'hmac',
    algorithm: string,
    key: DigestData,
    data: DigestData,
    encoding: unknown,
  ): string | ArrayBuffer;
}

/** Calls the host (a live binding: set by setWebCall before the first call). */
export let web: WebCall;

/** Hands over the host's callback. */
export function setWebCall(call: WebCall): void {
  web = call;
}
