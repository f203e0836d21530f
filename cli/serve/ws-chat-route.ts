/**
 * /ws/chat: a WebSocket chat room, for showing and testing how realtime services speak. A member
 * connects to /ws/chat?room=<name>&token=t-<user>, gets a welcome, and hears what its room says;
 * chat-frames.ts has every frame. `?delay=ms` (0..60000) is waited before each say is broadcast
 * and each ping answered, so a client measures round trips against a known service time;
 * `?tick=ms` (10..60000) pushes a numbered tick to that member every tick ms. A plain GET is
 * answered 426; a missing or malformed token refuses the upgrade with 401, a bad room, delay or
 * tick with 400, a full room (or one room too many) with 503. Frames above 64 KiB close the
 * connection (1009); anything else a member sends wrong is answered with an error frame.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { parseBoundedInt } from './bounded-int.js';
import {
  messageFrame,
  pongFrame,
  presenceFrame,
  readChatFrame,
  tickFrame,
  welcomeFrame,
} from './chat-frames.js';
import { sendFrame, type ChatMember, type ChatRooms } from './chat-rooms.js';
import { sendPrebuilt, UPGRADE_REQUIRED } from './respond.js';
import type { TargetContext } from './target-route.js';
import { upgradeRefusal } from './upgrade-refusal.js';

/** Largest frame /ws/chat accepts. */
export const MAX_CHAT_FRAME = 64 * 1024;
/** Longest say and ping delay /ws/chat accepts, ms. */
export const MAX_CHAT_DELAY_MS = 60_000;
/** Shortest and longest tick interval /ws/chat accepts, ms. */
export const CHAT_TICK_RANGE_MS = [10, 60_000] as const;

/** A token is `t-<user>`; a user and a room are 1 to 32 of these characters. */
const TOKEN = /^t-([A-Za-z0-9_.-]{1,32})$/;
const NAME = /^[A-Za-z0-9_.-]{1,32}$/;

// The token itself is never echoed: it is a secret, even a demo one.
const BAD_TOKEN = upgradeRefusal(
  401,
  'Unauthorized',
  'token must be t-<user>, the user 1-32 characters of A-Za-z0-9_.-',
);

// Handshakes only: noServer, and the target server destroys upgraded sockets on close().
const chatServer = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  maxPayload: MAX_CHAT_FRAME,
});

/** What a valid upgrade asked for. */
interface ChatQuery {
  readonly user: string;
  readonly room: string;
  readonly delay: number;
  /** Interval of the tick feed, ms; 0 for none. */
  readonly tick: number;
}

/** Reads the query; a refusal (401, or 400 naming every bad parameter) when it is not valid. */
function readQuery(url: string): ChatQuery | { readonly refusal: string } {
  const mark = url.indexOf('?');
  const params = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const user = TOKEN.exec(params.get('token') ?? '')?.[1];
  if (user === undefined) return { refusal: BAD_TOKEN };
  const room = params.get('room') ?? 'lobby';
  const delay = parseBoundedInt(params.get('delay') ?? '0', 0, MAX_CHAT_DELAY_MS);
  const tickText = params.get('tick');
  const tick = tickText === null ? 0 : parseBoundedInt(tickText, ...CHAT_TICK_RANGE_MS);
  const problems: string[] = [];
  if (!NAME.test(room)) problems.push('room must be 1-32 characters of A-Za-z0-9_.-');
  if (delay === undefined) problems.push(`delay must be an integer 0..${MAX_CHAT_DELAY_MS}`);
  if (tick === undefined) problems.push(`tick must be an integer ${CHAT_TICK_RANGE_MS.join('..')}`);
  if (delay === undefined || tick === undefined || problems.length > 0) {
    return { refusal: upgradeRefusal(400, 'Bad Request', problems.join('; ')) };
  }
  return { user, room, delay, tick };
}

/** A plain HTTP request to /ws/chat: 426, with the Upgrade header a client needs. */
export function wsChatRequest(_req: IncomingMessage, res: ServerResponse): void {
  sendPrebuilt(res, UPGRADE_REQUIRED);
}

/** The upgrade of /ws/chat: the token, room and bounds checked, the handshake, then the chat. */
export function wsChatUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  context: TargetContext,
): void {
  const query = readQuery(req.url ?? '');
  if ('refusal' in query) return void socket.end(query.refusal);
  const full = context.chatRooms.refusal(query.room);
  if (full !== undefined) {
    return void socket.end(upgradeRefusal(503, 'Service Unavailable', full));
  }
  // The handshake completes synchronously (no verifyClient, no extensions), so no other upgrade
  // can take the place refusal() just found free.
  chatServer.handleUpgrade(req, socket, head, (ws) => chat(ws, query, context.chatRooms));
}

function chat(ws: WebSocket, query: ChatQuery, rooms: ChatRooms): void {
  const { user, room, delay, tick } = query;
  const member: ChatMember = { ws, user, room };
  const timers = new Set<NodeJS.Timeout>();
  // Runs `act` after the route's delay; the timer is dropped when the member leaves.
  const later = (act: () => void): void => {
    if (delay === 0) return act();
    const timer = setTimeout(() => {
      timers.delete(timer);
      act();
    }, delay);
    timers.add(timer);
  };
  ws.on('error', () => ws.terminate());
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const request = readChatFrame(data as Buffer, isBinary);
    if (request.type === 'error') return sendFrame(ws, request.frame);
    if (request.type === 'ping') return later(() => sendFrame(ws, pongFrame(request.id)));
    later(() => rooms.broadcast(room, messageFrame(user, request.id, request.text, room)));
  });
  let ticks = 0;
  const ticker =
    tick === 0 ? undefined : setInterval(() => sendFrame(ws, tickFrame(++ticks, Date.now())), tick);
  // A member gone (or close()) must leave no timer writing to a dead socket, and no trace.
  ws.on('close', () => {
    for (const timer of timers) clearTimeout(timer);
    clearInterval(ticker);
    rooms.leave(member);
    rooms.broadcast(room, presenceFrame('left', user, room));
  });
  const members = rooms.join(member);
  sendFrame(ws, welcomeFrame(user, room, members));
  rooms.broadcast(room, presenceFrame('joined', user, room), member);
}
