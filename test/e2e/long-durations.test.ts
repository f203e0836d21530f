// Durations beyond Node's timer limit (2^31 − 1 ms, 24.8 days) as users write them: a run, a
// start time, a retry backoff and a WebSocket message interval must each last what was written,
// never 1 ms. Nothing here waits for them: each test checks that the long wait has not ended
// before it stops the run, which a timer clamped to 1 ms would have.
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { WebSocketServer } from 'ws';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

/** A settle time: long beside the 1 ms a clamped timer waits, short beside any real duration. */
const SETTLE_MS = 500;

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

t.test('-d 1000h -n 10 sends 10 requests and exits 0', async (t) => {
  const server = await target(t);
  const result = await runCli([
    'run',
    '--target',
    `${server.url}/json`,
    '-d',
    '1000h',
    '-n',
    '10',
    '-c',
    '2',
    '--json-output',
  ]);
  t.equal(result.code, 0, result.stderr);
  t.equal((JSON.parse(result.stdout) as JsonResult).total, 10);
  t.equal(server.stats().byRoute.json, 10);
  t.notMatch(result.stderr, /TimeoutOverflowWarning/);
});

t.test('--start-at 30 days ahead sends nothing', async (t) => {
  const server = await target(t);
  const startAt = new Date(Date.now() + 30 * 24 * 3_600_000).toISOString();
  let arrivedBeforeKill = -1;
  await runCli(['run', '--target', `${server.url}/json`, '-n', '5', '--start-at', startAt], {
    onSpawn: (child) => {
      void sleep(SETTLE_MS * 2).then(() => {
        arrivedBeforeKill = server.stats().total;
        child.kill('SIGKILL');
      });
    },
  });
  t.equal(arrivedBeforeKill, 0, 'nothing reached the target before we killed it');
});

t.test('a stop ends the wait for --start-at, with nothing sent', async (t) => {
  const server = await target(t);
  const startAt = new Date(Date.now() + 30 * 24 * 3_600_000).toISOString();
  const argv = ['run', '--target', `${server.url}/json`, '-n', '5', '--threads', '1'];
  const result = await runInProcess([...argv, '--start-at', startAt, '--json-output'], {
    onStart: (send) => void sleep(SETTLE_MS).then(() => send('SIGINT')),
  });
  const printed = JSON.parse(result.stdout) as JsonResult;
  t.equal(printed.total, 0, result.stderr);
  t.equal(printed.interrupted, true);
  t.equal(server.stats().total, 0);
});

t.test('a 1000h retry backoff does not fire early; a hard stop cuts it', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'retry.yaml': [
      `target: ${server.url}/status/503`,
      'requests: 1',
      'concurrency: 1',
      'retry: { max_attempts: 2, backoff: 1000h, max_backoff: 1000h, jitter: 0 }',
      '',
    ].join('\n'),
  });
  let sentBeforeStop = -1;
  const result = await runCli(['run', '--config', 'retry.yaml', '--json-output'], {
    cwd: dir,
    onSpawn: (child) => {
      void eventually(() => server.stats().total >= 1)
        .then(() => sleep(SETTLE_MS))
        .then(() => {
          sentBeforeStop = server.stats().total;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 200);
        });
    },
  });
  t.equal(sentBeforeStop, 1, 'the retry waited');
  t.equal(server.stats().total, 1, 'and was never sent');
  const printed = JSON.parse(result.stdout) as JsonResult;
  t.equal(printed.retries, 0);
  t.notMatch(result.stderr, /TimeoutOverflowWarning/);
});

t.test('a 1000h message interval does not fire early; a hard stop cuts it', async (t) => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  t.teardown(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  let received = 0;
  wss.on('connection', (socket) => {
    socket.on('message', (data, binary) => {
      received++;
      socket.send(data, { binary });
    });
  });
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/`;
  const dir = t.testdir({
    'ws.yaml': [
      'requests: 1',
      'concurrency: 1',
      'endpoints:',
      `  - { url: "${url}", messages: [{ text: one }, { text: two }], message_interval: 1000h }`,
      '',
    ].join('\n'),
  });
  let receivedBeforeStop = -1;
  const result = await runCli(['run', '--config', 'ws.yaml', '--json-output'], {
    cwd: dir,
    onSpawn: (child) => {
      void eventually(() => received >= 1)
        .then(() => sleep(SETTLE_MS))
        .then(() => {
          receivedBeforeStop = received;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 200);
        });
    },
  });
  t.equal(receivedBeforeStop, 1, 'the second message waited for the interval');
  t.equal(received, 1, 'and was never sent');
  t.equal((JSON.parse(result.stdout) as JsonResult).websocket?.msgs_sent, 1, result.stderr);
});
