// A target that sets a session cookie and echoes it (runtime/http/hide-cookie-values.ts): the
// value reaches neither the HTTP debug log nor any report. Each response sets `sid` anew and
// echoes, in its body and an X-Echo header, the value it sets and the Cookie it was sent; it
// answers 500, so every request is a sample failure of the JSON and HTML reports as well as a
// line of `--http-debug=all`. In process, against a real loopback server.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { runInProcess } from '../helpers/in-process-cli.js';

/** The session value of the response numbered `n`. */
const sessionOf = (n: number): string => `sess-${n}-9c41e7a2b58d`;

t.test('cookie values the target echoes are hidden in the debug log and reports', async (t) => {
  let served = 0;
  const server = createServer((req, res) => {
    served++;
    const set = sessionOf(served);
    const got = req.headers.cookie ?? '';
    res.writeHead(500, {
      'content-type': 'text/plain',
      'set-cookie': `sid=${set}; Path=/; HttpOnly`,
      'x-echo': `${set} ${got}`,
    });
    res.end(`your session is ${set}; you sent ${got}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = t.testdir({});
  const run = await runInProcess(
    [
      'run',
      '--target',
      `${url}/me`,
      '-n',
      '3',
      '-c',
      '1',
      '--quiet',
      '--http-debug=all',
      '--http-debug-file',
      'debug.ndjson',
      '--json',
      'r.json',
      '--html',
      'r.html',
    ],
    { cwd: dir },
  );
  t.equal(served, 3, run.stderr);
  const log = readFileSync(join(dir, 'debug.ndjson'), 'utf8');
  const json = readFileSync(join(dir, 'r.json'), 'utf8');
  const html = readFileSync(join(dir, 'r.html'), 'utf8');
  for (let n = 1; n <= 3; n++)
    for (const [name, text] of [
      ['the debug log', log],
      ['the JSON report', json],
      ['the HTML report', html],
      ['stdout and stderr', run.stdout + run.stderr],
    ] as const)
      t.notOk(text.includes(sessionOf(n)), `session ${n} is not in ${name}`);
  const lines = log
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ExchangeRecord);
  t.equal(lines.length, 3, 'a line per request');
  // The second was sent the first's cookie, and echoed both.
  t.equal(lines[1]!.response?.body, 'your session is [redacted]; you sent sid=[redacted]');
  t.equal(lines[1]!.response?.headers['x-echo'], '[redacted] sid=[redacted]');
  const samples = (JSON.parse(json) as JsonResult).sample_failures ?? [];
  t.ok(samples.length > 0, 'the failures are sampled in the JSON report');
  t.match(samples[0]!.response?.body, /^your session is \[redacted\]/);
});
