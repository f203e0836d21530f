// WebSocket sessions run through a real segment (scheduler, workers, deadline sweep) against a
// `ws` WebSocketServer on 127.0.0.1:0 whose behaviour each test picks: counts match the server's,
// delays bound the round trips from below, binary frames come back, extractors read JSON frames,
// and every fault is counted under its kind while the workers carry on.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import t, { type Test } from 'tap';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { runInThread as run } from '../helpers/segment-run.js';

/** What the server saw. */
interface Seen {
  connections: number;
  /** Data frames received and sent by the server, with their payloads. */
  received: { data: Buffer; binary: boolean }[];
  sent: number;
  bytesSent: number;
  /** Handshake requests (url and headers). */
  requests: IncomingMessage[];
}

/** How the server treats a connection: called on each message with its index in the session. */
type Behaviour = (ws: WebSocket, data: RawData, binary: boolean, index: number) => void;

interface TestServer {
  readonly ws: string;
  readonly http: string;
  readonly seen: Seen;
}

/** Replies with the same frame (text stays text, binary stays binary). */
const echo: Behaviour = (ws, data, binary) => ws.send(data, { binary });

async function startServer(
  t: Test,
  behaviour: Behaviour,
  options: { raw?: string; delayMs?: number } = {},
): Promise<TestServer> {
  const seen: Seen = { connections: 0, received: [], sent: 0, bytesSent: 0, requests: [] };
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('chat.v1') ? 'chat.v1' : false),
  });
  wss.on('headers', (headers) => headers.push('X-Session: s-42'));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"room":"r1"}');
  });
  const sockets = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    seen.requests.push(req);
    if (options.raw !== undefined) {
      socket.end(options.raw);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      seen.connections++;
      let index = 0;
      const realSend = ws.send.bind(ws);
      ws.send = ((data: Buffer, opts: { binary: boolean }) => {
        seen.sent++;
        seen.bytesSent += data.length;
        realSend(data, opts);
      }) as typeof ws.send;
      ws.on('message', (data: RawData, binary: boolean) => {
        const bytes = data as Buffer;
        seen.received.push({ data: bytes, binary });
        const i = index++;
        if (options.delayMs === undefined) behaviour(ws, bytes, binary, i);
        else setTimeout(() => behaviour(ws, bytes, binary, i), options.delayMs);
      });
      ws.on('error', () => ws.terminate());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { ws: `ws://127.0.0.1:${port}`, http: `http://127.0.0.1:${port}`, seen };
}

const BINARY = Buffer.from([0, 1, 2, 254, 255]);

t.test('message counts match the server, binary frames round-trip', async (t) => {
  const server = await startServer(t, echo);
  const result = await run({
    concurrency: 2,
    requests: 6,
    endpoints: [
      {
        name: 'feed',
        url: `${server.ws}/echo`,
        messages: [
          { text: '{"op":"sub"}' },
          { binary: `base64:${BINARY.toString('base64')}` },
          { text: 'n={{$randomInt 1 9}}' },
        ],
      },
    ],
  });
  const ws = result.websocket!;
  t.equal(ws.sessions, 6);
  t.equal(ws.failures, 0);
  t.equal(server.seen.connections, 6, 'one connection per session');
  t.equal(ws.msgs_sent, server.seen.received.length, 'sent = what the server received');
  t.equal(ws.msgs_received, server.seen.sent, 'received = what the server sent');
  t.equal(ws.msgs_sent, 18);
  t.equal(result.bytes_received, server.seen.bytesSent, 'bytes received = bytes the server sent');
  const binaries = server.seen.received.filter((f) => f.binary);
  t.equal(binaries.length, 6, 'the binary message went out as a binary frame');
  for (const frame of binaries) t.strictSame(frame.data, BINARY);
  const texts = server.seen.received.filter((f) => !f.binary).map((f) => f.data.toString());
  t.ok(
    texts.every((x) => x === '{"op":"sub"}' || /^n=[1-9]$/.test(x)),
    'placeholders filled',
  );
  t.strictSame(result.status_codes, { '101': 6 });
  t.strictSame(result.errors, {});
  t.strictSame(
    [result.total, result.successes, result.failures],
    [6, 6, 0],
    'sessions are requests',
  );
  t.equal(result.latency_ms, undefined, 'no HTTP latency in a WebSocket-only run');
  t.equal(result.endpoints[0]!.requests, 6);
  t.strictSame(result.endpoints[0]!.websocket, ws);
  t.ok(ws.connecting_ms !== undefined, 'connect times recorded');
  t.ok(ws.message_rtt_ms !== undefined, 'round trips recorded');
});

