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
 * later flush is sent so too, and the user is told once.
 */
import protobuf from 'protobufjs/light.js';
import { compress } from 'snappyjs';
import type { OutputPlan, TrendAs } from '../../model/plan/output-plan.js';
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

/** The sink of one prometheus-rw output; `warn` tells the user of a fallback, once. */
export function openPrometheusOutput(output: OutputPlan, warn: (text: string) => void): OutputSink {
  return new PrometheusSink(output, warn);
}

class PrometheusSink implements OutputSink {
  readonly kind = 'prometheus-rw';
  readonly target: string;
  readonly #receiver: Receiver;
  readonly #writeRequest = protobuf.Root.fromJSON(descriptor).lookupType('prometheus.WriteRequest');
  readonly #warn: (text: string) => void;
  /** The form trends are sent in: the output's, until a receiver says it keeps no histograms. */
  #trendAs: TrendAs;
  /** The flush of each payload carrying native histograms, to send again as summaries. */
  readonly #native = new WeakMap<Payload, Flush>();

  constructor(output: OutputPlan, warn: (text: string) => void) {
    this.target = output.target;
    this.#receiver = { url: output.target, protocol: PROTOCOL_HEADERS, own: output.headers };
    this.#trendAs = output.trendAs;
    this.#warn = warn;
  }

  encode(flush: Flush): Payload | undefined {
    const payload = this.#encode(flush, this.#trendAs);
    if (payload?.histograms === true) this.#native.set(payload, flush);
    return payload;
  }

  /** POSTs the payload; one refused for its histograms goes again with the trends as summaries. */
  async send(payload: Payload, signal: AbortSignal): Promise<void> {
    try {
      await postPayload(this.#receiver, payload.body, signal);
    } catch (error) {
      const flush = this.#native.get(payload);
      const reason = error instanceof Error ? error.message : String(error);
      if (flush === undefined || signal.aborted || !HISTOGRAMS_NAMED.test(reason)) throw error;
      if (HISTOGRAMS_OFF.test(reason) && this.#trendAs === 'native') {
        this.#trendAs = 'stats';
        this.#warn(
          `output prometheus-rw ${this.target}: ${reason}; the trends are sent as summaries ` +
            `from now on (trend_as: stats), or start the receiver with native histograms ` +
            `(Prometheus: --enable-feature=native-histograms)`,
        );
      }
      await postPayload(this.#receiver, this.#encode(flush, 'stats')!.body, signal);
    }
  }

  /** Nothing held: each send is a request of its own. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #encode(flush: Flush, trendAs: TrendAs): (Payload & { histograms: boolean }) | undefined {
    const { series, metadata } = prometheusSeries(flush.points, flush.timeMs, trendAs);
    if (series.length === 0) return undefined;
    const message = this.#writeRequest.fromObject({ timeseries: series, metadata });
    return {
      body: compress(this.#writeRequest.encode(message).finish()),
      samples: series.length,
      histograms: series.some((s) => s.histograms.length > 0),
    };
  }
}
