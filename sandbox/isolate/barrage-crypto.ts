/**
 * barrage's crypto helper, which a scenario imports from 'barrage': k6/crypto's names (hash,
 * hmac, md5…sha512, randomBytes, and the streaming createHash and createHMAC), digests by the
 * host's node:crypto (sandbox/web-host.ts). A streaming hasher keeps its update()s' pieces in the
 * isolate and hands them all to the host's hash at each digest(), so the host keeps no state
 * between calls.
 */
import { text } from './dom-exception.js';
import { ownBytes } from './text-coding.js';
import { getRandomValues, randomUUID } from './web-crypto.js';
import { MAX_RANDOM_BYTES, web, type DigestData } from './web-call.js';

const data = (value: unknown, what: string): DigestData => {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return ownBytes(value);
  throw new TypeError(
    'crypto.' + what + '(): the data and key must be a string, an ArrayBuffer or a typed array',
  );
};

const hash = (algorithm: unknown, input: unknown, encoding?: unknown): string | ArrayBuffer =>
  web('hash', text(algorithm), data(input, 'hash'), encoding);

const shorthand =
  (algorithm: string) =>
  (input: unknown, encoding?: unknown): string | ArrayBuffer =>
    hash(algorithm, input, encoding);

const randomBytes = (size: unknown): ArrayBuffer => {
  const n = Number(size);
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_RANDOM_BYTES)
    throw new RangeError(
      `crypto.randomBytes(): a size from 0 to ${MAX_RANDOM_BYTES}, not ${text(size)}`,
    );
  return web('random', n).buffer as ArrayBuffer;
};

const hmac = (
  algorithm: unknown,
  key: unknown,
  input: unknown,
  encoding?: unknown,
): string | ArrayBuffer =>
  web('hmac', text(algorithm), data(key, 'hmac'), data(input, 'hmac'), encoding);

/** Pieces a streaming hasher keeps; past them update() throws (each piece crosses at digest()). */
const MAX_PIECES = 10_000;

/** A streaming hasher (k6's Hasher): update() adds a piece, digest() hashes them all. */
const hasher = (name: string, finish: (pieces: DigestData[], encoding: unknown) => unknown) => {
  const pieces: DigestData[] = [];
  const self = Object.freeze({
    update: (input: unknown) => {
      if (pieces.length >= MAX_PIECES)
        throw new RangeError(`crypto.${name}(): at most ${MAX_PIECES} update() calls a hasher`);
      pieces.push(data(input, name));
      return self;
    },
    digest: (encoding: unknown) => finish(pieces, encoding),
  });
  return self;
};

const createHash = (algorithm: unknown) => {
  const name = text(algorithm);
  web('hash', name, '', 'hex');
  return hasher('createHash', (pieces, encoding) => web('hash', name, pieces, encoding));
};

const createHMAC = (algorithm: unknown, key: unknown) => {
  const name = text(algorithm);
  const secret = data(key, 'createHMAC');
  web('hmac', name, secret, '', 'hex');
  return hasher('createHMAC', (pieces, encoding) => web('hmac', name, secret, pieces, encoding));
};

/** The helper (the API's `crypto`). */
export const barrageCrypto = Object.freeze({
  getRandomValues,
  randomUUID,
  randomBytes,
  hash,
  hmac,
  createHash,
  createHMAC,
  md5: shorthand('md5'),
  sha1: shorthand('sha1'),
  sha256: shorthand('sha256'),
  sha384: shorthand('sha384'),
  sha512: shorthand('sha512'),
  sha512_224: shorthand('sha512_224'),
  sha512_256: shorthand('sha512_256'),
});

export type BarrageCrypto = typeof barrageCrypto;
