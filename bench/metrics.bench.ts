/**
 * Metrics micro-benchmarks (not part of `npm test`): `npx tsx bench/metrics.bench.ts`.
 * Prints ns per Recorder.recordRequest() call, bytes per per-second bucket (encoded), and the cost
 * of snapshot(), mergeSnapshots() and summarize() for a 10-minute run;
 * `npx tsx bench/metrics.bench.ts widths 32|64|packed` compares histogram counter widths. Latencies are lognormal
 * around 5 ms (σ = 0.8) from a seeded generator, so runs are comparable.
 */
import { JsHistogram, build } from 'hdr-histogram-js';
import {
  HIGHEST_US,
  clampMicros,
  createHistogram,
  encodeHistogram,
  indexOfMicros,
  recordAt,
  recordMicros,
} from '../runtime/metrics/histogram.js';
import { MergeMemo, mergeSnapshots } from '../runtime/metrics/merge-stats.js';
import { Recorder } from '../runtime/metrics/recorder.js';
import type { ShardSnapshot } from '../runtime/metrics/snapshot.js';
import { summarize } from '../runtime/metrics/summarize.js';

/** Park–Miller generator: deterministic latencies. */
function lognormalMicros(count: number, seed = 42): Float64Array {
  let state = seed;
  const next = (): number => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const z = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
    out[i] = 5000 * Math.exp(0.8 * z);
  }
  return out;
}

function recorder(openModel: boolean): Recorder {
  return new Recorder({
    endpointCount: 4,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel,
  });
}

function benchRecord(): void {
  const n = 2_000_000;
  const latencies = lognormalMicros(n);
  for (const openModel of [false, true]) {
    for (let round = 0; round < 3; round++) {
      const r = recorder(openModel);
      // 20k requests a second over 100 s of run time.
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        const end = i * 50;
        const status = i % 50 === 0 ? 500 : 200;
        r.recordRequest(
          i & 3,
          status,
          status === 500 ? 'http_5xx' : undefined,
          end - latencies[i]!,
          end,
          end - latencies[i]! - 100,
          512,
          128,
        );
      }
      const ns = ((performance.now() - t0) * 1e6) / n;
      console.log(
        `recordRequest (${openModel ? 'open' : 'closed'} model, round ${round + 1}): ${ns.toFixed(1)} ns/call`,
      );
    }
  }
}

/** Library recordValue() against our index + incrementCountAtIndex(), for one counter width. */
function benchCounterWidth(bitBucketSize: 32 | 64 | 'packed'): void {
  const n = 1_000_000;
  const latencies = lognormalMicros(n, 7);
  for (let round = 0; round < 3; round++) {
    const make = (): JsHistogram => {
      const h = build({
        lowestDiscernibleValue: 1,
        highestTrackableValue: HIGHEST_US,
        numberOfSignificantValueDigits: 3,
        bitBucketSize,
        useWebAssembly: false,
      });
      if (!(h instanceof JsHistogram)) throw new Error('not a JS histogram');
      return h;
    };
    const library = make();
    const ours = make();
    let t0 = performance.now();
    for (let i = 0; i < n; i++) library.recordValue(clampMicros(latencies[i]!));
    const libraryNs = ((performance.now() - t0) * 1e6) / n;
    t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const v = clampMicros(latencies[i]!);
      recordAt(ours, indexOfMicros(v), v);
    }
    const oursNs = ((performance.now() - t0) * 1e6) / n;
    console.log(
      `bitBucketSize ${bitBucketSize}: recordValue ${libraryNs.toFixed(1)} ns, index + increment ${oursNs.toFixed(1)} ns, footprint ${ours.estimatedFootprintInBytes} bytes`,
    );
  }
}

function benchBucketSize(): void {
  for (const perSecond of [10, 100, 1_000, 10_000, 100_000]) {
    const h = createHistogram();
    for (const us of lognormalMicros(perSecond, perSecond)) recordMicros(h, us);
    const encoded = encodeHistogram(h);
    console.log(
      `second bucket with ${perSecond} requests: ${encoded.length} bytes encoded (live histogram ${h.estimatedFootprintInBytes} bytes)`,
    );
  }
}

function tenMinuteShard(seed: number, perSecond: number): Recorder {
  const r = recorder(true);
  const latencies = lognormalMicros(600 * perSecond, seed);
  for (let i = 0; i < latencies.length; i++) {
    const end = Math.floor((i * 1e6) / perSecond);
    r.recordRequest(i & 3, 200, undefined, end - latencies[i]!, end, end - latencies[i]!, 512, 128);
  }
  return r;
}

function time<T>(label: string, run: () => T): T {
  const t0 = performance.now();
  const out = run();
  console.log(`${label}: ${(performance.now() - t0).toFixed(1)} ms`);
  return out;
}

function benchRun(): void {
  const shards = Array.from({ length: 8 }, (_, i) => tenMinuteShard(i + 1, 1_000));
  const snapshots: ShardSnapshot[] = shards.map((s) => s.snapshot(600e6));
  time('snapshot() of a 10-minute shard, again (cached)', () => shards[0]!.snapshot(600e6));
  const bytes = snapshots[0]!.series.reduce((n, s) => n + s.latency.length, 0);
  console.log(
    `series of one shard: ${snapshots[0]!.series.length} seconds, ${(bytes / 1024).toFixed(0)} KB encoded`,
  );
  const merged = time('mergeSnapshots() of 8 shards × 600 s', () => mergeSnapshots(snapshots));
  const memo = new MergeMemo();
  mergeSnapshots(snapshots, memo);
  const live = shards.map((s) => s.snapshot(600.5e6));
  time('mergeSnapshots() again with a MergeMemo (live view tick)', () =>
    mergeSnapshots(live, memo),
  );
  time('summarize() of the merge', () => summarize(merged, ['a', 'b', 'c', 'd']));
  const heap = process.memoryUsage().heapUsed;
  console.log(`heap after all: ${(heap / 1024 / 1024).toFixed(0)} MB`);
}

// `… widths 32|64|packed` compares one counter width alone: measuring several in one process makes
// the shared call sites polymorphic and slows whatever runs after the first.
const widthArg = process.argv[2] === 'widths' ? process.argv[3] : undefined;
if (widthArg !== undefined) {
  benchCounterWidth(widthArg === 'packed' ? 'packed' : widthArg === '32' ? 32 : 64);
} else {
  benchRecord();
  benchBucketSize();
  benchRun();
}
