// Socket.IO sessions run through a real segment against a socket.io 4 chat server
// (test/helpers/socketio-app.ts) that counts what it sees: connects through its token middleware,
// the welcome taken by a receive step, rooms joined through the app's own event and acknowledged,
// broadcasts received, acks timed against the server's own wait, and every count equal to the
// server's. (The ten-second heartbeat session is in socketio-heartbeat.test.ts.)
import t from 'tap';
import { eventually } from '../helpers/eventually.js';
import { CHAT_TOKEN, startSocketioApp, type SocketioLog } from '../helpers/socketio-app.js';
import { runInThread as run } from '../helpers/segment-run.js';

/** The socketio block of a run's result. */
interface SocketioResult {
  readonly sessions: number;
  readonly events_sent: number;
  readonly events_received: number;
  readonly connecting_ms?: { readonly min: number };
  readonly ack_duration_ms?: { readonly min: number; readonly max: number };
  readonly session_duration_ms?: { readonly min: number };
}

function socketioOf(result: object): SocketioResult {
  return (result as { socketio: SocketioResult }).socketio;
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Waits until the server has seen `n` disconnects (they reach it after the run's end). */
async function disconnected(log: SocketioLog, n: number): Promise<void> {
  await eventually(() => sum(log.disconnects) >= n, 5000);
}

t.test(
  'a chat session: welcome, a room joined, say with acks; counts equal to the server',
  async (t) => {
    const app = await startSocketioApp(t);
    const result = await run({
      concurrency: 3,
      requests: 6,
      endpoints: [
        {
          name: 'chat',
          url: app.url,
          socketio: {
            namespace: '/chat',
            auth: { token: CHAT_TOKEN },
            query: { delay: '40', session: 's-{{$uuid}}' },
            session: [
              {
                receive: { event: 'welcome', match: { json: '$.text', equals: 'hello' } },
                extract: { me: '$.id' },
              },
              {
                emit: { event: 'join', data: { room: 'room-{{me}}', backlog: 3 } },
                ack: { json: '$.room', equals: 'room-{{me}}' },
              },
              { listen: '50ms', event: 'backlog' },
              {
                emit: { event: 'say', data: { room: 'room-{{me}}', text: 'hi' } },
                ack: { json: '$.id', equals: '{{me}}' },
              },
              { receive: { event: 'message', match: { json: '$.from', equals: '{{me}}' } } },
            ],
          },
        },
      ],
    });
    t.equal(result.failures, 0, JSON.stringify(result.errors));
    t.same(result.status_codes, { 101: 6 }, 'each session opened over WebSocket');
    const sio = socketioOf(result);
    t.equal(sio.sessions, 6);
    t.equal(app.log.connections, 6, 'six sessions passed the token middleware');
    t.equal(new Set(app.log.queries.map((q) => q.session)).size, 6, 'each with its own query');
    t.equal(sio.events_sent, sum(app.log.received), 'events sent = events the server received');
    t.same(app.log.received, { join: 6, say: 6 });
    t.equal(sio.events_received, sum(app.log.emitted), 'events received = events the server sent');
    t.same(app.log.emitted, { welcome: 6, backlog: 18, message: 6 });
    await disconnected(app.log, 6);
    t.same(
      app.log.disconnects,
      { 'client namespace disconnect': 6 },
      'each left by its own disconnect',
    );
    t.equal(result.bytes_sent, app.log.bytesIn, 'bytes sent = Engine.IO bytes the server received');
    t.ok(result.bytes_received > 0);
    // The say acks waited `delay` on the server; a round trip holds the server's own wait.
    const serverMin = Math.min(...app.log.ackWaitsMs);
    t.ok(serverMin >= 39, `the server waited ${serverMin} ms before acking`);
    t.ok(sio.ack_duration_ms!.max >= serverMin * 0.99, 'the slowest ack holds the server wait');
  },
);

t.test('acks timed: each round trip holds the server wait before its ack', async (t) => {
  const app = await startSocketioApp(t);
  const say = { emit: { event: 'say', data: { room: 'none', text: 'x' } }, ack: 'any' };
  const result = await run({
    concurrency: 2,
    requests: 4,
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          auth: { token: CHAT_TOKEN },
          query: { delay: '60' },
          session: [say, say, say],
        },
      },
    ],
  });
  t.equal(result.failures, 0, JSON.stringify(result.errors));
  const sio = socketioOf(result);
  t.equal(app.log.ackWaitsMs.length, 12);
  const serverMin = Math.min(...app.log.ackWaitsMs);
  t.ok(serverMin >= 59, `the server waited at least ${serverMin} ms`);
  // HDR keeps three significant digits: a value may read 0.1 % low.
  t.ok(
    sio.ack_duration_ms!.min >= serverMin * 0.999,
    `quickest ack ${sio.ack_duration_ms!.min} ms >= the server's quickest wait ${serverMin} ms`,
  );
  t.equal(sio.events_sent, 12);
  t.equal(sio.events_received, 4, 'the welcomes only: acks are not events');
});

