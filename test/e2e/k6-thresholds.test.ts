import t from 'tap';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { runInProcess } from '../helpers/in-process-cli.js';

const K6 = [
  '--threshold',
  'http_req_duration:p(95) < 10000',
  '--threshold',
  'http_reqs:count == 5',
  '--threshold',
  'http_req_duration:med < 10000',
];

t.test('validate shows k6 thresholds in barrage spelling, with one note', async (t) => {
  const result = await runInProcess(['validate', '--target', 'http://127.0.0.1:9', ...K6]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, '    http_req_duration:p95 < 10000\n');
  t.match(result.stdout, '    http_reqs:count == 5\n');
  t.match(result.stdout, '    http_req_duration:p50 < 10000\n');
  const notes = result.stdout.split('\n').filter((line) => line.includes('k6 spellings'));
  t.same(notes, ["  note        k6 spellings read as barrage's: p(95) → p95, med → p50"]);
  t.match(result.stdout, "http_reqs counts HTTP requests only, as k6's does");
});

t.test('reports show the barrage spelling of k6 thresholds', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const target = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const dir = t.testdir({});
  const junit = join(dir, 'junit.xml');
  const result = await runInProcess(
    ['run', '--target', target, '-n', '5', '-c', '1', '--json-output', '--junit', junit, ...K6],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as { thresholds: { results: { threshold: string }[] } };
  t.same(
    json.thresholds.results.map((r) => r.threshold),
    ['http_req_duration:p95 < 10000', 'http_reqs:count == 5', 'http_req_duration:p50 < 10000'],
  );
  const xml = readFileSync(junit, 'utf8');
  t.match(xml, 'name="http_reqs:count == 5"');
  t.notMatch(xml, 'p(95)');
});

t.test('k6 metrics barrage does not measure are refused with the reason', async (t) => {
  const result = await runInProcess([
    'validate',
    '--target',
    'http://127.0.0.1:9',
    '--threshold',
    'http_req_sending:p(95) < 200',
    '--threshold',
    'group_duration:p95 > 1',
  ]);
  t.equal(result.code, 1);
  t.match(result.stderr, '"http_req_sending" is a k6 metric with no barrage equivalent');
  t.match(result.stderr, '"group_duration" is a k6 metric with no barrage equivalent');
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.equal(result.stdout, '');
});

t.test(
  "http_reqs and ws_sessions count what k6's count: sessions are not requests there",
  async (t) => {
    const server = createServer((_req, res) => res.end('ok'));
    const sockets = new WebSocketServer({ server });
    sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const port = (server.address() as { port: number }).port;
    const dir = t.testdir({
      // Each iteration: one HTTP request and one WebSocket session; k6 counts 4 http_reqs.
      'load.yaml': [
        `target: http://127.0.0.1:${port}`,
        'requests: 4',
        'concurrency: 1',
        'endpoints:',
        '  - { name: page, url: /page }',
        `  - { name: chat, url: 'ws://127.0.0.1:${port}/chat', messages: [{ text: hi }] }`,
        'flows: [{ name: visit, steps: [page, chat] }]',
        'thresholds:',
        '  - http_reqs:count == 4',
        '  - ws_sessions:count == 4',
        '  - http_requests:count == 8',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as {
      thresholds: { results: { threshold: string; actual: number; pass: boolean }[] };
    };
    t.same(
      json.thresholds.results.map((r) => [r.threshold, r.actual, r.pass]),
      [
        ['http_reqs:count == 4', 4, true],
        ['ws_sessions:count == 4', 4, true],
        ['http_requests:count == 8', 8, true],
      ],
    );
  },
);
