// The ceiling of the HTTP path barrage uses: `concurrency` undici Clients, each dispatching its
// next GET from the handler's onResponseEnd, recording nothing. Prints { rps } as JSON.
// Usage: node bench/undici-loop.mjs URL CONCURRENCY SECONDS [h2]
// With `h2`, each Client offers h2 by ALPN (undici's allowH2) as `http2: true` does; an https URL
// is trusted without verification (the bench's self-signed target).
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

const [url, concurrency, seconds, h2] = [
  new URL(process.argv[2]),
  Number(process.argv[3]),
  Number(process.argv[4]),
  process.argv[5] === 'h2',
];
let completed = 0;
let running = true;

function user() {
  const client = new Client(url.origin, {
    pipelining: 1,
    allowH2: h2,
    connect: { rejectUnauthorized: false },
  });
  const options = { path: url.pathname, method: 'GET' };
  const handler = {
    onRequestStart() {},
    onResponseStart() {},
    onResponseData() {},
    onResponseEnd() {
      completed++;
      if (running) client.dispatch(options, handler);
    },
    onResponseError(_controller, error) {
      console.error(error.message);
      process.exit(1);
    },
  };
  client.dispatch(options, handler);
}

for (let i = 0; i < concurrency; i++) user();
const start = performance.now();
setTimeout(() => {
  running = false;
  console.log(JSON.stringify({ rps: completed / ((performance.now() - start) / 1000) }));
  process.exit(0);
}, seconds * 1000);
