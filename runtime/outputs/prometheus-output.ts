/**
 * `prometheus-rw=URL`: each flush as a Prometheus remote write 1.0 request (docs/outputs.md,
 * Prometheus remote write): a WriteRequest of prompb's official definitions (proto/prometheus/,
 * loaded from their JSON descriptor), block-compressed with snappy, POSTed with the headers the
 * protocol requires. What the series are: prometheus-series.ts.
 *
 * Every request carries the totals since the run began, so a lost one costs nothing but its
 * points in time: the next one has the figures again.
 */
import protobuf from 'protobufjs/light.js';
import { compress } from 'snappyjs';
import type { OutputPlan, TrendAs } from '../../dsl/plan/output-plan.js';
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

/** The sink of one prometheus-rw output. */
export function openPrometheusOutput(output: OutputPlan): OutputSink {
  const writeRequest = protobuf.Root.fromJSON(descriptor).lookupType('prometheus.WriteRequest');
  return new PrometheusOutput(output, writeRequest);
}

class PrometheusOutput implements OutputSink {
  readonly kind = 'prometheus-rw';
  readonly target: string;
  readonly #trendAs: TrendAs;
  readonly #writeRequest: protobuf.Type;
  readonly #receiver: Receiver;

  constructor(output: OutputPlan, writeRequest: protobuf.Type) {
    this.target = output.target;
    this.#trendAs = output.trendAs;
    this.#writeRequest = writeRequest;
    this.#receiver = { url: output.target, protocol: PROTOCOL_HEADERS, own: output.headers };
  }

  encode(flush: Flush): Payload | undefined {
    const { series, metadata } = prometheusSeries(flush.points, flush.timeMs, this.#trendAs);
    if (series.length === 0) return undefined;
    const message = this.#writeRequest.fromObject({ timeseries: series, metadata });
    return { body: compress(this.#writeRequest.encode(message).finish()), samples: series.length };
  }

  send(payload: Payload, signal: AbortSignal): Promise<void> {
    return postPayload(this.#receiver, payload.body, signal);
  }

  async close(): Promise<void> {
    // Nothing held: each send is a request of its own.
  }
}
