// A WebSocket session the run's end cuts short is counted as interrupted, never as completed
// (docs/reports.md, error kinds): YAML sessions whose last steps the end skipped, and a scenario's
// ws.connect() sockets still open at the end. Counted against what the server saw of each
// connection, never against how many fit in the run's time.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  readonly total: number;
  readonly successes: number;
  readonly failures: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly websocket?: { readonly sessions: number };
}

/** A ws echo server logging how many frames each connection sent. */
async function echo(t: Test): Promise<{ port: number; frames: number[] }> {
  const server = createServer((_req, res) => res.end('ok'));
  const sockets = new WebSocketServer({ server });
  const frames: number[] = [];
  sockets.on('connection', (socket) => {
    const at = frames.push(0) - 1;
    socket.on('message', (data, binary) => {
      frames[at]!++;
      socket.send(data, { binary });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    sockets.close();
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, frames };
}

t.test('YAML sessions whose last steps the end skipped are interrupted', async (t) => {
  const { port, frames } = await echo(t);
  const dir = t.testdir({
    'load.yaml': [
      `target: ws://127.0.0.1:${port}`,
      'duration: 1s',
      'concurrency: 3',
      'endpoints:',
      '  - url: /chat',
      '    messages: [{ text: one }, { text: two }, { text: three }]',
      // Longer than the run: no session can send its three messages before the end.
      '    message_interval: 5s',
      '',
    ].join('\n'),
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 1, 'no session succeeded: the run proved nothing');
  t.match(result.stderr, 'the run failed: none of its');
  const json = JSON.parse(result.stdout) as Json;
  t.ok(frames.length > 0 && frames.every((n) => n < 3), `the server saw ${frames.join(', ')}`);
  t.equal(json.errors.interrupted, frames.length, 'each session cut short is interrupted');
  t.equal(json.successes, 0, 'none is a success');
  t.equal(json.total, frames.length, 'every session the server saw is counted');
});

const OPEN_SOCKET = `import { ws } from 'barrage';
export default async function (): Promise<void> {
  await ws.connect('WS_URL', undefined, (socket) => {
    socket.on('open', () => socket.setInterval(() => socket.send('tick'), 100));
  });
}
`;

t.test("a scenario's socket still open at the end is interrupted, closed with 1001", async (t) => {
  const { port, frames } = await echo(t);
  const dir = t.testdir({ 'load.ts': OPEN_SOCKET.replace('WS_URL', `ws://127.0.0.1:${port}/`) });
  const result = await runCli(
    ['run', '--scenario', 'load.ts', '--target', `http://127.0.0.1:${port}`, '-d', '1s'].concat(
      '-c',
      '2',
      '--json-output',
    ),
    { cwd: dir },
  );
  t.equal(result.code, 1, 'no session succeeded: the run proved nothing');
  t.match(result.stderr, 'the run failed: none of its');
  const json = JSON.parse(result.stdout) as Json;
  t.equal(json.websocket?.sessions, frames.length, 'every connection the server saw');
  t.equal(json.errors.interrupted, frames.length, 'none ended by the scenario: all interrupted');
  t.equal(json.successes, 0);
});
