// A bench-only target for the `features` phase (bench/feature-costs.mjs): the same small JSON
// answer three ways, so that the cost of what a real client does with a response shows by
// difference: /plain as it is, /cookie with a session cookie set on every response (the same
// Set-Cookie line each time, as a session target sends it), /gzip compressed (gzip, made once).
//   node bench/feature-target.mjs     prints "listening on URL"
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const BODY = Buffer.from(
  JSON.stringify({ ok: true, items: [1, 2, 3, 4, 5], note: 'x'.repeat(1500) }),
);
const GZIPPED = gzipSync(BODY);
const COOKIE = 'sid=3f2a9c41e7a2b58d; Path=/; HttpOnly; SameSite=Lax';

const server = createServer((req, res) => {
  req.resume();
  res.setHeader('content-type', 'application/json');
  if (req.url === '/cookie') res.setHeader('set-cookie', COOKIE);
  if (req.url === '/gzip') {
    res.setHeader('content-encoding', 'gzip');
    res.end(GZIPPED);
    return;
  }
  res.end(BODY);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
