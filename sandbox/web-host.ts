/**
 * The host side of a scenario's web globals (web-globals.ts): what needs a parser, a codec or
 * the CSPRNG is done by Node's own implementations (WHATWG URL and URLSearchParams, TextEncoder
 * and TextDecoder, atob and btoa, node:crypto), called synchronously from the isolate through one
 * isolated-vm Callback. Values cross copied (structured clone), so structuredClone() is a call
 * that returns its argument. Shared by the options reader (dsl) and the sandbox (runtime), so it
 * sits beside removed-globals.ts.
 */
import { createHash, createHmac, randomFillSync, randomUUID } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';

import { MAX_RANDOM_BYTES } from './isolate/web-call.js';

/** A URL's parts, in the order web-globals.ts reads them. */
const URL_PARTS = [
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
] as const;

/** The parts a URL setter may change (the web's setters; href and origin are not here). */
const URL_SETTERS = new Set<string>(URL_PARTS.slice(2));

/** k6's names of hash algorithms (k6/crypto), and the ones Node's crypto takes. */
const ALGORITHMS: Readonly<Record<string, string>> = {
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  'sha512-224': 'sha512-224',
  sha512_256: 'sha512-256',
  'sha512-256': 'sha512-256',
};

/**
 * Output encodings of digests (k6/crypto's): hex, base64, base64url (padded, as Go's
 * URLEncoding), base64rawurl (unpadded), or 'binary' for an ArrayBuffer.
 */
const ENCODINGS = new Set(['hex', 'base64', 'base64url', 'base64rawurl', 'binary']);

/**
 * k6/encoding's base64 variants: Node's alphabet for each, and whether its text keeps the '='
 * padding (Go's StdEncoding, RawStdEncoding, URLEncoding, RawURLEncoding).
 */
const BASE64: Readonly<Record<string, { alphabet: 'base64' | 'base64url'; padded: boolean }>> = {
  std: { alphabet: 'base64', padded: true },
  rawstd: { alphabet: 'base64', padded: false },
  url: { alphabet: 'base64url', padded: true },
  rawurl: { alphabet: 'base64url', padded: false },
};

/** Bytes or text as they arrive from the isolate (typed arrays and ArrayBuffers are copied). */
type Data = string | ArrayBuffer | ArrayBufferView;

/** TextDecoders by their label and flags: a scenario uses one or two. */
const decoders = new Map<string, TextDecoder>();
const encoder = new TextEncoder();

/**
 * One call of a web global. Errors the web defines as a DOMException come back as
 * [1, name, message] (isolated-vm would keep only the message), other results as [0, value] for
 * the calls that can throw one (atob, btoa); TypeErrors and RangeErrors are thrown as they are.
 */
export function webHost(op: string, a?: unknown, b?: unknown, c?: unknown, d?: unknown): unknown {
  switch (op) {
    case 'url':
      return urlParts(new URL(a as string, b as string | undefined));
    case 'url.set':
      return setUrl(a as string, b as string, c as string);
    case 'url.canParse':
      return URL.canParse(a as string, b as string | undefined);
    case 'query.parse':
      return [...new URLSearchParams(a as string)].flat();
    case 'query.serialize':
      return serializeQuery(a as string[]);
    case 'encode':
      return encoder.encode(a as string);
    case 'encodeInto': {
      const into = new Uint8Array(b as number);
      const { read, written } = encoder.encodeInto(a as string, into);
      return [read, written, into.subarray(0, written)];
    }
    case 'decoder':
      return decoderOf(a as string, b as boolean, c as boolean).encoding;
    case 'decode':
      return decoderOf(a as string, b as boolean, c as boolean).decode(d as ArrayBuffer);
    case 'atob':
    case 'btoa':
      return domCall(() => (op === 'atob' ? atob(a as string) : btoa(a as string)));
    case 'clone':
      return a;
    case 'uuid':
      return randomUUID();
    case 'random':
      return randomFillSync(new Uint8Array(Math.min(a as number, MAX_RANDOM_BYTES)));
    case 'hash':
      return digest(createHash(algorithm(a)), b as Data | Data[], c);
    case 'hmac':
      return digest(createHmac(algorithm(a), bytes(b as Data)), c as Data | Data[], d);
    case 'b64encode':
      return base64(bytes(a as Data), variant(b));
    case 'b64decode':
      return new Uint8Array(Buffer.from(a as string, variant(b).alphabet));
    default:
      throw new Error(`unknown operation ${op}`);
  }
}

