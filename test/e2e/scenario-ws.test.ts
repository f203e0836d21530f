// Event-driven WebSocket sockets in a TypeScript scenario (ws.connect), as users run them: the
// built CLI spawned with a scenario against the chat server of test/helpers/chat-server.ts, whose
// own log says which frames each client took. Welcomes and ticks reach on('message'), request()
// takes the member's own message out of the room's broadcast, and its round trips are the
// server's service time.
import { join } from 'node:path';
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { median, startChatServer } from '../helpers/chat-server.js';
import { runCli } from '../helpers/run-cli.js';

const SCENARIO = join(import.meta.dirname, '../fixtures/scenarios/ws-chat.ts');
const BINARY = join(import.meta.dirname, '../fixtures/scenarios/ws-binary.ts');
const FLOOD = join(import.meta.dirname, '../fixtures/scenarios/ws-flood.ts');

interface Json {
  failures: number;
  checks: { fails: number; by_name: Record<string, { passes: number; fails: number }> };
  endpoints: {
    name: string;
    requests: number;
    websocket?: { message_rtt_ms: { min: number } | null; msgs_taken: number };
  }[];
}

t.test('ws.connect: frames, request() and round trips, checked from the server side', async (t) => {
  const chat = await startChatServer(t);
  const target = chat.url.replace(/^ws/, 'http');
  const result = await runCli(
    ['run', '--scenario', SCENARIO, '--target', target, '-n', '4', '-c', '2', '--json-output'],
    { killAfterMs: 60_000 },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(json.failures, 0);
  t.equal(json.checks.fails, 0, JSON.stringify(json.checks.by_name));
  const acks = chat.log.acks.map((ack) => ({
    ack,
    frame: chat.log.sent.find((f) => f.n === ack.n),
  }));
  t.equal(acks.length, 8, 'a welcome and an own message acked per chat session');
  t.ok(
    acks.every((a) => a.frame !== undefined && a.frame.to === a.ack.user),
    'every frame acked was sent to the member acking it',
  );
  const replies = acks.filter((a) => a.frame!.type === 'message');
  t.equal(replies.length, 4);
  t.ok(
    replies.every((a) => a.frame!.from === a.ack.user),
    "request() took the member's own message",
  );
  t.strictSame(
    [...chat.log.ticks.values()],
    [10, 10, 10, 10],
    'the server pushed 10 ticks to each, and the checks counted 10',
  );
  const chatEndpoint = json.endpoints.find((e) => e.name === 'chat')!;
  t.equal(chatEndpoint.requests, 4);
  t.equal(chatEndpoint.websocket!.msgs_taken, 4, 'one request() take per session');
  const pinger = json.endpoints.find((e) => e.name === 'pinger')!;
  const rtt = pinger.websocket!.message_rtt_ms!;
  const served = median(chat.log.pongMs);
  t.ok(served >= 49, `the server answered after ${served} ms`);
  // The truth is the server's own service time of each ping: from its arrival to the pong. A
  // busy server's timer may fire before its 50 ms are up (Node counts a timer from the loop's
  // time, which a long turn leaves behind), so the quickest round trip is held to the quickest
  // service time the server measured: never under it (the pong left after the ping came, both
  // between the client's stamps; 0.1 % is the histogram's precision), and within 10 ms over it
  // (a busy client adds its own wait to some round trips, not to the quickest).
  const quickest = Math.min(...chat.log.pongMs);
  t.ok(
    rtt.min >= quickest * 0.999,
    `pinger rtt min ${rtt.min} ms not under the server's ${quickest}`,
  );
  t.ok(rtt.min - quickest <= 10, `pinger rtt min ${rtt.min} ms within 10 ms of ${quickest}`);
});

t.test(
  'ws.connect: binary frames both ways, close code and reason, handshake headers',
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const result = await runCli(
      ['run', '--scenario', BINARY, '--target', server.url, '-n', '2', '-c', '1', '--json-output'],
      { killAfterMs: 60_000 },
    );
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    t.equal(json.failures, 0);
    t.strictSame(json.checks.by_name, {
      binary: { passes: 2, fails: 0 },
      ok: { passes: 2, fails: 0 },
      text: { passes: 2, fails: 0 },
    });
    t.equal(server.stats().byRoute.ws_echo, 2);
  },
);

t.test('a flood of frames reaches the scenario whole, in order, and the run goes on', async (t) => {
  const chat = await startChatServer(t);
  const target = chat.url.replace(/^ws/, 'http');
  const result = await runCli(
    ['run', '--scenario', FLOOD, '--target', target, '-n', '2', '-c', '1', '--json-output'],
    { killAfterMs: 90_000 },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(json.checks.fails, 0, JSON.stringify(json.checks.by_name));
  t.equal(json.failures, 0);
});
