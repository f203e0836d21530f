// Reports survive: a second Ctrl+C and SIGHUP still leave every requested report file, complete;
// a write that fails (EFBIG past a file-size limit, as a full disk would fail it) leaves no
// half-written file and no temporary file, says which file, and exits 1.
import t, { type Test } from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { parseRawResult } from '../../cli/raw-result-schema.js';
import { eventually } from '../helpers/eventually.js';
import { runCli } from '../helpers/run-cli.js';
import { checkJunitSchema, xmllintSkip } from '../helpers/xmllint.js';

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer({});
  t.teardown(() => server.close());
  return server;
}

function folder(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-survival-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every report flag, writing into `dir`, and a threshold so the JUnit report has a case. */
const REPORT_FLAGS = [
  '--json',
  'result.json',
  '--html',
  'report.html',
  '--junit',
  'junit.xml',
  '--summary-md',
  'summary.md',
  '--raw',
  'raw.json',
  '--threshold',
  'http_req_failed:rate < 0.5',
];

/** Checks that each of the five files is there and whole; returns the JSON result. */
function assertComplete(t: Test, dir: string): { total: number; interrupted: boolean } {
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  const result = JSON.parse(read('result.json')) as { total: number; interrupted: boolean };
  t.match(read('report.html'), /<\/html>\s*$/, 'the HTML report ends with </html>');
  t.match(read('junit.xml'), /<\/testsuites>\s*$/, 'the JUnit report is closed');
  t.match(read('summary.md'), /\S/, 'the Markdown summary has content');
  t.ok(parseRawResult('raw.json', JSON.parse(read('raw.json'))).ok, 'the raw result is whole');
  t.same(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file is left',
  );
  return result;
}

t.test(
  'a second SIGINT writes every requested report of what was collected, then exits 130',
  async (t) => {
    const server = await target(t);
    const dir = folder(t);
    let stderr = '';
    const result = await runCli(
      [
        'run',
        '--target',
        `${server.url}/delay/2000`,
        '-c',
        '3',
        '-d',
        '60s',
        '--timeout',
        '30s',
        ...REPORT_FLAGS,
      ],
      {
        cwd: dir,
        onSpawn: (child) => {
          child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
          void (async () => {
            // A progress line counting answered requests: the run has collected something.
            await eventually(() => /\([1-9]\d* requests/.test(stderr), 30_000);
            child.kill('SIGINT');
            // The second while the first stop waits for requests in flight (2 s each).
            await eventually(() => /stopping/.test(stderr));
            child.kill('SIGINT');
          })();
        },
      },
    );
    t.equal(result.code, 130);
    t.match(result.stdout, /--- Load Test Results ---/);
    const json = assertComplete(t, dir);
    t.equal(json.interrupted, true);
    t.ok(json.total >= 1, `what was collected is reported (${json.total} requests)`);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const skip = xmllintSkip(process.env);
    if (skip === false) {
      const check = checkJunitSchema(junit, dir, 'junit-check.xml');
      t.ok(check.ok, check.messages);
    } else t.comment(`JUnit schema not checked: ${skip}`);
  },
);

t.test('SIGHUP stops the run like SIGTERM: reports written, thresholds decide', async (t) => {
  const server = await target(t);
  const dir = folder(t);
  const result = await runCli(
    ['run', '--target', `${server.url}/delay/20`, '-c', '2', '-d', '60s', ...REPORT_FLAGS],
    {
      cwd: dir,
      onSpawn: (child) => {
        const served = server.stats().total;
        void eventually(() => server.stats().total >= served + 20).then(() => child.kill('SIGHUP'));
      },
    },
  );
  t.equal(result.signal, null, 'the signal did not end the process');
  t.equal(result.code, 0, 'the threshold passed');
  t.match(result.stderr, /SIGHUP: stopping/);
  const json = assertComplete(t, dir);
  t.equal(json.interrupted, true);
  t.ok(json.total >= 20);
});

t.test('a write that fails (EFBIG) leaves no half-written file, names it, exits 1', async (t) => {
  const server = await target(t);
  const dir = folder(t);
  const previous = '<!doctype html><html><body>the previous report</body></html>\n';
  writeFileSync(join(dir, 'report.html'), previous);
  const fresh = join(dir, 'fresh');
  // 64 blocks of 512 bytes: the JSON result fits, an HTML report (its chart library) does not.
  const result = await runCli(
    [
      'run',
      '--target',
      `${server.url}/`,
      '-n',
      '20',
      '--json',
      'result.json',
      '--html',
      'report.html',
      '--summary-md',
      'fresh/summary.md',
      '--junit',
      'fresh/big.xml',
    ],
    { cwd: dir, fileSizeLimitBlocks: 64 },
  );
  t.equal(result.code, 1);
  t.match(result.stderr, /could not write the HTML report to report\.html: EFBIG/);
  t.equal(readFileSync(join(dir, 'report.html'), 'utf8'), previous, 'the previous file is whole');
  t.equal(
    (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { total: number }).total,
    20,
  );
  t.match(readFileSync(join(fresh, 'summary.md'), 'utf8'), /\S/, 'the other files are written');
  t.same(
    [...readdirSync(dir), ...readdirSync(fresh)].filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file is left',
  );
  const first = await runCli(
    ['run', '--target', `${server.url}/`, '-n', '5', '--html', 'new.html'],
    {
      cwd: fresh,
      fileSizeLimitBlocks: 64,
    },
  );
  t.equal(first.code, 1);
  t.same(readdirSync(fresh).sort(), ['big.xml', 'summary.md'], 'no file where none was before');
});
