/**
 * The dashboard's latency over time: p50 and p95 of the requests completed in each whole second
 * that has ended (ShardSnapshot.series, every request of the run), ms; a second with none is
 * undefined. A second's percentiles are decoded once and kept while its histogram stays the same
 * (a segment's figures may still grow an ended second), so a tick decodes only the newest seconds.
 */
import { decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import type { EncodedHistogram, ShardSnapshot } from '../../runtime/metrics/snapshot.js';

/** Latency percentiles of each ended second, ms, oldest first. */
export interface LatencyTrend {
  readonly p50: readonly (number | undefined)[];
  readonly p95: readonly (number | undefined)[];
}

/** Seconds kept: more than any terminal is wide. */
const MAX_SECONDS = 512;

/** Per-second percentiles, remembered from tick to tick. */
export class SecondLatencies {
  readonly #known = new Map<number, { encoded: EncodedHistogram; p50: number; p95: number }>();

  /** The last MAX_SECONDS ended seconds of `snapshot` (none before its first second ends). */
  trend(snapshot: ShardSnapshot | undefined): LatencyTrend {
    if (snapshot === undefined) return { p50: [], p95: [] };
    const ended = Math.floor(snapshot.elapsedMs / 1000);
    const first = Math.max(0, ended - MAX_SECONDS);
    const p50 = new Array<number | undefined>(ended - first).fill(undefined);
    const p95 = [...p50];
    for (const s of snapshot.series) {
      if (s.second < first || s.second >= ended || s.latency === '') continue;
      let known = this.#known.get(s.second);
      if (known?.encoded !== s.latency) {
        const histogram = decodeHistogram(s.latency);
        known = {
          encoded: s.latency,
          p50: percentileMs(histogram, 50),
          p95: percentileMs(histogram, 95),
        };
        this.#known.set(s.second, known);
      }
      p50[s.second - first] = known.p50;
      p95[s.second - first] = known.p95;
    }
    for (const second of this.#known.keys()) if (second < first) this.#known.delete(second);
    return { p50, p95 };
  }
}
