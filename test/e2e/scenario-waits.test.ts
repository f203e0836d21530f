// A run bounded only by `requests` has no end to cut a wait, so each wait of a scenario is bounded
// by the run's `timeout` (docs/scenarios.md, Memory, time and processes): `sleep(1e12)` under
// `-n 1 --timeout 1s`, a ws.session pausing 1e12 ms between messages under `-n 2`, a ws.connect
// socket's setTimeout and setInterval of 1e12 ms under `-n 1`. setup() gets
// `timeout` plus `stop_grace`, then it is cut. What is asserted is that each run ended by itself
// (the bounds given to runCli are the test's safety nets) and what the target saw.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { runCli } from '../helpers/run-cli.js';

async function target(t: Test) {
  const seen = { requests: 0, messages: 0, url: '' };
  const server = createServer((_req, res) => {
    seen.requests++;
    res.end('ok');
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      seen.messages++;
      socket.send(data as Buffer);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    server.close();
  });
  seen.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return seen;
}

async function scenario(t: Test, source: string, flags: string[]) {
  const server = await target(t);
  const dir = t.testdir({ 'load.ts': source });
  const result = await runCli(['--scenario', 'load.ts', '--target', server.url, ...flags], {
    cwd: dir,
    killAfterMs: 90_000,
  });
  t.equal(result.signal, null, 'the run ended by itself');
  return { result, server };
}

t.test('await sleep(1e12) under -n 1 --timeout 1s ends', async (t) => {
  const { result, server } = await scenario(
    t,
    `import { http, sleep } from 'barrage';\nexport default async function (): Promise<void> {\n  await http.get('/');\n  await sleep(1e12);\n  await http.get('/after');\n}\n`,
    ['-n', '1', '--timeout', '1s'],
  );
  t.equal(result.code, 0, result.stderr);
  t.equal(server.requests, 2, 'the iteration went on after its sleep');
});

t.test('a ws.session pausing 1e12 ms between messages under -n 2 ends', async (t) => {
  const { result, server } = await scenario(
    t,
    `import { ws } from 'barrage';\nexport default async function (): Promise<void> {\n  await ws.session('/ws', { messages: ['a', 'b'], interval: 1e12 });\n}\n`,
    ['-n', '2', '--timeout', '1s'],
  );
  t.equal(result.code, 0, result.stderr);
  t.equal(server.messages, 4, 'both sessions sent both messages');
});

t.test("a ws.connect socket's timers of 1e12 ms under -n 1 fire within the timeout", async (t) => {
  const { result, server } = await scenario(
    t,
    `import { ws } from 'barrage';\nexport default async function (): Promise<void> {\n  await ws.connect('/ws', undefined, (socket) => {\n    socket.on('open', () => socket.send('a'));\n    socket.setTimeout(() => socket.send('b'), 1e12);\n    socket.setInterval(() => socket.close(), 1e12);\n  });\n}\n`,
    ['-n', '1', '--timeout', '1s'],
  );
  t.equal(result.code, 0, result.stderr);
  t.equal(server.messages, 2, 'the open and the timeout each sent one, then the interval closed');
});

t.test('setup() sleeping for an hour is cut after timeout + stop_grace', async (t) => {
  const { result, server } = await scenario(
    t,
    `import { http, sleep } from 'barrage';\nexport async function setup(): Promise<void> {\n  await sleep(3600);\n}\nexport default async function (): Promise<void> {\n  await http.get('/');\n}\n`,
    ['-d', '10m', '--timeout', '1s', '--stop-grace', '1s'],
  );
  t.equal(result.code, 1);
  t.match(result.stderr, /setup\(\) was cut: it ran for more than 2000 ms/);
  t.equal(server.requests, 0, 'no load after a failed setup');
});
