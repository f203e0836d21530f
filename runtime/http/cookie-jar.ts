/**
 * A virtual user's cookies (RFC 6265), kept by tough-cookie: domain, path, expiry, Secure,
 * HttpOnly and SameSite as a browser keeps them. The jar is made on the first Set-Cookie, so a
 * target that sets none costs nothing per request. The target writes Set-Cookie: a malformed one
 * is ignored as a browser ignores it, and the jar is bounded as browsers bound theirs, so that a
 * target cannot grow a worker's memory or its requests without end: a cookie of more than
 * MAX_COOKIE_BYTES (name and value) is ignored, a domain keeps at most MAX_COOKIES_PER_DOMAIN and
 * a user MAX_COOKIES (later ones are ignored), and the Cookie header sent is cut to
 * MAX_COOKIE_HEADER_BYTES at a cookie's end. Without these, 2 × 8 KB cookies a response filled
 * the jar and sent a 2.4 MB Cookie header with each request (25 MiB a virtual user).
 * The same line stored again, and the same header read again, skip tough-cookie while its answer
 * cannot have changed (cookie-memo.ts).
 */
import { Cookie, CookieJar, cookieCompare } from 'tough-cookie';
import type { CookieAttributes } from '../../sandbox/isolate/host-calls.js';
import { CookieMemo } from './cookie-memo.js';

/** Cookies one virtual user keeps (later ones are ignored while it holds this many). */
export const MAX_COOKIES = 300;
/** Cookies one domain keeps for a user (Chromium's 180; RFC 6265 §6.1 asks at least 50). */
export const MAX_COOKIES_PER_DOMAIN = 180;
/** Largest cookie kept, its name and value in bytes (browsers' 4096; RFC 6265 §6.1's minimum). */
export const MAX_COOKIE_BYTES = 4096;
/** Longest Cookie header sent: the first cookies that fit (Node's servers take 16 KiB of headers). */
export const MAX_COOKIE_HEADER_BYTES = 16 * 1024;
/** Longest Set-Cookie line read (a cookie of MAX_COOKIE_BYTES and its attributes). */
const MAX_LINE = 8192;

/** One virtual user's cookie jar. */
export class UserCookies {
  #jar: CookieJar | undefined;
  /** The value of each cookie stored by domain;path;name: the count MAX_COOKIES bounds. */
  readonly #keys = new Map<string, string>();
  /** Cookies stored per domain: the count MAX_COOKIES_PER_DOMAIN bounds. */
  readonly #perDomain = new Map<string, number>();
  readonly #memo = new CookieMemo();

