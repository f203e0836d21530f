// A Socket.IO 4 chat server built with the official `socket.io` package, on 127.0.0.1 and an
// ephemeral port, closed in teardown. Namespace /chat takes a token in the handshake's auth
// (refused otherwise, by its middleware), greets each member with `welcome`, lets members join
// rooms through its own `join` event (acknowledged), broadcasts `say` to the room as `message`
// (acknowledged after `delay` ms of the query, the server timing its own wait), and counts what
// it sees: connections, events by name, disconnect reasons. Heartbeats every second.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

/** What the server saw. */
export interface SocketioLog {
  connections: number;
  refused: number;
  /** Events received from clients, by name. */
  received: Record<string, number>;
  /** Events the server emitted to clients, by name (a broadcast counts once per member reached). */
  emitted: Record<string, number>;
  /** Disconnect reasons, by reason. */
  disconnects: Record<string, number>;
  /** The wait before each delayed ack, as the server measured it (ms). */
  ackWaitsMs: number[];
  /** The query each connection came with. */
  queries: Record<string, string>[];
  /** Pongs the clients answered the server's pings with (Engine.IO heartbeats). */
  heartbeats: number;
  /** Bytes of the Engine.IO packets received from clients: a type character and the data. */
  bytesIn: number;
}

/** The token /chat accepts. */
export const CHAT_TOKEN = 'sesame';

/** The events of an Engine.IO server socket the log listens to. */
interface EngineSocket {
  on(event: 'heartbeat', fn: () => void): void;
  on(event: 'packet', fn: (packet: { data?: unknown }) => void): void;
}

function bump(counts: Record<string, number>, key: string, n = 1): void {
  counts[key] = (counts[key] ?? 0) + n;
}

/** Starts the server; closed when `t` ends. */
export async function startSocketioApp(t: {
  teardown: (fn: () => Promise<void> | void) => void;
}): Promise<{ url: string; log: SocketioLog; io: Server }> {
  const log: SocketioLog = {
    connections: 0,
    refused: 0,
    received: {},
    emitted: {},
    disconnects: {},
    ackWaitsMs: [],
    queries: [],
    heartbeats: 0,
    bytesIn: 0,
  };
  const http = createServer();
  const io = new Server(http, {
    pingInterval: 1000,
    pingTimeout: 1000,
    transports: ['websocket', 'polling'],
  });
  io.engine.on('connection', (engineSocket: EngineSocket) => {
    engineSocket.on('heartbeat', () => log.heartbeats++);
    engineSocket.on('packet', (packet: { data?: unknown }) => {
      const data = packet.data;
      log.bytesIn +=
        1 +
        (typeof data === 'string'
          ? Buffer.byteLength(data)
          : data instanceof Buffer
            ? data.length
            : 0);
    });
  });
  const chat = io.of('/chat');
  chat.use((socket, next) => {
    if ((socket.handshake.auth as { token?: unknown }).token === CHAT_TOKEN) next();
    else {
      log.refused++;
      next(new Error('not authorized'));
    }
  });
  chat.on('connection', (socket) => {
    log.connections++;
    log.queries.push(socket.handshake.query as Record<string, string>);
    const delay = Number(socket.handshake.query.delay ?? 0);
    socket.onAny((event: string) => bump(log.received, event));
    socket.on('disconnect', (reason) => bump(log.disconnects, reason));
    socket.emit('welcome', { id: socket.id, text: 'hello' });
    bump(log.emitted, 'welcome');
    socket.on('join', async (room: unknown, ack?: (answer: unknown) => void) => {
      const name = String((room as { room?: unknown })?.room ?? room);
      await socket.join(name);
      // A backlog of the room before the ack: a client's listen finds it queued.
      const backlog = Number((room as { backlog?: unknown })?.backlog ?? 0);
      for (let n = 1; n <= backlog; n++) socket.emit('backlog', { n });
      bump(log.emitted, 'backlog', backlog);
      ack?.({ ok: true, room: name, members: chat.adapter.rooms.get(name)?.size ?? 0 });
    });
    socket.on(
      'say',
      (message: { room?: string; text?: string }, ack?: (answer: unknown) => void) => {
        const room = message?.room ?? 'lobby';
        const members = chat.adapter.rooms.get(room)?.size ?? 0;
        chat.to(room).emit('message', { from: socket.id, text: message?.text });
        bump(log.emitted, 'message', members);
        if (ack === undefined) return;
        const start = performance.now();
        setTimeout(() => {
          log.ackWaitsMs.push(performance.now() - start);
          ack({ ok: true, id: socket.id });
        }, delay);
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  t.teardown(() => new Promise<void>((resolve) => void io.close(() => resolve())));
  return { url: `http://127.0.0.1:${port}`, log, io };
}
