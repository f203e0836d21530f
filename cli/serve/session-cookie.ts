/**
 * The session app's cookie: read from the request's Cookie header, written with Set-Cookie, both
 * through tough-cookie (no hand-written cookie syntax). The request header is (RFC 6265 §4.2.1)
 *
 *   cookie-string = cookie-pair *( ";" SP cookie-pair )
 *   cookie-pair   = cookie-name "=" cookie-value
 *
 * and ';' cannot occur inside a pair (cookie-octet excludes it), so each piece between ';' is one
 * cookie-pair, which tough-cookie parses.
 */
import { Cookie } from 'tough-cookie';

/** The name of the session cookie. */
export const SESSION_COOKIE = 'sid';

/** The session id the request carries, or undefined; the first `sid` pair wins. */
export function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const piece of cookieHeader.split(';')) {
    const cookie = Cookie.parse(piece.trim());
    if (cookie?.key === SESSION_COOKIE && cookie.value !== '') return cookie.value;
  }
  return undefined;
}

/** The Set-Cookie value handing out session `id`: HttpOnly, site-wide, SameSite=Lax. */
export function sessionCookie(id: string): string {
  return new Cookie({
    key: SESSION_COOKIE,
    value: id,
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
  }).toString();
}

/** The Set-Cookie value that removes the session cookie (expired at the epoch). */
export function expiredSessionCookie(): string {
  return new Cookie({
    key: SESSION_COOKIE,
    value: '',
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    expires: new Date(0),
  }).toString();
}
