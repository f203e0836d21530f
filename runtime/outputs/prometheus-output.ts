/**
 * `prometheus-rw=URL`: each flush as a Prometheus remote write 1.0 request (docs/outputs.md,
 * Prometheus remote write): a WriteRequest of prompb's official definitions (proto/prometheus/,
 * loaded from their JSON descriptor), block-compressed with snappy, POSTed with the headers the
 * protocol requires. What the series are: prometheus-series.ts.
 *
 * Every request carries the totals since the run began, so a lost one costs nothing but its
 * points in time: the next one has the figures again.
 *
 * A receiver that refuses a request carrying native histograms with an answer naming histograms
 * (Prometheus without `--enable-feature=native-histograms` answers 500 "native histograms are
 * disabled", and drops the whole request, counters included) gets the same flush again with the
 * trends as summaries (trend_as: stats), at once; when the answer says they are disabled, every
 * later flush is sent so too, and the user is told once. A request refused as too large (413)
 * goes again in halves, and every later flush in parts of that many points (told once).
 */
import protobuf from 'protobufjs/light.js';
import { compress } from 'snappyjs';
import type { OutputPlan, TrendAs } from '../../model/plan/output-plan.js';
import type { Point } from './flush-window.js';
import type { Flush, OutputSink, Payload } from './output-sink.js';
import { postPayload, type Receiver } from './post-payload.js';
import { prometheusSeries } from './prometheus-series.js';
import descriptor from './proto/prometheus/remote-write.json' with { type: 'json' };

/** The headers remote write 1.0 requires. */
const PROTOCOL_HEADERS = {
  'content-encoding': 'snappy',
  'content-type': 'application/x-protobuf',
  'x-prometheus-remote-write-version': '0.1.0',
} as const;

/** A refusal whose answer names histograms: the trends as summaries may be taken. */
const HISTOGRAMS_NAMED = /histogram/i;
/** A refusal saying the receiver keeps no native histograms at all (Prometheus, Thanos, Cortex). */
const HISTOGRAMS_OFF = /native histograms? (are|is) (disabled|not supported|not enabled)/i;
/** A refusal of a request too large (413 Content Too Large): smaller ones may be taken. */
const TOO_LARGE = /^the receiver answered 413\b/;

/** The sink of one prometheus-rw output; `warn` tells the user of a fallback, once. */
export function openPrometheusOutput(output: OutputPlan, warn: (text: string) => void): OutputSink {
  return new PrometheusSink(output, warn);
}

/** An encoded request, and whether it carries native histograms. */
type Encoded = Payload & { readonly histograms: boolean };

class PrometheusSink implements OutputSink {
  readonly kind = 'prometheus-rw';
  readonly target: string;
  readonly #receiver: Receiver;
  readonly #writeRequest = protobuf.Root.fromJSON(descriptor).lookupType('prometheus.WriteRequest');
  readonly #warn: (text: string) => void;
  /** The form trends are sent in: the output's, until a receiver says it keeps no histograms. */
  #trendAs: TrendAs;
  /** Most points a request carries: all, until a receiver answers 413. */
  #maxPoints = Infinity;
  /** What each payload was encoded from, to send it again in another form or in parts. */
  readonly #sources = new WeakMap<Payload, { flush: Flush; trendAs: TrendAs }>();

  constructor(output: OutputPlan, warn: (text: string) => void) {
    this.target = output.target;
    this.#receiver = { url: output.target, protocol: PROTOCOL_HEADERS, own: output.headers };
    this.#trendAs = output.trendAs;
    this.#warn = warn;
  }

  encode(flush: Flush): Payload | undefined {
    const payload = this.#encode(flush.points, flush.timeMs, this.#trendAs);
    if (payload !== undefined) this.#sources.set(payload, { flush, trendAs: this.#trendAs });
    return payload;
  }

  /** POSTs the payload, in parts once a receiver took only smaller requests. */
  async send(payload: Payload, signal: AbortSignal): Promise<void> {
    const { flush, trendAs } = this.#sources.get(payload)!;
    await this.#post(flush.points, flush.timeMs, trendAs, signal, payload as Encoded);
  }

  /**
   * Sends `points` in parts of at most #maxPoints. A part refused for its histograms goes again
   * with the trends as summaries; one refused as too large (413), in halves.
   */
  async #post(
    points: readonly Point[],
    timeMs: number,
    trendAs: TrendAs,
    signal: AbortSignal,
    encoded?: Encoded,
  ): Promise<void> {
    if (points.length > this.#maxPoints) {
      for (let at = 0; at < points.length; at += this.#maxPoints)
        await this.#post(points.slice(at, at + this.#maxPoints), timeMs, trendAs, signal);
      return;
    }
    const payload = encoded ?? this.#encode(points, timeMs, trendAs);
    if (payload === undefined) return;
    try {
      await postPayload(this.#receiver, payload.body, signal);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (signal.aborted) throw error;
      if (payload.histograms && HISTOGRAMS_NAMED.test(reason)) {
        this.#noHistograms(reason);
        return this.#post(points, timeMs, 'stats', signal);
      }
      if (!TOO_LARGE.test(reason) || points.length === 1) throw error;
      this.#tooLarge(reason, Math.ceil(points.length / 2));
      return this.#post(points, timeMs, trendAs, signal);
    }
  }

  /** Trends as summaries from now on, when the receiver says it keeps no native histograms. */
  #noHistograms(reason: string): void {
    if (!HISTOGRAMS_OFF.test(reason) || this.#trendAs !== 'native') return;
    this.#trendAs = 'stats';
    this.#warn(
      `output prometheus-rw ${this.target}: ${reason}; the trends are sent as summaries ` +
        `from now on (trend_as: stats), or start the receiver with native histograms ` +
        `(Prometheus: --enable-feature=native-histograms)`,
    );
  }

  /** Smaller requests from now on (said the first time). */
  #tooLarge(reason: string, maxPoints: number): void {
    if (this.#maxPoints === Infinity)
      this.#warn(
        `output prometheus-rw ${this.target}: ${reason}; each flush is sent in smaller requests ` +
          `from now on, or raise the receiver's request size limit`,
      );
    this.#maxPoints = Math.min(this.#maxPoints, maxPoints);
  }

  /** Nothing held: each send is a request of its own. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #encode(points: readonly Point[], timeMs: number, trendAs: TrendAs): Encoded | undefined {
    const { series, metadata } = prometheusSeries(points, timeMs, trendAs);
    if (series.length === 0) return undefined;
    const message = this.#writeRequest.fromObject({ timeseries: series, metadata });
    return {
      body: compress(this.#writeRequest.encode(message).finish()),
      samples: series.length,
      histograms: series.some((s) => s.histograms.length > 0),
    };
  }
}
