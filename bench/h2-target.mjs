// A bench-only TLS target speaking HTTP/2 and HTTP/1.1 (ALPN picks): node:http2's secure server
// with allowHTTP1, answering a small JSON body to every request, so the same server and body are
// measured over h1 and h2 alike.
//   node bench/h2-target.mjs CERT_PEM KEY_PEM    prints "listening on https://127.0.0.1:PORT"
import { readFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';

const BODY = Buffer.from('{"ok":true,"items":[1,2,3]}');
const server = createSecureServer(
  { cert: readFileSync(process.argv[2]), key: readFileSync(process.argv[3]), allowHTTP1: true },
  (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  },
);
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on https://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
