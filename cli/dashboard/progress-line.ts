/**
 * Progress without a terminal (CI logs, pipes, --no-dashboard): one plain line on stderr every
 * PROGRESS_EVERY_MS of run time, no escape codes, e.g.
 *
 *   barrage: 0:10 elapsed, 1234.5 req/s, p95 12.34 ms, 0.20% errors (12345 requests, 25 failed)
 *
 * req/s is over the interval since the previous line (the current throughput); p95 and the error
 * rate cover the run so far, as the final report and the thresholds do:
 *   req/s = (requests − requests at the previous line) / (elapsed − elapsed at the previous line)
 * Lines are due when the snapshot's elapsed time crosses a multiple of the interval, so the
 * timing comes from the run's own clock.
 */
import { decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { formatClock } from './format.js';

/** Run time between two progress lines. */
export const PROGRESS_EVERY_MS = 5000;

/** The figures of one progress line. */
export interface ProgressFigures {
  readonly elapsedMs: number;
  /** Requests per second over the last interval. */
  readonly rate: number;
  /** Service-time p95 so far, ms; undefined before the first response. */
  readonly p95Ms: number | undefined;
  readonly requests: number;
  readonly failures: number;
}

/** One progress line, ending with a newline. */
export function formatProgressLine(f: ProgressFigures): string {
  const p95 = f.p95Ms === undefined ? 'p95 n/a' : `p95 ${f.p95Ms.toFixed(2)} ms`;
  const errors = f.requests === 0 ? 0 : (f.failures / f.requests) * 100;
  return (
    `barrage: ${formatClock(f.elapsedMs)} elapsed, ${f.rate.toFixed(1)} req/s, ${p95}, ` +
    `${errors.toFixed(2)}% errors (${f.requests} requests, ${f.failures} failed)\n`
  );
}

/** Prints a progress line whenever a snapshot crosses the next multiple of the interval. */
export class ProgressLines {
  #next: number;
  #requests = 0;
  #elapsedMs = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {
    this.#next = everyMs;
  }

  /** Takes the latest snapshot; prints a line when one is due. */
  update(snapshot: ShardSnapshot): void {
    if (snapshot.elapsedMs < this.#next) return;
    const span = (snapshot.elapsedMs - this.#elapsedMs) / 1000;
    this.write(
      formatProgressLine({
        elapsedMs: snapshot.elapsedMs,
        rate: span > 0 ? (snapshot.requests - this.#requests) / span : 0,
        p95Ms:
          snapshot.latency === '' ? undefined : percentileMs(decodeHistogram(snapshot.latency), 95),
        requests: snapshot.requests,
        failures: snapshot.failures,
      }),
    );
    this.#requests = snapshot.requests;
    this.#elapsedMs = snapshot.elapsedMs;
    this.#next = (Math.floor(snapshot.elapsedMs / this.everyMs) + 1) * this.everyMs;
  }
}
