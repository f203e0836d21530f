// Every file a run writes is checked before any traffic (cli/output-paths.ts): a FIFO nothing
// reads (whose open would block past every signal), a path under /proc, a directory or a folder
// barrage cannot write in is refused at once, naming the flag and the path, exit 1, and the
// target sees nothing. A FIFO with a reader still gets its report.
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, constants, createReadStream, mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

async function counting(t: Test) {
  const seen = { requests: 0, url: '' };
  const server = createServer((_req, res) => {
    seen.requests++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  seen.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return seen;
}

const CASES: [string, string[], RegExp][] = [
  [
    '--json to a FIFO',
    ['--json', 'pipe'],
    /--json: report\.json: expected a file barrage can write \(the JSON result\), got "pipe": a FIFO \(named pipe\) that nothing reads/,
  ],
  [
    '--http-debug-file to a FIFO',
    ['--http-debug=all', '--http-debug-file', 'pipe'],
    /--http-debug-file: http_debug\.file: expected a file barrage can write \(the HTTP debug log\), got "pipe": a FIFO/,
  ],
  [
    '--out json= to a FIFO',
    ['--out', 'json=pipe'],
    /--out json=: outputs: expected a file barrage can write \(a JSON output\), got "pipe": a FIFO/,
  ],
  [
    '--html under /proc',
    ['--html', '/proc/barrage-report.html'],
    /--html: report\.html: expected a file barrage can write \(the HTML report\), got "\/proc\/barrage-report\.html": a path under \/proc/,
  ],
  [
    '--junit to a folder',
    ['--junit', 'folder'],
    /--junit: report\.junit: expected a file barrage can write \(the JUnit report\), got "folder": a directory/,
  ],
];

for (const [name, flags, message] of CASES) {
  t.test(`${name} is refused before any traffic`, async (t) => {
    const server = await counting(t);
    const dir = t.testdir({});
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    mkdirSync(join(dir, 'folder'));
    const result = await runCli(['--target', server.url, '-n', '3', ...flags], {
      cwd: dir,
      killAfterMs: 30_000,
    });
    t.equal(result.signal, null, 'ended by itself');
    t.equal(result.code, 1);
    t.match(result.stderr, message);
    t.match(result.stderr, /nothing was sent/);
    t.notMatch(result.stderr, /^\s+at /m, 'no stack trace');
    t.equal(server.requests, 0, 'the target saw nothing');
  });
}

t.test(
  'a folder barrage cannot write in is refused',
  { skip: process.getuid?.() === 0 ? 'root may write in any folder' : false },
  async (t) => {
    const server = await counting(t);
    const dir = t.testdir({ locked: {} });
    chmodSync(join(dir, 'locked'), 0o500);
    t.teardown(() => chmodSync(join(dir, 'locked'), 0o700));
    const result = await runCli(['--target', server.url, '-n', '3', '--json', 'locked/r.json'], {
      cwd: dir,
    });
    t.equal(result.code, 1);
    t.match(
      result.stderr,
      /--json: report\.json: expected a file barrage can write \(the JSON result\), got "locked\/r\.json": the folder .*EACCES/,
    );
    t.equal(server.requests, 0);
  },
);

t.test('a FIFO with a reader gets its report', async (t) => {
  const server = await counting(t);
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  // A reader held from now on (a non-blocking open returns at once), so the run finds one; the
  // stream's own open waits for the run's writer and reads until it closes.
  const holder = openSync(join(dir, 'pipe'), constants.O_RDONLY | constants.O_NONBLOCK);
  t.teardown(() => closeSync(holder));
  let text = '';
  const reader = createReadStream(join(dir, 'pipe'), 'utf8');
  reader.on('data', (chunk) => (text += String(chunk)));
  const ended = new Promise<void>((resolve) => reader.on('end', resolve));
  const result = await runCli(['--target', server.url, '-n', '3', '--json', 'pipe'], {
    cwd: dir,
    killAfterMs: 30_000,
  });
  t.equal(result.code, 0, result.stderr);
  await ended;
  t.equal(
    (JSON.parse(text) as { total: number }).total,
    3,
    'the JSON result came through the pipe',
  );
  t.equal(server.requests, 3);
});