function urlParts(url: URL): string[] {
  return URL_PARTS.map((part) => url[part]);
}

/** A URL's parts after one of its setters ran (a value it cannot take leaves it as it was). */
function setUrl(href: string, part: string, value: string): string[] {
  const url = new URL(href);
  if (part === 'href') return urlParts(new URL(value));
  if (!URL_SETTERS.has(part)) throw new TypeError(`URL: ${part} cannot be set`);
  (url as unknown as Record<string, string>)[part] = value;
  return urlParts(url);
}

/** application/x-www-form-urlencoded text of [name, value, name, value…]. */
function serializeQuery(flat: readonly string[]): string {
  const query = new URLSearchParams();
  for (let i = 0; i + 1 < flat.length; i += 2) query.append(flat[i]!, flat[i + 1]!);
  return query.toString();
}

/** A UTF-8 TextDecoder: other encodings are refused as the web refuses an unknown label. */
function decoderOf(label: string, fatal: boolean, ignoreBOM: boolean): TextDecoder {
  const key = `${label}\n${fatal}\n${ignoreBOM}`;
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    decoder = new TextDecoder(label, { fatal, ignoreBOM });
    if (decoder.encoding !== 'utf-8')
      throw new RangeError(
        `TextDecoder: only utf-8 is supported in a scenario, not ${JSON.stringify(label)}`,
      );
    if (decoders.size < 16) decoders.set(key, decoder);
  }
  return decoder;
}

/** The result of a call that may throw a DOMException, as data (see webHost). */
function domCall(run: () => string): [0, string] | [1, string, string] {
  try {
    return [0, run()];
  } catch (error) {
    if (error instanceof DOMException) return [1, error.name, error.message];
    throw error;
  }
}

function algorithm(name: unknown): string {
  const known = typeof name === 'string' ? ALGORITHMS[name.toLowerCase()] : undefined;
  if (known === undefined)
    throw new TypeError(
      `crypto: unknown hash algorithm ${JSON.stringify(name)} (one of ${Object.keys(ALGORITHMS).join(', ')})`,
    );
  return known;
}

function bytes(data: Data): Buffer | string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function variant(name: unknown): (typeof BASE64)[string] {
  const known = typeof name === 'string' ? BASE64[name] : undefined;
  if (known === undefined)
    throw new TypeError(
      `encoding: base64 variant ${JSON.stringify(name)} is not one of ${Object.keys(BASE64).join(', ')}`,
    );
  return known;
}

/** Base64 text of `data` in `as`'s alphabet, padded with '=' to a multiple of 4 when it asks. */
function base64(data: Buffer | string, as: (typeof BASE64)[string]): string {
  const text = Buffer.from(data).toString(as.alphabet);
  if (as.alphabet === 'base64') return as.padded ? text : text.replace(/=+$/, '');
  return as.padded ? text.padEnd(Math.ceil(text.length / 4) * 4, '=') : text;
}

function digest(
  hash: { update(data: Buffer | string): unknown; digest(): Buffer },
  data: Data | Data[],
  encoding: unknown,
): string | ArrayBuffer {
  if (typeof encoding !== 'string' || !ENCODINGS.has(encoding))
    throw new TypeError(
      `crypto: output encoding ${JSON.stringify(encoding)} is not one of ${[...ENCODINGS].join(', ')}`,
    );
  for (const piece of Array.isArray(data) ? data : [data]) hash.update(bytes(piece));
  const out = hash.digest();
  if (encoding === 'base64url') return base64(out, BASE64.url!);
  if (encoding === 'base64rawurl') return base64(out, BASE64.rawurl!);
  if (encoding !== 'binary') return out.toString(encoding as BufferEncoding);
  // A copy of its own bytes: a Buffer may be a view into a shared pool.
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.length) as ArrayBuffer;
}