  /** The Cookie header value for a request to origin + path, or undefined when there is none. */
  header(origin: string, path: string): string | undefined {
    if (this.#jar === undefined) return undefined;
    const url = origin + path;
    let value = this.#memo.header(url, Date.now());
    if (value === undefined) {
      // As tough-cookie's getCookieStringSync, keeping the cookies for the memo.
      const cookies = this.#jar.getCookiesSync(url).sort(cookieCompare);
      value = cookies.map((cookie) => cookie.cookieString()).join('; ');
      this.#memo.read(url, cookies, value);
    }
    if (value === '') return undefined;
    if (value.length <= MAX_COOKIE_HEADER_BYTES) return value;
    const cut = value.lastIndexOf('; ', MAX_COOKIE_HEADER_BYTES);
    return cut <= 0 ? undefined : value.slice(0, cut);
  }

  /** Stores a response's Set-Cookie values, as sent from `url`. */
  store(url: string, lines: readonly string[]): void {
    for (const line of lines) {
      if (line.length > MAX_LINE || this.#memo.restored(line, url, Date.now())) continue;
      try {
        const cookie = Cookie.parse(line);
        if (cookie !== undefined) this.#put(cookie, url, line);
      } catch {
        // What tough-cookie cannot take, a browser would drop too.
      }
    }
  }

  /** Stores the Set-Cookie values of a response from `url`: `indexes` into its raw headers. */
  storeFrom(url: string, headers: readonly Buffer[], indexes: readonly number[]): void {
    this.store(
      url,
      indexes.map((i) => headers[i]!.toString('utf8')),
    );
  }

  /**
   * Sets a cookie for `url` as if the target had sent it (a scenario's jar.set): host-only on the
   * default path unless `attributes` say otherwise; a domain the url is not in is refused by the
   * jar, as a browser refuses it (nothing is stored).
   */
  set(url: string, name: string, value: string, attributes: CookieAttributes = {}): void {
    const { domain, path, expires, maxAge, secure, httpOnly } = attributes;
    const cookie = new Cookie({ key: name, value });
    if (domain !== undefined) cookie.domain = domain.replace(/^\./, '').toLowerCase();
    if (path !== undefined) cookie.path = path;
    if (expires !== undefined) cookie.expires = new Date(expires);
    if (maxAge !== undefined) cookie.maxAge = maxAge;
    if (secure !== undefined) cookie.secure = secure;
    if (httpOnly !== undefined) cookie.httpOnly = httpOnly;
    this.#put(cookie, url);
  }

  /** Forgets the cookies a request to `url` would send (of that `name` only, when given). */
  remove(url: string, name?: string): void {
    const jar = this.#jar;
    if (jar === undefined) return;
    // The memo's headers and lines may hold what goes: it starts again from the jar.
    this.#memo.clear();
    for (const cookie of jar.getCookiesSync(url)) {
      if (name !== undefined && cookie.key !== name) continue;
      const domain = (cookie.domain ?? '').toLowerCase();
      jar.store.removeCookie(cookie.domain, cookie.path, cookie.key, () => undefined);
      // #put keyed it before the jar gave it its default path: by its path, or by none.
      const removed = [cookie.path ?? '', ''].some((path) =>
        this.#keys.delete(`${domain};${path};${cookie.key}`),
      );
      if (removed) this.#perDomain.set(domain, Math.max(0, (this.#perDomain.get(domain) ?? 1) - 1));
    }
  }

  /** The cookies a request to `url` would send, by name. */
  forUrl(url: string): Record<string, string> {
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const cookie of this.#jar?.getCookiesSync(url) ?? []) out[cookie.key] = cookie.value;
    return out;
  }

  /** The values of the cookies stored, which the debug log and the reports hide. */
  values(): IterableIterator<string> {
    return this.#keys.values();
  }

  /** Forgets every cookie. */
  clear(): void {
    this.#jar?.removeAllCookiesSync();
    this.#memo.clear();
    this.#keys.clear();
    this.#perDomain.clear();
  }

  /** Stores a cookie (parsed from `line`, when it came from a Set-Cookie line). */
  #put(cookie: Cookie, url: string, line?: string): void {
    if (Buffer.byteLength(cookie.key) + Buffer.byteLength(cookie.value) > MAX_COOKIE_BYTES) return;
    const host = new URL(url).hostname;
    const domain = (cookie.domain ?? host).replace(/^\./, '').toLowerCase();
    const key = `${domain};${cookie.path ?? ''};${cookie.key}`;
    const known = this.#keys.has(key);
    const inDomain = this.#perDomain.get(domain) ?? 0;
    if (!known && (this.#keys.size >= MAX_COOKIES || inDomain >= MAX_COOKIES_PER_DOMAIN)) return;
    this.#jar ??= new CookieJar();
    // ignoreError: a cookie the jar refuses (another domain, a bad prefix) is dropped, as a
    // browser drops it.
    const stored = this.#jar.setCookieSync(cookie, url, { ignoreError: true });
    if (stored === undefined) return;
    this.#memo.stored(stored, url, line);
    this.#keys.set(key, cookie.value);
    if (!known) this.#perDomain.set(domain, inDomain + 1);
  }
}

/**
 * A configured Cookie header merged with the jar's (as k6 does): the configured pairs first, then
 * the jar's cookies of other names; a name in both is sent once, with the configured value.
 */
export function mergeCookieHeader(configured: string, jar: string): string {
  const names = new Set(configured.split(';').map((pair) => pair.split('=')[0]!.trim()));
  const rest = jar
    .split('; ')
    .filter((pair) => !names.has(pair.slice(0, Math.max(0, pair.indexOf('=')))));
  return rest.length === 0 ? configured : `${configured}; ${rest.join('; ')}`;
}
