// A virtual user's cookie jar is bounded as browsers bound theirs (runtime/http/cookie-jar.ts):
// a cookie larger than 4 KB is ignored, a domain keeps at most 180, and the Cookie header sent is
// at most 16 KiB. A target sending 2 × 8 KB cookies and 3 new small ones with every response
// would otherwise make each request carry megabytes of cookies.
import t from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

t.test('a target sending 2 × 8 KB cookies a response: none kept, the header bounded', async (t) => {
  const seen = { requests: 0, longestHeader: 0, mostCookies: 0, bigSent: 0 };
  const server = createServer((req, res) => {
    const n = seen.requests++;
    const header = req.headers.cookie ?? '';
    seen.longestHeader = Math.max(seen.longestHeader, header.length);
    seen.mostCookies = Math.max(seen.mostCookies, header === '' ? 0 : header.split('; ').length);
    if (header.includes('big')) seen.bigSent++;
    res.setHeader('set-cookie', [
      `big${2 * n}=${'x'.repeat(8000)}; Path=/`,
      `big${2 * n + 1}=${'y'.repeat(8000)}; Path=/`,
      ...[0, 1, 2].map((i) => `s${3 * n + i}=${'v'.repeat(40)}; Path=/`),
    ]);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const result = await runCli(['--target', url, '-n', '100', '-c', '1', '--json-output'], {
    killAfterMs: 60_000,
  });
  t.equal(result.code, 0, result.stderr);
  t.equal(seen.requests, 100);
  t.equal(seen.bigSent, 0, 'no cookie over 4 KB was kept');
  t.ok(
    seen.longestHeader <= 16 * 1024,
    `the Cookie header stays within 16 KiB (${seen.longestHeader})`,
  );
  t.ok(seen.mostCookies <= 180, `at most 180 cookies of a domain (${seen.mostCookies})`);
  t.ok(seen.mostCookies >= 100, 'small cookies are still kept and sent');
});
