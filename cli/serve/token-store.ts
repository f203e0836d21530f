/**
 * Bearer tokens the target server has issued, so `/me` can tell real tokens from made-up ones
 * and expired ones from live ones. A load test may log in millions of times, so the store is
 * bounded: past its capacity the oldest token is forgotten (Map keeps insertion order).
 */
import { randomBytes } from 'node:crypto';

/** Default number of tokens remembered before the oldest is dropped. */
export const TOKEN_STORE_CAPACITY = 100_000;

interface IssuedToken {
  readonly subject: string;
  /** Clock time (ms) from which the token is rejected. */
  readonly expiresAt: number;
}

/** Issues opaque random bearer tokens and resolves them back to their subject until they expire. */
export class TokenStore {
  readonly #tokens = new Map<string, IssuedToken>();
  readonly #now: () => number;
  readonly #capacity: number;

  /** `now` returns milliseconds of a monotonic clock (performance.now). */
  constructor(now: () => number, capacity = TOKEN_STORE_CAPACITY) {
    this.#now = now;
    this.#capacity = capacity;
  }

  /** Issues a new token for `subject`, valid for `ttlSeconds` from now. */
  issue(subject: string, ttlSeconds: number): string {
    // 24 random bytes = 192 bits: unguessable, and 32 url-safe characters (RFC 6750 b64token).
    const token = randomBytes(24).toString('base64url');
    this.#tokens.set(token, { subject, expiresAt: this.#now() + ttlSeconds * 1000 });
    if (this.#tokens.size > this.#capacity) {
      const oldest = this.#tokens.keys().next();
      if (oldest.done !== true) this.#tokens.delete(oldest.value);
    }
    return token;
  }

  /** The subject of a live token; undefined when unknown, forgotten or expired. */
  subjectOf(token: string): string | undefined {
    const issued = this.#tokens.get(token);
    if (issued === undefined) return undefined;
    if (this.#now() >= issued.expiresAt) {
      this.#tokens.delete(token);
      return undefined;
    }
    return issued.subject;
  }

  /** How many tokens are remembered (expired ones linger until looked up or pushed out). */
  get size(): number {
    return this.#tokens.size;
  }
}