t.test('broadcasts to a room reach every member; counts equal to the server', async (t) => {
  const app = await startSocketioApp(t);
  const news = { receive: { event: 'news', match: { json: '$.n', matches: '^[1-5]$' } } };
  const running = run({
    concurrency: 3,
    requests: 3,
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          auth: { token: CHAT_TOKEN },
          session: [
            { emit: { event: 'join', data: { room: 'lobby' } }, ack: 'any' },
            news,
            news,
            news,
            news,
            news,
          ],
        },
      },
    ],
  });
  await eventually(() => (app.log.received.join ?? 0) === 3, 10_000);
  for (let n = 1; n <= 5; n++) app.io.of('/chat').to('lobby').emit('news', { n });
  const result = await running;
  t.equal(result.failures, 0, JSON.stringify(result.errors));
  t.equal(socketioOf(result).events_received, 3 + 15, 'three welcomes, five news to each member');
});

t.test('a token the middleware refuses fails the session as ws_handshake', async (t) => {
  const app = await startSocketioApp(t);
  const result = await run({
    concurrency: 2,
    requests: 4,
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          auth: { token: 'wrong' },
          session: [{ receive: { event: 'welcome' } }],
        },
      },
    ],
  });
  t.equal(result.failures, 4);
  t.same(result.errors, { ws_handshake: 4 });
  t.equal(app.log.refused, 4, 'the server refused four');
  t.equal(app.log.connections, 0);
  t.equal(socketioOf(result).sessions, 4);
});

t.test('polling allowed by transports: the session connects over it', async (t) => {
  const app = await startSocketioApp(t);
  const result = await run({
    concurrency: 1,
    requests: 2,
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          transports: ['polling'],
          auth: { token: CHAT_TOKEN },
          session: [{ receive: { event: 'welcome' } }],
        },
      },
    ],
  });
  t.equal(result.failures, 0, JSON.stringify(result.errors));
  t.same(result.status_codes, { 200: 2 });
  t.equal(app.log.connections, 2);
});

t.test('sessions the run end cuts short are interrupted', async (t) => {
  const app = await startSocketioApp(t);
  const result = await run({
    concurrency: 2,
    duration: '1s',
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          auth: { token: CHAT_TOKEN },
          session: [{ receive: { event: 'welcome' } }, { listen: '30s' }],
        },
      },
    ],
  });
  t.equal(result.successes, 0);
  t.equal(result.total, app.log.connections, 'every session the server saw is counted');
  t.same(result.errors, { interrupted: app.log.connections });
});

t.test(
  'an ack its match does not select fails as check_failed; a missing ack as ws_timeout',
  async (t) => {
    const app = await startSocketioApp(t);
    const session = (step: object) => ({
      url: app.url,
      socketio: { namespace: '/chat', auth: { token: CHAT_TOKEN }, session: [step] },
    });
    const mismatch = await run({
      concurrency: 1,
      requests: 2,
      endpoints: [
        {
          name: 'mismatch',
          ...session({
            emit: { event: 'say', data: { room: 'r', text: 'x' } },
            ack: { json: '$.ok', equals: false },
          }),
        },
      ],
    });
    t.same(mismatch.errors, { check_failed: 2 });
    t.equal(app.log.received.say, 2, 'both emits reached the server');
    const silent = await run({
      concurrency: 1,
      requests: 2,
      endpoints: [
        {
          name: 'silent',
          ...session({ emit: { event: 'nobody-acks' }, ack: 'any', timeout: '300ms' }),
        },
      ],
    });
    t.same(silent.errors, { ws_timeout: 2 });
    t.equal(app.log.received['nobody-acks'], 2);
    // Step failures are kept with the WebSocket ones (docs/socketio.md, How a session ends).
    t.same(silent.websocket?.step_failures, {
      'ws_timeout in endpoint silent, step 1 (emit nobody-acks)': 2,
    });
  },
);

t.test('a hard stop cuts sessions under way at once, as aborted', async (t) => {
  const app = await startSocketioApp(t);
  const hardStop = new AbortController();
  const running = run(
    {
      concurrency: 2,
      requests: 2,
      endpoints: [
        {
          url: app.url,
          socketio: {
            namespace: '/chat',
            auth: { token: CHAT_TOKEN },
            session: [{ receive: { event: 'welcome' } }, { listen: '60s' }],
          },
        },
      ],
    },
    hardStop.signal,
  );
  await eventually(() => app.log.connections === 2, 10_000);
  hardStop.abort();
  const result = await running;
  t.equal(result.total, 2);
  t.same(result.errors, { aborted: 2 });
  await eventually(() => Object.keys(app.log.disconnects).length > 0, 5000);
  t.notOk(app.log.disconnects['ping timeout'], 'the server saw the client leave');
});