t.test('a server that delays replies gives round trips of at least the delay', async (t) => {
  const delayMs = 40;
  const server = await startServer(t, echo, { delayMs });
  const result = await run({
    concurrency: 2,
    requests: 4,
    endpoints: [
      {
        url: `${server.ws}/slow`,
        messages: [{ text: 'a' }, { text: 'b' }],
        message_interval: '20ms',
      },
    ],
  });
  const ws = result.websocket!;
  t.equal(ws.failures, 0);
  // A libuv timer counts from the loop's cached millisecond clock, so it may fire up to 1 ms
  // before the delay has fully passed since the frame arrived: 1 ms of slack per timer.
  const rttFloor = delayMs - 1;
  t.ok(ws.message_rtt_ms!.min >= rttFloor, `rtt min ${ws.message_rtt_ms!.min} ≥ ${rttFloor}`);
  t.ok(ws.message_rtt_ms!.p50 < 60_000, 'and below the timeout');
  // Each session: 2 × (delay + interval) at least, the last interval included (spec §1.9).
  const floor = 2 * (delayMs + 20) - 4;
  t.ok(ws.session_duration_ms!.min >= floor, `session ${ws.session_duration_ms!.min} ≥ ${floor}`);
  // Each session's connecting is part of it, so the shortest and the longest are too.
  t.ok(ws.connecting_ms!.min <= ws.session_duration_ms!.min, 'connecting is part of the session');
  t.ok(ws.connecting_ms!.max <= ws.session_duration_ms!.max, 'even the longest connecting');
});

t.test('extractors read JSON frames and the handshake headers', async (t) => {
  const reply: Behaviour = (ws, _data, _binary, index) =>
    ws.send(JSON.stringify({ seq: index, token: `t${index}` }));
  const server = await startServer(t, reply);
  const result = await run({
    concurrency: 1,
    requests: 1,
    endpoints: [
      {
        url: `${server.ws}/json`,
        extract: { token: '$.token', session: { header: 'x-session' } },
        messages: [
          { text: 'hello' },
          { text: 'use {{token}} in {{session}}' },
          { text: '{{token}}' },
        ],
      },
    ],
  });
  t.equal(result.failures, 0);
  t.same(
    server.seen.received.map((f) => f.data.toString()),
    ['hello', 'use t0 in s-42', 't1'],
  );
});

t.test('auth, headers with placeholders and subprotocols apply to the handshake', async (t) => {
  const server = await startServer(t, echo);
  const result = await run({
    concurrency: 1,
    requests: 2,
    auth: { type: 'bearer', token: 'tok-123' },
    headers: { 'X-Trace': 'trace-{{$randomInt 1 1}}' },
    endpoints: [
      {
        url: `${server.ws}/chat?room=lobby`,
        subprotocols: ['chat.v2', 'chat.v1'],
        messages: [{ text: 'hi' }],
      },
    ],
  });
  t.equal(result.failures, 0);
  t.equal(server.seen.requests.length, 2);
  for (const req of server.seen.requests) {
    t.equal(req.url, '/chat?room=lobby');
    t.equal(req.headers.authorization, 'Bearer tok-123');
    t.equal(req.headers['x-trace'], 'trace-1');
    t.equal(req.headers['sec-websocket-protocol'], 'chat.v2,chat.v1');
    t.equal(req.headers['user-agent'], 'barrage-test');
    t.equal(req.headers['sec-websocket-extensions'], undefined, 'no compression offered');
  }
});

t.test('a missing variable: the session is unsent, nothing connects', async (t) => {
  const server = await startServer(t, echo);
  const result = await run({
    concurrency: 1,
    requests: 3,
    endpoints: [{ url: `${server.ws}/echo?user={{user}}`, messages: [{ text: 'x' }] }],
  });
  t.strictSame(result.errors, {});
  t.strictSame(result.unsent_errors, { missing_variable: 3 }, 'unsent, not requests');
  t.equal(server.seen.requests.length, 0, 'nothing was sent');
  t.equal(result.websocket, undefined, 'no session was opened');
});

t.test('sessions take part in flows, fed by an HTTP step', async (t) => {
  const server = await startServer(t, echo);
  const result = await run({
    concurrency: 1,
    requests: 2,
    endpoints: [
      { name: 'room', url: `${server.http}/room`, extract: { room: '$.room' } },
      { name: 'feed', url: `${server.ws}/echo?room={{room}}`, messages: [{ text: 'x' }] },
    ],
    flows: [{ name: 'join', steps: ['room', 'feed'] }],
  });
  t.equal(result.failures, 0);
  t.strictSame(
    result.endpoints.map((e) => [e.name, e.requests, e.websocket?.sessions]),
    [
      ['room', 2, undefined],
      ['feed', 2, 2],
    ],
  );
  t.same(
    server.seen.requests.map((r) => r.url),
    ['/echo?room=r1', '/echo?room=r1'],
  );
  t.equal(result.latency_ms!.p50 > 0, true, 'the HTTP step has latency');
});

/** A fault: the server's behaviour (or raw handshake answer), the kinds expected, more checks. */
interface FaultCase {
  readonly name: string;
  readonly behaviour: Behaviour;
  readonly raw?: string;
  readonly timeout?: string;
  readonly errors: Record<string, number>;
  readonly check?: (t: Test, result: RunResult, seen: Seen) => void;
}

