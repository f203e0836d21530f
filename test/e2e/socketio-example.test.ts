// scenarios/socketio/socketio.yaml (the port of Artillery's socket-io example) and a Socket.IO
// chat run by the built binary, each against a socket.io 4 server started here: every session
// the server saw is one the report counts, every event it received one barrage sent.
import t, { type Test } from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { eventually } from '../helpers/eventually.js';
import { runCli } from '../helpers/run-cli.js';
import { CHAT_TOKEN, startSocketioApp } from '../helpers/socketio-app.js';

interface Json {
  readonly total: number;
  readonly successes: number;
  readonly failures: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly socketio: { readonly sessions: number; readonly events_sent: number };
  readonly endpoints: readonly { readonly name: string; readonly requests: number }[];
}

/** The example's server: Engine.IO at "/", /personalised echoing and acknowledging. */
async function exampleServer(t: Test) {
  const seen = { connections: 0, echo: 0, userDetails: 0 };
  const http = createServer();
  const io = new Server(http, { path: '/', serveClient: false });
  const personalised = io.of('/personalised');
  personalised.on('connection', (socket) => {
    seen.connections++;
    socket.on('echo', (text: unknown) => {
      seen.echo++;
      socket.emit('echoResponse', text);
    });
    socket.on('userDetails', (ack: unknown) => {
      seen.userDetails++;
      if (typeof ack === 'function') (ack as (details: unknown) => void)({ name: 'Artillery' });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => void io.close(() => resolve())));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, seen };
}

t.test('the Artillery socket-io example runs against its server', async (t) => {
  const server = await exampleServer(t);
  const source = readFileSync(
    join(import.meta.dirname, '../../scenarios/socketio/socketio.yaml'),
    'utf8',
  );
  const config = join(t.testdir(), 'socketio.yaml');
  // The example's thresholds are for a minute's run on an idle machine: in two seconds a session
  // the end cuts short (interrupted, a failure) is a larger share, and the suite shares its cores.
  writeFileSync(config, source.slice(0, source.indexOf('thresholds:')));
  const result = await runCli(
    ['run', config, '--target', server.url, '-d', '2s', '--json-output', '--no-dashboard'],
    { killAfterMs: 60_000 },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(json.failures, json.errors.interrupted ?? 0, JSON.stringify(json.errors));
  t.equal(json.socketio.sessions, json.total);
  await eventually(() => server.seen.connections >= json.total - (json.errors.interrupted ?? 0));
  const echo = json.endpoints.find((e) => e.name === 'echo')!.requests;
  const details = json.endpoints.find((e) => e.name === 'user-details')!.requests;
  t.ok(echo > 0 && details > 0, `${echo} echo and ${details} user-details sessions`);
  t.equal(server.seen.echo + server.seen.userDetails, json.socketio.events_sent);
});

t.test('a YAML chat run by the binary: counts equal to the server', async (t) => {
  const app = await startSocketioApp(t);
  const dir = t.testdir({
    'load.yaml': [
      `target: ${app.url}`,
      'requests: 6',
      'concurrency: 2',
      'endpoints:',
      '  - name: chat',
      '    url: /',
      '    socketio:',
      '      namespace: /chat',
      `      auth: { token: ${CHAT_TOKEN} }`,
      '      query: { delay: "5" }',
      '      session:',
      '        - receive: { event: welcome }',
      '          extract: { me: $.id }',
      '        - emit: { event: join, data: { room: "r-{{me}}" } }',
      '          ack: { json: $.ok, equals: true }',
      '        - emit: { event: say, data: { room: "r-{{me}}", text: hi } }',
      '          ack: any',
      '        - receive: { event: message, match: { json: $.from, equals: "{{me}}" } }',
      'thresholds:',
      '  - socketio_sessions{endpoint=chat}:count == 6',
      '  - socketio_events_received:count == 12',
      '  - socketio_ack_duration{endpoint=chat}:max > 0',
      '',
    ].join('\n'),
  });
  const result = await runCli(['run', 'load.yaml', '--json-output', '--no-dashboard'], {
    cwd: dir,
  });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json & {
    socketio: { events_received: number; ack_duration_ms: { min: number } };
  };
  t.equal(json.successes, 6);
  t.equal(app.log.connections, 6);
  t.same(app.log.received, { join: 6, say: 6 });
  t.equal(json.socketio.events_sent, 12);
  t.equal(json.socketio.events_received, 12, 'a welcome and the own message per session');
  const text = await runCli(['run', 'load.yaml', '--no-dashboard'], { cwd: dir });
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, /Socket\.IO ack round trip: p50 [\d.]+ms/);
  t.match(text.stdout, /Socket\.IO sessions: 6/);
  t.match(
    text.stdout,
    /socketio_sessions\{endpoint=chat\}:count == 6/,
    'thresholds read the metrics',
  );
});
