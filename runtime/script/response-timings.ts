/**
 * k6's `res.timings` phases and `res.proto` of a scripted call's final exchange (its last attempt's
 * last hop), from what the request path measured of it, in ms:
 *
 *   connecting      = the TCP connect of the connection it opened; 0 on a reused one (as k6)
 *   tls_handshaking = its TLS handshake; 0 on a reused connection or without TLS
 *   waiting         = headers − send − connecting − tls_handshaking   (http_req_waiting's figure)
 *   receiving       = end − headers                                   (end: when the call settles)
 *
 * with send, headers and end on the request path's µs clock; 0 when no headers came. `sending`
 * (undici tells no "request written" moment: the write is inside waiting) and `blocked` (a virtual
 * user's calls wait for no connection slot) are not measured: the isolate gives them as 0.
 */
import type { VirtualUser } from '../user/virtual-user.js';
import { PROTOCOL_H2 } from '../../model/http-protocols.js';

/** The phases of `lane`'s last exchange, ending at `endUs`, and its protocol. */
export function responseTimings(
  lane: VirtualUser,
  endUs: number,
): {
  connectingMs: number;
  tlsMs: number;
  waitingMs: number;
  receivingMs: number;
  protocol: string;
} {
  const exchange = lane.exchange;
  const connectUs = Math.max(0, lane.connectUs);
  const tlsUs = Math.max(0, lane.tlsUs);
  const headersUs = exchange.headersUs;
  const came = headersUs >= 0;
  return {
    connectingMs: connectUs / 1000,
    tlsMs: tlsUs / 1000,
    waitingMs: came ? Math.max(0, headersUs - exchange.sendUs - connectUs - tlsUs) / 1000 : 0,
    receivingMs: came ? Math.max(0, endUs - headersUs) / 1000 : 0,
    protocol:
      exchange.status === 0
        ? ''
        : lane.protocolOf(lane.sent.origin) === PROTOCOL_H2
          ? 'HTTP/2.0'
          : 'HTTP/1.1',
  };
}
