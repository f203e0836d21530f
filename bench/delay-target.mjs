// A bench-only target that answers every request after a fixed delay and measures its own share:
// the time from the request's arrival to the end of its response, per request. The rate phase
// subtracts the target's median from the generator's to get the generator's own overhead, so a
// late server timer (Node's timers fire on the next loop turn, often 0.1–0.5 ms after the due
// time under load) is not blamed on barrage.
//   node bench/delay-target.mjs DELAY_MS    prints "listening on URL"; GET /__median → {"p50_ms"}
//                                           (and resets the samples)
import { createServer } from 'node:http';

const DELAY_MS = Number(process.argv[2] ?? 10);
const BODY = Buffer.from('{"ok":true}');
/** Bounded sample store: the bench's longest phase at 20k/s for 10 s fits. */
const samples = new Float64Array(400_000);
let count = 0;

function median() {
  const sorted = samples.subarray(0, count).slice().sort();
  count = 0;
  return sorted.length === 0 ? null : sorted[Math.floor(sorted.length / 2)];
}

const server = createServer((req, res) => {
  if (req.url === '/__median') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ p50_ms: median() }));
    return;
  }
  const arrived = process.hrtime.bigint();
  req.resume();
  setTimeout(() => {
    res.setHeader('content-type', 'application/json');
    res.end(BODY, () => {
      if (count < samples.length)
        samples[count++] = Number(process.hrtime.bigint() - arrived) / 1e6;
    });
  }, DELAY_MS);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
