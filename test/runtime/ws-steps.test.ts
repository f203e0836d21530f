// WebSocket session steps (receive, send with reply, listen, pause) run through a real segment
// against a chat server built with `ws` (test/helpers/chat-server.ts) that welcomes each member,
// broadcasts every message to the room and numbers every frame it sends. The server's own log
// says which frame each client took: replies are the sender's own message however many other
// members' frames come in between, welcomes are taken by receive steps, and a listen counts
// exactly the frames pushed.
import t from 'tap';
import { median, startChatServer, type ChatLog } from '../helpers/chat-server.js';
import { runInThread as run } from '../helpers/segment-run.js';

/** The frames acknowledged by each client, as the server logged sending them. */
function acked(log: ChatLog) {
  return log.acks.map((ack) => ({ ack, frame: log.sent.find((f) => f.n === ack.n) }));
}

t.test(
  'a reply is the sender own message, never a welcome or another member broadcast',
  async (t) => {
    const chat = await startChatServer(t);
    const result = await run({
      concurrency: 4,
      requests: 12,
      endpoints: [
        {
          name: 'chat',
          url: `${chat.url}/chat?user=u-{{$uuid}}&room=r1&delay=5`,
          session: [
            {
              receive: { json: '$.type', equals: 'welcome' },
              extract: { me: '$.user', welcome_n: '$.n' },
            },
            { send: '{"type":"ack","n":{{welcome_n}}}' },
            {
              send: '{"type":"say","id":"{{$uuid}}","text":"hi"}',
              reply: { json: '$.from', equals: '{{me}}' },
              extract: { reply_n: '$.n' },
            },
            { send: '{"type":"ack","n":{{reply_n}}}' },
          ],
        },
      ],
    });
    t.equal(result.failures, 0, JSON.stringify(result.errors));
    t.equal(chat.log.connections, 12);
    const pairs = acked(chat.log);
    t.equal(pairs.length, 24, 'two acks per session');
    const welcomes = pairs.filter((p) => p.frame?.type === 'welcome');
    t.equal(welcomes.length, 12, 'every session took its welcome in a receive step');
    t.ok(
      welcomes.every((p) => p.frame!.to === p.ack.user),
      'each welcome was the one sent to that member',
    );
    const replies = pairs.filter((p) => p.frame?.type !== 'welcome');
    t.equal(replies.length, 12);
    t.ok(
      replies.every((p) => p.frame?.type === 'message' && p.frame.to === p.ack.user),
      'each reply was a message frame sent to that member',
    );
    t.ok(
      replies.every((p) => p.frame!.from === p.ack.user),
      'each reply was the member own message, echoed by the room',
    );
    const foreign = chat.log.sent.filter(
      (f) => f.type === 'joined' || (f.type === 'message' && f.from !== f.to),
    );
    t.ok(foreign.length > 0, `other members' frames came in between (${foreign.length})`);
    const ws = result.websocket!;
    t.ok(ws.msgs_received <= chat.log.sent.length, 'no frame counted that the server did not send');
    t.equal(ws.msgs_taken, 24, 'a welcome and a reply per session');
    t.equal(ws.msgs_skipped, ws.msgs_received - 24);
    t.ok(ws.msgs_skipped > 0, 'the frames in between were skipped');
    t.equal(ws.message_rtt_ms!.min >= 4, true, 'a reply round trip includes the server delay');
  },
);

t.test('ws_message_rtt against a server that answers after 50 ms', async (t) => {
  const chat = await startChatServer(t);
  const ping = {
    send: '{"type":"ping","id":"{{$uuid}}"}',
    reply: { json: '$.type', equals: 'pong' },
  };
  const result = await run({
    concurrency: 2,
    requests: 6,
    endpoints: [
      {
        url: `${chat.url}/chat?user=p-{{$uuid}}&room=p-{{$uuid}}&delay=50`,
        session: [{ receive: 'any' }, ping, ping, ping, ping, ping],
      },
    ],
  });
  t.equal(result.failures, 0);
  const rtt = result.websocket!.message_rtt_ms!;
  // The truth is the server's own service time of each ping, from its arrival to the pong: 50 ms
  // plus its timer's lateness, or less when a busy server's timer fires early (Node counts it
  // from the loop's time, which a long turn leaves behind). The quickest round trip is never
  // under the quickest service time (0.1 % is the histogram's precision) and, since a busy
  // client adds its own wait to some round trips, less to the quickest, within 10 ms over it.
  const served = median(chat.log.pongMs);
  t.ok(served >= 49, `the server answered after ${served} ms`);
  const quickest = Math.min(...chat.log.pongMs);
  t.ok(
    rtt.min >= quickest * 0.999,
    `quickest round trip ${rtt.min} ms not under the server's ${quickest}`,
  );
  t.ok(rtt.min - quickest <= 10, `quickest round trip ${rtt.min} ms within 10 ms of ${quickest}`);
  t.equal(result.websocket!.msgs_taken, 36);
});

