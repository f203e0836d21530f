// A chat server built with `ws`, started on 127.0.0.1:0, that speaks the way realtime services do
// and logs every frame it sends, so a test can check from the server's side which frame a client
// took as what.
//
//   connect  /chat?user=<u>&room=<r>[&delay=ms][&ticks=N&tick_ms=ms]
//            → to the new member: {type:'welcome', user, n}
//            → to the room's others: {type:'joined', user, n}
//            → with ticks: N × {type:'tick', i, n} to the new member, every tick_ms, then none
//            → with flood: N × {type:'flood', i, n} to the new member at once
//   {type:'say', id, text}  after delay, to every member (sender included):
//                           {type:'message', from, id, text, n}
//   {type:'ping', id}       after delay, to the sender: {type:'pong', id, n}
//   {type:'ack', n}         logged: the client says the frame it took was frame n
//
// `n` numbers every frame the server sends, across connections.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Test } from 'tap';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

/** A frame the server sent. */
export interface SentFrame {
  readonly n: number;
  readonly to: string;
  readonly type: string;
  /** Whose message it carries (type message). */
  readonly from?: string;
}

/** What the server did and saw. */
export interface ChatLog {
  readonly sent: SentFrame[];
  /** Acks received: who took which frame. */
  readonly acks: { readonly user: string; readonly n: number }[];
  /** Ticks pushed, by user. */
  readonly ticks: Map<string, number>;
  /** Each pong's service time as the server saw it: from the ping's arrival to the pong's send, ms. */
  readonly pongMs: number[];
  connections: number;
}

/** A running chat server. */
export interface ChatServer {
  /** ws://127.0.0.1:port */
  readonly url: string;
  readonly log: ChatLog;
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Starts the server; the test's teardown closes it. */
export async function startChatServer(t: Test): Promise<ChatServer> {
  const log: ChatLog = { sent: [], acks: [], ticks: new Map(), pongMs: [], connections: 0 };
  const rooms = new Map<string, Map<WebSocket, string>>();
  const timers = new Set<NodeJS.Timeout>();
  let n = 0;
  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const send = (ws: WebSocket, to: string, frame: Record<string, unknown>): void => {
    if (ws.readyState !== ws.OPEN) return;
    const numbered = { ...frame, n: ++n };
    log.sent.push({
      n: numbered.n,
      to,
      type: String(frame.type),
      ...(typeof frame.from === 'string' ? { from: frame.from } : {}),
    });
    ws.send(JSON.stringify(numbered));
  };
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((_req, res) => res.writeHead(426).end());
  const sockets = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const user = query.get('user') ?? 'anonymous';
    const room = query.get('room') ?? 'lobby';
    const delay = Number(query.get('delay') ?? 0);
    wss.handleUpgrade(req, socket, head, (ws) => {
      log.connections++;
      const members = rooms.get(room) ?? new Map<WebSocket, string>();
      rooms.set(room, members);
      send(ws, user, { type: 'welcome', user });
      for (const [other, name] of members) send(other, name, { type: 'joined', user });
      members.set(ws, user);
      pushTicks(ws, user, Number(query.get('ticks') ?? 0), Number(query.get('tick_ms') ?? 10));
      const flood = Number(query.get('flood') ?? 0);
      for (let i = 1; i <= flood; i++) send(ws, user, { type: 'flood', i });
      ws.on('message', (data: RawData) => {
        const frame = JSON.parse((data as Buffer).toString()) as Record<string, unknown>;
        if (frame.type === 'say')
          later(delay, () => {
            for (const [member, name] of members)
              send(member, name, { type: 'message', from: user, id: frame.id, text: frame.text });
          });
        else if (frame.type === 'ping') {
          const arrived = performance.now();
          later(delay, () => {
            log.pongMs.push(performance.now() - arrived);
            send(ws, user, { type: 'pong', id: frame.id });
          });
        } else if (frame.type === 'ack') log.acks.push({ user, n: Number(frame.n) });
      });
      ws.on('close', () => members.delete(ws));
      ws.on('error', () => ws.terminate());
    });
  });
  const pushTicks = (ws: WebSocket, user: string, count: number, everyMs: number): void => {
    let i = 0;
    const tick = (): void => {
      if (i >= count || ws.readyState !== ws.OPEN) return;
      send(ws, user, { type: 'tick', i: ++i });
      log.ticks.set(user, (log.ticks.get(user) ?? 0) + 1);
      later(everyMs, tick);
    };
    if (count > 0) later(everyMs, tick);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}
