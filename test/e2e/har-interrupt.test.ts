// `barrage har` of a large recording (20 MB, under the 50 MiB limit) takes seconds of a core;
// Ctrl+C during it ends the command at once with exit 130 (dsl/har/har-import-thread.ts: the
// import runs in a worker thread, so the main thread takes the signal). What shows it without a
// clock: interrupted mid-import, no configuration is written and no summary printed (when the
// import held the main thread, the signal was handled only after both). `validate --har` reads
// it in that thread too: seen in /proc while it runs, and Ctrl+C then ends validation at once.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { eventually } from '../helpers/eventually.js';
import { cpuTicks } from '../helpers/processes.js';
import { runCli } from '../helpers/run-cli.js';

/** A recording of `count` JSON API calls with 1.4 KB response bodies (about 2 KB an entry). */
function recording(count: number): string {
  const body = JSON.stringify({
    items: Array.from({ length: 20 }, (_, i) => ({
      id: i,
      name: `item-${i}`,
      tag: 'x'.repeat(20),
    })),
  });
  const entries = Array.from({ length: count }, (_, i) => ({
    startedDateTime: new Date(1_700_000_000_000 + i * 10).toISOString(),
    time: 5,
    request: {
      method: 'GET',
      url: `https://app.test/api/items/${i}?page=${i % 7}`,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'accept', value: 'application/json' }],
      queryString: [{ name: 'page', value: String(i % 7) }],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }],
      cookies: [],
      content: { size: body.length, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  }));
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test' }, entries } });
}

/** The recording both tests read. */
const HAR = recording(10_000);

/** Whether the process has a worker thread (Node names them so in /proc). */
function hasWorkerThread(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some(
      (task) => readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim() === 'WorkerThread',
    );
  } catch {
    return false;
  }
}

t.test('validate --har of a 20 MB HAR imports in a thread; Ctrl+C ends it', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'big.har'), HAR);
  let threaded = false;
  const run = await runCli(['validate', '--har', 'big.har'], {
    cwd: dir,
    killAfterMs: 60_000,
    onSpawn: (child) =>
      void eventually(() => (threaded = hasWorkerThread(child.pid!)) || child.exitCode !== null)
        .catch(() => undefined)
        .then(() => child.kill('SIGINT')),
  });
  t.ok(threaded, 'the import ran in a worker thread');
  t.equal(run.code, 130, run.stderr);
  t.equal(run.stdout, '', 'validation did not go on');
});

t.test('Ctrl+C during the import of a 20 MB HAR exits 130 at once', async (t) => {
  const dir = t.testdir({});
  const har = HAR;
  t.ok(har.length > 19_000_000 && har.length < 50 * 1024 * 1024, 'about 20 MB, under the limit');
  writeFileSync(join(dir, 'big.har'), har);
  let sentAt = 0;
  const run = await runCli(['har', 'big.har', '-o', 'out.yaml'], {
    cwd: dir,
    killAfterMs: 60_000,
    onSpawn: (child) =>
      void (async () => {
        // Under way: well into the import, which takes about 3 s of CPU (start-up is 0.3 s).
        await eventually(() => cpuTicks(child.pid!) > 80);
        sentAt = Date.now();
        child.kill('SIGINT');
      })(),
  });
  const tookMs = Date.now() - sentAt;
  t.equal(run.code, 130, run.stderr);
  t.notOk(existsSync(join(dir, 'out.yaml')), 'no configuration written');
  t.notMatch(run.stderr, /wrote|flow "recording"/, 'no summary printed');
  // A generous bound: the signal is taken within a turn of an idle event loop.
  t.ok(tookMs < 5_000, `exited ${tookMs} ms after the signal`);
});
