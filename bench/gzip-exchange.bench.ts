// CPU per gzip response in barrage's response handler (runtime/http/exchange.ts, issue 47): a
// 1.6 KB JSON body gzipped, delivered to an Exchange as undici delivers it (headers, one chunk,
// end), with nothing reading it (keepBytes 0: counted, not decoded) and with a reader (keepBytes
// at the cap: decoded, as every compressed body was before). Rounds alternate; medians, µs a
// response.
//   node --import tsx bench/gzip-exchange.bench.ts [ROUNDS=7] [RESPONSES=20000]
import { gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { Exchange } from '../runtime/http/exchange.js';
import { MAX_KEPT_BODY } from '../runtime/http/response-body.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const RESPONSES = Number(process.argv[3] ?? 20_000);
const BODY = gzipSync(JSON.stringify({ ok: true, items: [1, 2, 3, 4, 5], note: 'x'.repeat(1500) }));
const controller = {
  rawHeaders: [
    Buffer.from('content-type'),
    Buffer.from('application/json'),
    Buffer.from('content-encoding'),
    Buffer.from('gzip'),
  ],
  abort: () => undefined,
} as unknown as Dispatcher.DispatchController;

function responses(keepBytes: number): number {
  const exchange = new Exchange();
  const done = (): void => undefined;
  const now = (): number => 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < RESPONSES; i++) {
    exchange.start(keepBytes, done, now);
    exchange.onRequestStart(controller);
    exchange.onResponseStart(controller, 200);
    exchange.onResponseData(controller, BODY);
    exchange.onResponseEnd();
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / RESPONSES;
}

const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const read: number[] = [];
const unread: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  read.push(responses(MAX_KEPT_BODY));
  unread.push(responses(0));
}
console.log(
  `gzip body read (decoded, as every one was before): ${median(read).toFixed(2)} µs a response`,
);
console.log(`gzip body nothing reads (counted only): ${median(unread).toFixed(2)} µs a response`);
