/**
 * barrage's crypto helper, which a scenario imports from 'barrage': k6/crypto's names (hash,
 * hmac, md5…sha512, randomBytes), digests by the host's node:crypto (sandbox/web-host.ts).
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

/** The helper (the API's `crypto`). */
export const barrageCrypto = Object.freeze({
  getRandomValues,
  randomUUID,
  randomBytes,
  hash,
  hmac,
  md5: shorthand('md5'),
  sha1: shorthand('sha1'),
  sha256: shorthand('sha256'),
  sha384: shorthand('sha384'),
  sha512: shorthand('sha512'),
  sha512_224: shorthand('sha512_224'),
  sha512_256: shorthand('sha512_256'),
});

export type BarrageCrypto = typeof barrageCrypto;
