/**
 * The session app's sessions, in memory. A load test may open millions of them (a client without
 * a cookie jar starts one per login page), so the store is bounded: past its capacity the oldest
 * session created is forgotten (Map keeps insertion order), and its holder is simply logged out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Default number of sessions kept before the oldest is dropped. */
export const SESSION_STORE_CAPACITY = 100_000;

/** One session: its synchroniser CSRF token and, once logged in, its user. */
export interface Session {
  readonly csrfToken: string;
  readonly user: string | undefined;
}

/** A session together with the id its cookie carries. */
export interface SessionEntry {
  readonly id: string;
  readonly session: Session;
}

// 24 random bytes = 192 bits: unguessable, and 32 cookie-safe base64url characters.
function randomId(): string {
  return randomBytes(24).toString('base64url');
}

/** Creates, finds, rotates and ends sessions, keeping at most `capacity` of them. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #capacity: number;

  constructor(capacity = SESSION_STORE_CAPACITY) {
    this.#capacity = capacity;
  }

  /** Starts a session (anonymous unless `user` is given) with a fresh id and CSRF token. */
  create(user?: string): SessionEntry {
    const id = randomId();
    const session = { csrfToken: randomId(), user };
    this.#sessions.set(id, session);
    if (this.#sessions.size > this.#capacity) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done !== true) this.#sessions.delete(oldest.value);
    }
    return { id, session };
  }

  /** The session of `id`; undefined when unknown, ended or pushed out. */
  get(id: string | undefined): Session | undefined {
    return id === undefined ? undefined : this.#sessions.get(id);
  }

  /**
   * Logs `user` in: the old session ends and a new one, with a new id and token, takes its
   * place, so an id handed out before login (session fixation) is worth nothing after it.
   */
  rotate(oldId: string, user: string): SessionEntry {
    this.#sessions.delete(oldId);
    return this.create(user);
  }

  /** Ends the session of `id`; true when there was one. */
  end(id: string | undefined): boolean {
    return id !== undefined && this.#sessions.delete(id);
  }

  /** How many sessions are kept. */
  get size(): number {
    return this.#sessions.size;
  }
}

/** True when `given` is the session's token; compared in constant time, as tokens are secrets. */
export function csrfTokenMatches(session: Session, given: string | null): boolean {
  if (given === null) return false;
  const expected = Buffer.from(session.csrfToken, 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
