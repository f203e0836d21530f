// The floor of the rate phase's p50 overhead on this machine: undici Clients sent GETs at a fixed
// rate, woken by a timer as barrage's scheduler is (sleeping in between, not polling), each
// request timed from dispatch() to its end. Prints { p50_ms } as JSON.
// Usage: node bench/undici-paced.mjs URL RATE SECONDS
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

const [url, rate, seconds] = [
  new URL(process.argv[2]),
  Number(process.argv[3]),
  Number(process.argv[4]),
];
const total = rate * seconds;
const free = Array.from({ length: Math.ceil(rate / 40) }, () => new Client(url.origin));
const options = { path: url.pathname, method: 'GET' };
const latencies = new Float64Array(total);
let sent = 0;
let completed = 0;
/** Permits that found every client busy (barrage would count them late): not sent. */
let busy = 0;

function send() {
  sent++;
  const client = free.pop();
  if (client === undefined) {
    busy++;
    return;
  }
  const start = performance.now();
  const finish = () => {
    latencies[completed++] = performance.now() - start;
    free.push(client);
    if (sent === total && completed + busy === total) report();
  };
  client.dispatch(options, {
    onRequestStart() {},
    onResponseStart() {},
    onResponseData() {},
    onResponseEnd: finish,
    onResponseError: finish,
  });
}

function report() {
  const sorted = latencies.subarray(0, completed).sort();
  console.log(JSON.stringify({ p50_ms: sorted[Math.floor(sorted.length / 2)], busy }));
  process.exit(0);
}

const t0 = performance.now();
function tick() {
  const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000));
  while (sent < due) send();
  if (sent < total)
    setTimeout(tick, Math.max(1, (sent + 1) * (1000 / rate) - (performance.now() - t0)));
}
tick();
