// The text report's bytes on the wire (k6's data_received and data_sent), through the built CLI
// against a server whose bodies are known: it counts the request body bytes it read and answers
// each request with the same fixed body, so the lines must say exactly its counts.
import t from 'tap';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

const REQUESTS = 30;
const ANSWER = 'a'.repeat(1500);
const POSTED = '{"item":"widget","quantity":12}';

t.test('Data received and Data sent are the bytes the server read and wrote', async (t) => {
  let read = 0;
  let written = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (read += chunk.length));
    req.on('end', () => {
      written += Buffer.byteLength(ANSWER);
      res.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as { port: number };
  const config = [
    `target: http://127.0.0.1:${port}`,
    'concurrency: 3',
    `requests: ${REQUESTS}`,
    'endpoints:',
    `  - { name: order, method: POST, url: /orders, body: '${POSTED}' }`,
    'thresholds:',
    "  - 'http_req_failed:rate < 0.5'",
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': config });
  const run = await runCli(['run', join(dir, 'load.yaml'), '--no-dashboard'], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  t.equal(read, REQUESTS * Buffer.byteLength(POSTED), 'the server read every body');
  t.equal(written, REQUESTS * ANSWER.length, 'and answered each');
  const lines = run.stdout.split('\n');
  const summary = lines.findIndex((l) => l.startsWith('Threshold Summary:'));
  const received = new RegExp(`^Data received: ${written.toLocaleString('en-US')} B \\(`);
  const sent = new RegExp(`^Data sent: ${read.toLocaleString('en-US')} B \\(`);
  t.match(lines[summary + 1], received, 'right after the spec block: the bytes received');
  t.match(lines[summary + 2], sent, 'then the bytes sent');
  t.ok(
    lines.findIndex((l) => l.startsWith('Total Requests:')) < summary,
    'the spec lines keep their place',
  );
});
