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

/** What a digest hashes: one piece, or the pieces a streaming hasher's update() calls gave. */
export type DigestInput = DigestData | readonly DigestData[];

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
  (op: 'hash', algorithm: string, data: DigestInput, encoding: unknown): string | ArrayBuffer;
  (
    op: 'hmac',
    algorithm: string,
    key: DigestData,
    data: DigestInput,
    encoding: unknown,
  ): string | ArrayBuffer;
  (op: 'b64encode', data: DigestData, variant: string): string;
  (op: 'b64decode', text: string, variant: string): Uint8Array;
}

/**
 * The most characters or bytes one call of a web global takes, its arguments together: 16 MiB,
 * an eighth of a segment isolate's 128 MB. Each argument is copied to the host (and its answer
 * back), outside the isolate's memory limit: a 100 MB string to btoa() cost the host 700 MB. Past
 * it, the call throws a RangeError in the isolate before anything is copied.
 */
export const MAX_WEB_CALL_SIZE = 16 * 1024 * 1024;

/** What the scenario called, by operation, for the refusal. */
const CALLED: Readonly<Record<string, string>> = {
  url: 'URL',
  'url.set': 'URL',
  'url.canParse': 'URL.canParse()',
  'query.parse': 'URLSearchParams',
  'query.serialize': 'URLSearchParams.toString()',
  encode: 'TextEncoder.encode()',
  encodeInto: 'TextEncoder.encodeInto()',
  decode: 'TextDecoder.decode()',
  atob: 'atob()',
  btoa: 'btoa()',
  clone: 'structuredClone()',
  hash: 'crypto.hash()',
  hmac: 'crypto.hmac()',
  b64encode: 'encoding.b64encode()',
  b64decode: 'encoding.b64decode()',
};

/** Characters of a string, bytes of a buffer or view, those of a list's strings; else 0. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)
    return value.byteLength;
  if (!Array.isArray(value)) return 0;
  let size = 0;
  for (const item of value as unknown[])
    if (typeof item === 'string' || item instanceof ArrayBuffer) size += sizeOf(item);
  return size;
}

/** Calls the host (a live binding: set by setWebCall before the first call). */
export let web: WebCall;

/** Hands over the host's callback, behind the bound on what one call may copy. */
export function setWebCall(call: WebCall): void {
  const host = call as (op: string, ...args: unknown[]) => unknown;
  web = ((op: string, ...args: unknown[]): unknown => {
    let size = 0;
    for (const arg of args) size += sizeOf(arg);
    if (size > MAX_WEB_CALL_SIZE)
      throw new RangeError(
        `${CALLED[op] ?? op}: ${size} characters or bytes, more than the ${MAX_WEB_CALL_SIZE} one call of a web global takes in a scenario`,
      );
    return host(op, ...args);
  }) as WebCall;
}
