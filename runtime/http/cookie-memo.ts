/**
 * The cookie jar's fast path (cookie-jar.ts, issue 47): what tough-cookie would do again, done
 * without it. A target that sets a session cookie tends to send the same Set-Cookie line with
 * every response, and each request asks the jar for the same Cookie header: tough-cookie parsed
 * and stored the line, and searched its store for the header, every time (+10.8 µs a response on
 * the project's machine). Both are remembered here, and tough-cookie decides every case they do not
 * cover, so the jar's contents are the same as tough-cookie's alone (test/runtime/cookie-memo.prop.test.ts):
 *
 * - A line stored again, from a URL of the same origin and path (query aside): tough-cookie would
 *   parse it to the same cookie and replace the stored one, keeping its creation time and setting
 *   its last access to now (RFC 6265 §5.3 step 11; tough-cookie measures Max-Age from the last
 *   access). So the stored cookie's last access is set to now, as long as it is still the cookie
 *   stored under its domain, path and name (no other line replaced it since) and has not expired
 *   (an expired one, deletions by Max-Age=0 or a past Expires among them, goes to tough-cookie).
 * - The Cookie header of a URL: tough-cookie's answer is the same while nothing was stored since
 *   (the jar's version) and none of its cookies has expired; reading it sets their last access to
 *   now, as tough-cookie's own read does.
 */
import type { Cookie } from 'tough-cookie';

/** Lines and headers remembered per jar: past this many, all are forgotten (a target of many). */
const MAX_ENTRIES = 64;

/** A cookie tough-cookie would drop as expired at `now` (ms since the epoch). */
export function expired(cookie: Cookie, now: number): boolean {
  const at = cookie.expiryTime();
  return at !== undefined && at <= now;
}

/** The stored cookie's key in tough-cookie's store: domain, path, name. */
export function storeKey(cookie: Cookie): string {
  return `${cookie.domain ?? ''};${cookie.path ?? ''};${cookie.key}`;
}

/** A URL without its query and fragment: a line's defaults (domain, path) depend on no more. */
function context(url: string): string {
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  const end = query === -1 ? hash : hash === -1 ? query : Math.min(query, hash);
  return end === -1 ? url : url.slice(0, end);
}

/** One line as last stored: from where, and the cookie it became. */
interface StoredLine {
  readonly context: string;
  readonly cookie: Cookie;
  /** Its store key (storeKey). */
  readonly key: string;
}

/** One URL's header as last read: the jar's version then, and the cookies it held. */
interface ReadHeader {
  readonly version: number;
  readonly value: string;
  readonly cookies: readonly Cookie[];
}

/** The fast path of one virtual user's jar. */
export class CookieMemo {
  readonly #lines = new Map<string, StoredLine>();
  readonly #headers = new Map<string, ReadHeader>();
  /** The cookie tough-cookie holds under each store key, as far as this jar stored it. */
  readonly #current = new Map<string, Cookie>();
  /** Bumped by every change tough-cookie makes to the jar's contents. */
  #version = 0;

  /**
   * True when `line` from `url` is the line last stored from there and its cookie is still the one
   * stored: its last access is set to now, as tough-cookie's store would set it.
   */
  restored(line: string, url: string, now: number): boolean {
    const entry = this.#lines.get(line);
    if (entry === undefined || entry.context !== context(url)) return false;
    const { cookie } = entry;
    if (this.#current.get(entry.key) !== cookie || expired(cookie, now)) return false;
    cookie.lastAccessed = new Date(now);
    return true;
  }

  /** tough-cookie stored `cookie` (parsed from `line`, when it came from a Set-Cookie line). */
  stored(cookie: Cookie, url: string, line: string | undefined): void {
    this.#version++;
    const key = storeKey(cookie);
    this.#current.set(key, cookie);
    if (line === undefined) return;
    if (this.#lines.size >= MAX_ENTRIES) this.#lines.clear();
    this.#lines.set(line, { context: context(url), cookie, key });
  }

  /** The header remembered for `url`, its cookies' last access set to now; undefined: ask. */
  header(url: string, now: number): string | undefined {
    const entry = this.#headers.get(url);
    if (entry === undefined || entry.version !== this.#version) return undefined;
    for (const cookie of entry.cookies) if (expired(cookie, now)) return undefined;
    const at = new Date(now);
    for (const cookie of entry.cookies) cookie.lastAccessed = at;
    return entry.value;
  }

  /** tough-cookie's answer for `url`: these cookies, this header. */
  read(url: string, cookies: readonly Cookie[], value: string): void {
    if (this.#headers.size >= MAX_ENTRIES) this.#headers.clear();
    this.#headers.set(url, { version: this.#version, value, cookies });
  }

  /** The jar was emptied. */
  clear(): void {
    this.#version++;
    this.#lines.clear();
    this.#headers.clear();
    this.#current.clear();
  }
}
