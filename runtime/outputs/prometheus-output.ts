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
import { postPayload } from './post-payload.js';
import { prometheusSeries } from './prometheus-series.js';
import descriptor from './proto/prometheus/remote-write.json' with { type: 'json' };

/** The headers remote write 1.0 requires; the output's own come before them. */
const PROTOCOL_HEADERS = {
  'content-encoding': 'snappy',
  'content-type': 'application/x-protobuf',
  'x-prometheus-remote-write-version': '0.1.0',
} as const;

/** The sink of one prometheus-rw output. */
export function openPrometheusOutput(output: OutputPlan): OutputSink {
  const writeRequest = protobuf.Root.fromJSON(descriptor).lookupType('prometheus.WriteRequest');
  const headers: Record<string, string> = { 'user-agent': 'barrage' };
  for (const [name, value] of Object.entries(output.headers)) headers[name.toLowerCase()] = value;
  return new PrometheusOutput(
    output.target,
    output.trendAs,
    writeRequest,
    { ...headers, ...PROTOCOL_HEADERS },
    secretsOf(output.headers),
  );
}

/**
 * What a refusal's message must not quote: the output's own header values (its credentials) and
 * their words after the first (a token without `Bearer`), should the receiver echo the request.
 */
function secretsOf(headers: Readonly<Record<string, string>>): string[] {
  return Object.values(headers)
    .flatMap((value) => [value, ...value.split(/\s+/).slice(1)])
    .filter((value) => value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
}

/** Shorter values are not hidden: they would blank out common words, and hold no secret. */
const MIN_SECRET_CHARS = 6;

class PrometheusOutput implements OutputSink {
  readonly kind = 'prometheus-rw';
  readonly target: string;
  readonly #trendAs: TrendAs;
  readonly #writeRequest: protobuf.Type;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #secrets: readonly string[];

  constructor(
    target: string,
    trendAs: TrendAs,
    writeRequest: protobuf.Type,
    headers: Readonly<Record<string, string>>,
    secrets: readonly string[],
  ) {
    this.target = target;
    this.#trendAs = trendAs;
    this.#writeRequest = writeRequest;
    this.#headers = headers;
    this.#secrets = secrets;
  }

  encode(flush: Flush): Payload | undefined {
    const { series, metadata } = prometheusSeries(flush.points, flush.timeMs, this.#trendAs);
    if (series.length === 0) return undefined;
    const message = this.#writeRequest.fromObject({ timeseries: series, metadata });
    return { body: compress(this.#writeRequest.encode(message).finish()), samples: series.length };
  }

  async send(payload: Payload, signal: AbortSignal): Promise<void> {
    try {
      await postPayload(this.target, this.#headers, payload.body, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        this.#secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message),
      );
    }
  }

  async close(): Promise<void> {
    // Nothing held: each send is a request of its own.
  }
}