t.test('a listen counts exactly the frames the server pushed', async (t) => {
  const chat = await startChatServer(t);
  const result = await run({
    concurrency: 2,
    requests: 2,
    endpoints: [
      {
        name: 'ticker',
        url: `${chat.url}/chat?user=s-{{$uuid}}&room=s-{{$uuid}}&ticks=25&tick_ms=20`,
        session: [
          { receive: { json: '$.type', equals: 'welcome' } },
          { listen: '3s', match: { json: '$.type', equals: 'tick' } },
        ],
      },
    ],
  });
  t.equal(result.failures, 0);
  const pushed = [...chat.log.ticks.values()].reduce((a, b) => a + b, 0);
  t.equal(pushed, 50, 'the server pushed 25 ticks to each subscriber');
  const ws = result.websocket!;
  t.equal(ws.listen_msgs, pushed, 'the listens took every tick');
  t.equal(ws.msgs_received, pushed + 2, 'and the welcomes');
  t.equal(ws.msgs_skipped, 0);
  t.ok(ws.listen_rate! <= 50 / 6 && ws.listen_rate! > 50 / 7, `${ws.listen_rate} ticks/s over 3 s`);
});

t.test('a receive whose match never comes fails as ws_timeout, named by its step', async (t) => {
  const chat = await startChatServer(t);
  const result = await run({
    concurrency: 1,
    requests: 2,
    endpoints: [
      {
        name: 'waits',
        url: `${chat.url}/chat?user=w-{{$uuid}}&room=w-{{$uuid}}&ticks=3&tick_ms=10`,
        session: [
          { pause: '10ms' },
          { receive: { json: '$.type', equals: 'never' }, timeout: '300ms' },
        ],
      },
    ],
  });
  t.strictSame(result.errors, { ws_timeout: 2 });
  t.strictSame(result.websocket!.step_failures, {
    'ws_timeout in endpoint waits, step 2 (receive)': 2,
  });
  t.equal(result.websocket!.msgs_skipped, 8, 'the welcome and ticks were looked at and skipped');
});

t.test('a flood between two waits is bounded: the oldest frames are skipped unseen', async (t) => {
  const chat = await startChatServer(t);
  const flood = 5000;
  const result = await run({
    concurrency: 1,
    requests: 1,
    endpoints: [
      {
        url: `${chat.url}/chat?user=f-1&room=f&flood=${flood}`,
        session: [
          { pause: '300ms' },
          { receive: { json: '$.type', equals: 'flood' }, extract: { first: '$.i' } },
          { send: '{"type":"ack","n":{{first}}}' },
        ],
      },
    ],
  });
  t.equal(result.failures, 0);
  t.equal(result.websocket!.msgs_received, flood + 1, 'every frame counted');
  const first = chat.log.acks[0]!.n;
  t.ok(first > flood - 1000, `the first frame still queued was flood ${first}`);
});

t.test(
  'the end of the run ends a listen: the session closes, counted as interrupted',
  async (t) => {
    const chat = await startChatServer(t);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 500);
    const result = await run(
      {
        concurrency: 1,
        duration: '1h',
        endpoints: [
          {
            url: `${chat.url}/chat?user=l-{{$uuid}}&room=l`,
            session: [{ listen: '1h' }, { send: '{"type":"ack","n":0}' }],
          },
        ],
      },
      undefined,
      stop.signal,
    );
    t.equal(result.total, 1);
    t.same(result.errors, { interrupted: 1 }, 'cut short by the run: no success');
    t.equal(chat.log.acks.length, 0, 'the steps after the listen were skipped');
  },
);
