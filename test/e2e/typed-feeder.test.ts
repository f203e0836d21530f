// Typed CSV columns (feeder.types): a GraphQL-style server that refuses a string where it wants an
// Int gets numbers and booleans from a CSV, as the file was written; a value not of its type is
// refused before anything is sent.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

/** A server keeping every JSON body it got; 400 when `id` is not a number. */
async function server(t: Test): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const http = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { id?: unknown };
      bodies.push(body);
      res.statusCode = typeof body.id === 'number' ? 200 : 400;
      res.end();
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    http.closeAllConnections();
    http.close();
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, bodies };
}

const config = (url: string) =>
  [
    `target: ${url}`,
    'requests: 3',
    'concurrency: 1',
    'feeder: { file: users.csv, cycle: false, types: { id: number, admin: boolean } }',
    'endpoints:',
    '  - method: POST',
    '    url: /graphql',
    '    body: { id: "{{id}}", admin: "{{admin}}", name: "{{name}}", label: "user {{id}}" }',
    '',
  ].join('\n');

t.test('typed columns reach the server as JSON numbers and booleans', async (t) => {
  const { url, bodies } = await server(t);
  const dir = t.testdir({
    'load.yaml': config(url),
    'users.csv': 'id,admin,name\n1,true,007\n22,false,bob\n-3.5,FALSE,"x,y"\n',
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.same(bodies, [
    { id: 1, admin: true, name: '007', label: 'user 1' },
    { id: 22, admin: false, name: 'bob', label: 'user 22' },
    { id: -3.5, admin: false, name: 'x,y', label: 'user -3.5' },
  ]);
});

t.test('a value not of its column type is refused before traffic', async (t) => {
  const { url, bodies } = await server(t);
  const dir = t.testdir({
    'load.yaml': config(url),
    'users.csv': 'id,admin,name\n1,true,a\n2x,true,b\n',
  });
  for (const command of ['validate', 'run']) {
    const result = await runCli([command, 'load.yaml'], { cwd: dir });
    t.equal(result.code, 1, command);
    t.match(
      result.stderr,
      'error: users.csv:3:1: feeder.file: expected a number in column id (feeder.types), got "2x"',
      command,
    );
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
  t.same(bodies, [], 'nothing was sent');
});
