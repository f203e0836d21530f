/**
 * A recorded WebSocket as users replay it (the built binary): `barrage har` turns the handshake
 * and its recorded frames into a ws endpoint in the flow, `validate` accepts it, and `run`
 * replays the session against a real `ws` chat server with no failures, the recorded frames
 * arriving as recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startChatServer } from '../helpers/chat-server.js';
import { runCli } from '../helpers/run-cli.js';

/** Epoch seconds of the recording's first frame. */
const T0 = 1_704_067_200;

/** A Chrome-style recording: the handshake (wss, on the recorded origin) and its frames. */
function recording(): string {
  const say = JSON.stringify({
    type: 'say',
    id: 'm1',
    text: 'hello {{not a placeholder}} ${HOME}',
  });
  return JSON.stringify({
    log: {
      creator: { name: 'Chrome', version: '126' },
      entries: [
        {
          startedDateTime: '2024-01-01T00:00:00.000Z',
          time: 3,
          _resourceType: 'websocket',
          request: {
            method: 'GET',
            url: 'wss://chat.example/chat?user=ada&room=r1&token=abcdef0123456789',
            headers: [
              { name: 'Sec-WebSocket-Key', value: 'dGhlIHNhbXBsZSBub25jZQ==' },
              { name: 'Sec-WebSocket-Version', value: '13' },
              { name: 'Cookie', value: 'sid=session-secret-42' },
              { name: 'Accept-Language', value: 'en' },
            ],
          },
          response: { status: 101, headers: [] },
          _webSocketMessages: [
            { type: 'receive', time: T0 + 0.01, opcode: 1, data: '{"type":"welcome"}' },
            { type: 'send', time: T0 + 0.2, opcode: 1, data: say },
            { type: 'receive', time: T0 + 0.21, opcode: 1, data: '{"type":"message"}' },
            { type: 'receive', time: T0 + 0.22, opcode: 9, data: '' },
            { type: 'send', time: T0 + 0.23, opcode: 1, data: '{"type":"ping","id":"p1"}' },
            { type: 'receive', time: T0 + 0.24, opcode: 1, data: '{"type":"pong"}' },
          ],
        },
        {
          startedDateTime: '2024-01-01T00:00:01.000Z',
          request: { method: 'GET', url: 'wss://chat.example/quiet', headers: [] },
          response: { status: 101, headers: [] },
        },
      ],
    },
  });
}

t.test('a recorded WebSocket becomes a ws endpoint that replays with 0 failures', async (t) => {
  const chat = await startChatServer(t);
  const target = chat.url.replace(/^ws:/, 'http:');
  const dir = t.testdir({ 'chat.har': recording() });
  const converted = await runCli(['har', 'chat.har', '--target', target, '-o', 'chat.yaml'], {
    cwd: dir,
  });
  t.equal(converted.code, 0, converted.stderr);
  t.match(converted.stderr, /skipped 1 not replayable: WebSocket without recorded messages \(1\)/);
  t.match(converted.stderr, /1 WebSocket endpoint from recorded messages/);
  t.match(converted.stderr, /query token \(1\), header Cookie \(1\)/);
  const yaml = readFileSync(join(dir, 'chat.yaml'), 'utf8');
  t.match(yaml, `url: ${chat.url}/chat?user=ada&room=r1\n`, 'rebased onto the target, on ws://');
  t.notMatch(yaml, /abcdef0123456789|session-secret-42|Sec-WebSocket/);
  t.match(yaml, /session:\n\s+- receive: any\n\s+- pause: 190ms\n\s+- send: /);

  const validated = await runCli(['validate', 'chat.yaml'], { cwd: dir });
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, /WS \/chat .*\(3 receives, 1 pause, 2 sends\)/);

  const run = await runCli(['run', 'chat.yaml', '-n', '3', '-c', '1', '--json-output'], {
    cwd: dir,
  });
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { total: number; failures: number };
  t.equal(report.total, 3);
  t.equal(report.failures, 0);
  const messages = chat.log.sent.filter((f) => f.type === 'message');
  t.equal(messages.length, 3, 'each session sent the recorded say frame');
  t.equal(chat.log.sent.filter((f) => f.type === 'pong').length, 3);
});

t.test('--as endpoints: the ws endpoint is one of the weighted endpoints', async (t) => {
  const dir = t.testdir({ 'chat.har': recording() });
  const result = await runCli(['har', 'chat.har', '--as', 'endpoints', '--think-scale', '0'], {
    cwd: dir,
  });
  t.equal(result.code, 0, result.stderr);
  t.notMatch(result.stdout, /flows:|pause:/, 'no flow, no pauses with --think-scale 0');
  t.match(
    result.stdout,
    /- name: WS \/chat\n\s+url: wss:\/\/chat\.example\/chat\?user=ada&room=r1\n/,
  );
  t.match(
    result.stdout,
    /send: '\{"type":"say","id":"m1","text":"hello \\\{\{not a placeholder\}\} \$\$\{HOME\}"\}'/,
  );
});
