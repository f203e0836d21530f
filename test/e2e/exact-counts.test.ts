import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

/** A server that counts the requests it receives. */
async function counter(t: Test): Promise<{ url: string; count: () => number }> {
  let count = 0;
  const server = createServer((_req, res) => {
    count++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    count: () => count,
  };
}

// Issue 23: `-r 20 -d 3s` sent 61 requests and `-r 10 -d 2s` 21 (60 / 20 per s came out a hair
// under 3 s in floating point). Counted by the server, so nothing in barrage can round them.
t.test('an open-model run sends rate × duration requests, on one thread or two', async (t) => {
  const runs = [
    ['-r', '20', '-d', '3s'],
    ['-r', '10', '-d', '2s'],
    ['-r', '20', '-d', '3s', '--threads', '2'],
    ['-r', '10', '-d', '2s', '--threads', '2'],
  ];
  const expected = [60, 20, 60, 20];
  const targets = await Promise.all(runs.map(() => counter(t)));
  const results = await Promise.all(
    runs.map((flags, i) =>
      runCli(['run', '--target', targets[i]!.url, '-c', '4', '--quiet', ...flags]),
    ),
  );
  results.forEach((result, i) => {
    const name = runs[i]!.join(' ');
    t.equal(result.code, 0, `${name}: exit code`);
    t.equal(targets[i]!.count(), expected[i], `${name}: requests the server received`);
  });
});

t.test('a ramp sends the integral of its rate', async (t) => {
  const target = await counter(t);
  const dir = t.testdir({
    'ramp.yaml': `target: ${target.url}\nconcurrency: 4\npattern: { type: ramp, from: 0, to: 30, duration: 2s }\n`,
  });
  const result = await runCli(['run', 'ramp.yaml', '--quiet', '--threads', '2'], { cwd: dir });
  t.equal(result.code, 0);
  t.equal(target.count(), 30, '(0 + 30) / 2 per s for 2 s');
});

t.test(
  'a rate and duration that round to no request are refused before anything runs',
  async (t) => {
    const result = await runCli([
      'validate',
      '--target',
      'http://127.0.0.1:9',
      '-r',
      '0.1',
      '-d',
      '3s',
    ]);
    t.equal(result.code, 1);
    t.match(
      result.stderr,
      /--rate: rate: expected a rate and duration that send at least one request/,
    );
    t.match(result.stderr, /0\.1\/s for 3 s: 0\.300, which rounds to 0/);
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  },
);
