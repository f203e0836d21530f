/**
 * The per-second series of a metrics shard: requests, failures, bytes in and a latency histogram
 * for each second of the run, a completion counted in bucket floor(endUs / 1e6). The newest two
 * seconds keep a live histogram (189 KB each, pooled and reused); older ones are sealed: encoded
 * (≈ 0.1–6 KB) and their histogram returned to the pool. Completions arrive in clock order, so a
 * sealed second is almost never written again; when it is, it is decoded back into a live
 * histogram (slow path). Memory therefore grows by one small bucket a second, never per request.
 * The figures of the registry kept second by second (FigureSpec.perSecond: LLM output tokens and
 * requests) are counts of the bucket by their slot in SECOND_FIGURES, made on the first.
 */
import { SECOND_FIGURES } from '../../model/metrics/metric-figures.js';
import { secondFigures } from './second-figures.js';
import { CachedHistogram } from './histogram.js';
import type { SecondSnapshot } from './snapshot.js';

/** Seconds older than the newest minus this are sealed. */
const LIVE_SECONDS = 2;

/** Requests completed in one second of the run. */
export class SecondBucket {
  requests = 0;
  failures = 0;
  bytesIn = 0;
  /** The per-second figures by their slot in SECOND_FIGURES; undefined until one is counted. */
  figures: number[] | undefined;
  /** Live histogram while the second is recent; undefined once sealed. */
  live: CachedHistogram | undefined;
  /** The histogram's encoding once sealed. */
  sealed = '';
  /** The snapshot of a sealed bucket, reused until it is written again. */
  view: SecondSnapshot | undefined;
  constructor(readonly second: number) {}
}

/** The buckets of one shard, by second. */
export class SecondSeries {
  /** Buckets by second, and in creation order (sorted at snapshot when out of order). */
  readonly #bySecond = new Map<number, SecondBucket>();
  readonly #buckets: SecondBucket[] = [];
  #bucketsSorted = true;
  /** Buckets with a live histogram, the current one (always live) and the newest second seen. */
  readonly #live: SecondBucket[] = [];
  #current: SecondBucket | undefined;
  #newest = -1;
  readonly #pool: CachedHistogram[] = [];

  /** Adds `n` to the per-second figure of `slot` (SECOND_FIGURES) in the second holding `us`. */
  count(slot: number, us: number, n: number): void {
    const bucket = this.at(us);
    (bucket.figures ??= SECOND_FIGURES.map(() => 0))[slot]! += n;
  }

  /** The live bucket of the second holding `us`. */
  at(us: number): SecondBucket {
    const second = us > 0 ? Math.floor(us / 1e6) : 0;
    const current = this.#current;
    if (current !== undefined && current.second === second) return current;
    return this.#enter(second);
  }

  /** Slow path, about once a second: find or create the bucket, seal old ones, open this one. */
  #enter(second: number): SecondBucket {
    let bucket = this.#bySecond.get(second);
    if (bucket === undefined) {
      bucket = new SecondBucket(second);
      this.#bySecond.set(second, bucket);
      const last = this.#buckets[this.#buckets.length - 1];
      if (last !== undefined && last.second > second) this.#bucketsSorted = false;
      this.#buckets.push(bucket);
    }
    if (second > this.#newest) {
      this.#newest = second;
      this.#sealBefore(second - LIVE_SECONDS + 1);
    }
    if (bucket.live === undefined) this.#open(bucket);
    this.#current = bucket;
    return bucket;
  }

  #open(bucket: SecondBucket): void {
    const live = this.#pool.pop() ?? new CachedHistogram();
    live.addEncoded(bucket.sealed);
    bucket.sealed = '';
    bucket.view = undefined;
    bucket.live = live;
    this.#live.push(bucket);
  }

  /** Seals every live bucket of a second before `limit`. */
  #sealBefore(limit: number): void {
    const live = this.#live;
    for (let i = live.length - 1; i >= 0; i--) {
      const bucket = live[i]!;
      if (bucket.second >= limit) continue;
      live[i] = live[live.length - 1]!;
      live.pop();
      const histogram = bucket.live!;
      bucket.sealed = histogram.encode();
      bucket.live = undefined;
      histogram.reset();
      this.#pool.push(histogram);
      if (this.#current === bucket) this.#current = undefined;
    }
  }

  /** Every second so far; seconds before `finalBefore` are final and sealed. */
  snapshot(finalBefore: number): SecondSnapshot[] {
    // Seconds before finalBefore get no more completions (the clock is monotonic): seal them.
    this.#sealBefore(finalBefore);
    if (!this.#bucketsSorted) {
      this.#buckets.sort((a, b) => a.second - b.second);
      this.#bucketsSorted = true;
    }
    return this.#buckets.map((b) => {
      if (b.live === undefined && b.view !== undefined) return b.view;
      const view: SecondSnapshot = {
        second: b.second,
        requests: b.requests,
        failures: b.failures,
        bytesIn: b.bytesIn,
        latency: b.live === undefined ? b.sealed : b.live.encode(),
        ...secondFigures(b.figures),
      };
      if (b.live === undefined) b.view = view;
      return view;
    });
  }
}