const FAULTS: readonly FaultCase[] = [
  {
    name: 'the server refuses the upgrade (403)',
    behaviour: echo,
    raw: 'HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n',
    errors: { ws_handshake: 3 },
    check: (t, result) => {
      t.strictSame(result.status_codes, { '403': 3 });
      t.equal(result.websocket!.connecting_ms, undefined, 'never connected');
      t.equal(result.websocket!.msgs_sent, 0);
    },
  },
  {
    name: 'the server answers 101 with a wrong Sec-WebSocket-Accept',
    behaviour: echo,
    raw:
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n' +
      'sec-websocket-accept: bogus\r\n\r\n',
    errors: { ws_handshake: 3 },
    check: (t, result) => t.equal(result.websocket!.connecting_ms, undefined, 'never opened'),
  },
  {
    name: 'the server destroys the socket mid-session',
    behaviour: (ws, data, binary, index) =>
      index === 1 ? ws.terminate() : echo(ws, data, binary, 0),
    errors: { ws_abnormal_close: 3 },
    check: (t, result, seen) => {
      t.equal(result.websocket!.msgs_sent, 6, 'two sent per session');
      t.equal(result.websocket!.msgs_received, 3, 'one answered per session');
      t.equal(seen.sent, 3);
      t.strictSame(result.status_codes, { '101': 3 }, 'the handshake had succeeded');
    },
  },
  {
    name: 'the server closes normally before answering everything',
    behaviour: (ws, data, binary, index) =>
      index === 1 ? ws.close(1000) : echo(ws, data, binary, 0),
    errors: { ws_abnormal_close: 3 },
  },
  {
    name: 'the server never answers (bounded by timeout)',
    behaviour: () => undefined,
    timeout: '300ms',
    errors: { ws_timeout: 3 },
    check: (t, result) => {
      t.equal(result.websocket!.msgs_received, 0);
      t.equal(result.websocket!.message_rtt_ms, undefined);
    },
  },
  {
    name: 'the server never acknowledges the close (bounded by timeout)',
    behaviour: (ws, data, binary, index) => {
      echo(ws, data, binary, 0);
      // Stop reading: our close frame is never seen, so never answered.
      if (index === 2) ws.pause();
    },
    timeout: '300ms',
    errors: { ws_timeout: 3 },
    check: (t, result) => {
      t.equal(result.websocket!.msgs_received, 9, 'every message was answered');
      t.equal(result.websocket!.msgs_sent, 9);
    },
  },
  {
    name: 'a message above maxPayload (1 MiB) closes the session',
    behaviour: (ws) => ws.send(Buffer.alloc(1024 * 1024 + 1)),
    errors: { ws_abnormal_close: 3 },
  },
];

for (const fault of FAULTS) {
  t.test(`${fault.name}: a measured error, the worker carries on`, async (t) => {
    const server = await startServer(
      t,
      fault.behaviour,
      fault.raw === undefined ? {} : { raw: fault.raw },
    );
    const result = await run({
      concurrency: 1,
      requests: 3,
      timeout: fault.timeout ?? '5s',
      endpoints: [
        { url: `${server.ws}/fault`, messages: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
      ],
    });
    t.strictSame(result.errors, fault.errors);
    t.equal(result.total, 3, 'every permit became a session');
    t.equal(server.seen.requests.length, 3, 'the worker tried again after each failure');
    t.equal(result.websocket!.sessions, 3);
    t.equal(result.websocket!.failures, 3);
    fault.check?.(t, result, server.seen);
  });
}

t.test('a server that closes cleanly after the last reply ends the session well', async (t) => {
  const server = await startServer(t, (ws, data, binary, index) => {
    echo(ws, data, binary, 0);
    if (index === 1) ws.close(1000);
  });
  const result = await run({
    concurrency: 1,
    requests: 2,
    endpoints: [{ url: `${server.ws}/bye`, messages: [{ text: 'a' }, { text: 'b' }] }],
  });
  t.strictSame(result.errors, {});
  t.equal(result.websocket!.msgs_received, 4);
});

t.test('a refused connection is counted as refused, as for HTTP', async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const result = await run({
    concurrency: 1,
    requests: 2,
    endpoints: [{ url: `ws://127.0.0.1:${port}/gone`, messages: [{ text: 'a' }] }],
  });
  t.strictSame(result.errors, { refused: 2 });
  t.strictSame(result.status_codes, {}, 'no response, no status');
});

t.test('a hard stop cuts a stuck session', async (t) => {
  const hardStop = new AbortController();
  const server = await startServer(t, () => hardStop.abort());
  const result = await run(
    {
      concurrency: 1,
      requests: 1,
      timeout: '60s',
      endpoints: [{ url: `${server.ws}/stuck`, messages: [{ text: 'a' }] }],
    },
    hardStop.signal,
  );
  // Without the hard stop the session would wait 60 s and end as ws_timeout.
  t.strictSame(result.errors, { aborted: 1 });
});
