// WebSocket sessions as users run them: the built CLI spawned against the embedded target
// server's /ws/echo, with WebSocket thresholds deciding the exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';

interface JsonOut {
  total: number;
  failures: number;
  status_codes: Record<string, number>;
  errors: Record<string, number>;
  endpoints: { name: string; requests: number; websocket?: { sessions: number } }[];
  websocket: {
    sessions: number;
    failures: number;
    msgs_sent: number;
    msgs_received: number;
    message_rtt_ms: { min: number } | null;
  };
  thresholds: { passed: number; failed: number; results: { threshold: string; pass: boolean }[] };
}

t.test('a WebSocket run against /ws/echo, gated by ws thresholds', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const ws = server.url.replace(/^http/, 'ws');
  const dir = t.testdir();
  const config = join(dir, 'ws.yaml');
  writeFileSync(
    config,
    [
      `target: ${server.url}`,
      'concurrency: 2',
      'requests: 8',
      'seed: 3',
      'endpoints:',
      '  - name: feed',
      `    url: ${ws}/ws/echo?delay=5`,
      '    messages: [{ text: \'{"op":"sub","n":{{$randomInt 1 9}}}\' }, { binary: "base64:AAEC" }]',
      'thresholds:',
      '  - ws_message_rtt:min >= 4',
      '  - ws_msgs_received{endpoint=feed}:count == 16',
      '  - ws_connecting{endpoint=feed}:p95 < 5000',
      '  - http_req_failed:rate == 0',
      '',
    ].join('\n'),
  );
  const ok = await runCli(['run', config, '--json-output', '--no-dashboard']);
  t.equal(ok.code, 0, ok.stderr);
  const json = JSON.parse(ok.stdout) as JsonOut;
  t.match(json.websocket, { sessions: 8, failures: 0, msgs_sent: 16, msgs_received: 16 });
  t.ok(json.websocket.message_rtt_ms!.min >= 4, 'the echo delay shows in the round trips');
  t.equal(json.total, 8, 'a session is a request');
  t.strictSame(json.status_codes, { '101': 8 });
  t.equal(json.endpoints[0]!.websocket?.sessions, 8);
  t.strictSame(
    json.thresholds.results.map((r) => r.pass),
    [true, true, true, true],
  );
  t.equal(server.stats().byRoute.ws_echo, 8, 'the server saw one upgrade per session');

  const failing = await runCli([
    'run',
    config,
    '--no-dashboard',
    '--threshold',
    'ws_session_duration{endpoint=feed}:max < 0.001',
  ]);
  t.equal(failing.code, 1, 'a failed ws threshold fails the run');
  t.match(failing.stdout, /✗ ws_session_duration\{endpoint=feed\}:max < 0\.001: \d+\.\d\d < 0\.00/);
  t.match(failing.stdout, /WebSocket:\n/);
  t.match(failing.stdout, /│ messages received\s+│\s+16 │/);
  t.match(failing.stdout, /Threshold Summary: 4\/5 passed/);
});

t.test('a refused upgrade is counted as ws_handshake and fails the gate', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const ws = server.url.replace(/^http/, 'ws');
  const result = await runCli([
    'run',
    '--target',
    `${ws}/ws/echo?delay=oops`,
    '-n',
    '3',
    '-c',
    '1',
    '--json-output',
    '--threshold',
    'http_req_failed:rate < 0.5',
  ]);
  t.equal(result.code, 1);
  const json = JSON.parse(result.stdout) as JsonOut;
  t.strictSame(json.errors, { ws_handshake: 3 });
  t.strictSame(json.status_codes, { '400': 3 });
  t.match(json.websocket, { sessions: 3, failures: 3, msgs_sent: 0 });
});

t.test('scenarios/websocket.yaml runs against the chat room of barrage serve', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const host = new URL(server.url).host;
  const source = readFileSync(join(import.meta.dirname, '../../scenarios/websocket.yaml'), 'utf8');
  const config = join(t.testdir(), 'websocket.yaml');
  // The example's timing thresholds are for an idle machine; the suite may share its cores.
  const untimed = source
    .split('\n')
    .filter((line) => !/ws_connecting:|ws_message_rtt/.test(line))
    .join('\n');
  writeFileSync(config, untimed.replaceAll('127.0.0.1:8080', host));
  const result = await runCli(['run', config, '-d', '2s', '--json-output', '--no-dashboard'], {
    killAfterMs: 60_000,
  });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as JsonOut & {
    websocket: { msgs_taken: number; listen_msgs: number; step_failures: object };
  };
  // Only sessions the end of the run cut short failed, as interrupted.
  t.equal(json.failures, json.errors.interrupted ?? 0, JSON.stringify(json.errors));
  t.strictSame(json.websocket.step_failures, {});
  const chat = json.endpoints.find((e) => e.name === 'chat')!.websocket!.sessions;
  const ticker = json.endpoints.find((e) => e.name === 'ticker')!.websocket!.sessions;
  t.ok(chat > 0 && ticker > 0, `${chat} chat and ${ticker} ticker sessions`);
  t.ok(json.websocket.listen_msgs > 0, 'the subscribers counted pushes');
  // A completed chat session takes 3 messages and a ticker its welcome (its ticks are the
  // pushes); one the end of the run cut short took up to 3 fewer.
  const whole = 3 * chat + ticker + json.websocket.listen_msgs;
  const cut = 3 * (json.errors.interrupted ?? 0);
  t.ok(
    json.websocket.msgs_taken <= whole && json.websocket.msgs_taken >= whole - cut,
    `chat: welcome, own message, pong; ticker: welcome and its ticks (${json.websocket.msgs_taken} of ${whole}, ${cut / 3} sessions cut)`,
  );
  t.equal(server.stats().byRoute.ws_chat, chat + ticker, 'one upgrade per session');
});
