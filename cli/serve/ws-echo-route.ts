/**
 * /ws/echo: a WebSocket echo for trying and testing WebSocket endpoints. Every text frame comes
 * back as text and every binary frame as binary, in order, after `?delay=ms` (an integer
 * 0..60000, default 0). A plain GET is answered 426 Upgrade Required; a bad delay refuses the
 * upgrade with 400. Frames above 1 MiB close the connection (1009).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { parseBoundedInt } from './bounded-int.js';
import { upgradeRefusal } from './upgrade-refusal.js';
import { sendPrebuilt, UPGRADE_REQUIRED } from './respond.js';

/** Largest frame /ws/echo accepts. */
export const MAX_ECHO_FRAME = 1024 * 1024;
/** Longest reply delay /ws/echo accepts, ms. */
export const MAX_ECHO_DELAY_MS = 60_000;

const BAD_DELAY = upgradeRefusal(
  400,
  'Bad Request',
  `delay must be an integer 0..${MAX_ECHO_DELAY_MS}`,
);

// Handshakes only: noServer, and the target server destroys upgraded sockets on close().
const echoServer = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  maxPayload: MAX_ECHO_FRAME,
});

/** A plain HTTP request to /ws/echo: 426, with the Upgrade header a client needs. */
export function wsEchoRequest(_req: IncomingMessage, res: ServerResponse): void {
  sendPrebuilt(res, UPGRADE_REQUIRED);
}

/** The upgrade of /ws/echo: the handshake, then the echo. */
export function wsEchoUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  const text = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)).get('delay') ?? '0';
  const delay = parseBoundedInt(text, 0, MAX_ECHO_DELAY_MS);
  if (delay === undefined) return void socket.end(BAD_DELAY);
  echoServer.handleUpgrade(req, socket, head, (ws) => echo(ws, delay));
}

function echo(ws: WebSocket, delay: number): void {
  ws.on('error', () => ws.terminate());
  if (delay === 0) {
    ws.on('message', (data: RawData, isBinary: boolean) => ws.send(data, { binary: isBinary }));
    return;
  }
  const timers = new Set<NodeJS.Timeout>();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (ws.readyState === ws.OPEN) ws.send(data, { binary: isBinary });
    }, delay);
    timers.add(timer);
  });
  // A client gone (or close()) must not leave timers writing to a dead socket.
  ws.on('close', () => {
    for (const timer of timers) clearTimeout(timer);
  });
}
