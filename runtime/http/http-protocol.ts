/** The HTTP version a connection undici has opened speaks (model/http-protocols.ts's bits). */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { PROTOCOL_H2, PROTOCOL_HTTP1 } from '../../model/http-protocols.js';

/** The protocol bit of a connection undici has just opened. */
export function protocolOf(socket: Socket | TLSSocket): number {
  return 'alpnProtocol' in socket && socket.alpnProtocol === 'h2' ? PROTOCOL_H2 : PROTOCOL_HTTP1;
}
