/**
 * Whether a request's Accept-Encoding lets the target answer with gzip (RFC 9110 §12.5.3), read
 * by negotiator, the parser express and compression use: gzip is sent when the client prefers it
 * to identity. No header, or an empty one: identity, as compression middleware does. Like
 * express, it is lenient where the RFC is strict (`gzip;q=2` or `gzip;level=9` still allow gzip), and the obsolete `x-gzip` alone gets identity.
 */
import Negotiator from 'negotiator';

/** True when gzip may be sent to a client that sent `header`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return false;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
  return negotiator.encoding(['gzip', 'identity']) === 'gzip';
}
