/**
 * The HTTP versions a connection may speak, as negotiated by ALPN (RFC 7301): a bit each, so an
 * endpoint's figures keep the set of versions its requests used in one number (merged by OR).
 * runtime/http/http-protocol.ts reads a connection's; the reports show them by name.
 */

/** HTTP/1.1: cleartext, or TLS where the server chose http/1.1 or no ALPN at all. */
export const PROTOCOL_HTTP1 = 1;
/** HTTP/2, negotiated by ALPN over TLS. */
export const PROTOCOL_H2 = 2;

/** The ALPN names of a set of protocol bits, as the reports show them. */
export function protocolNames(bits: number): string[] {
  const names: string[] = [];
  if ((bits & PROTOCOL_HTTP1) !== 0) names.push('http/1.1');
  if ((bits & PROTOCOL_H2) !== 0) names.push('h2');
  return names;
}
