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
import type { OutputPlan } from '../../model/plan/output-plan.js';
import type { OutputSink } from './output-sink.js';
import { PostedSink } from './post-payload.js';
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
  const receiver = { url: output.target, protocol: PROTOCOL_HEADERS, own: output.headers };
  return new PostedSink('prometheus-rw', output.target, receiver, (flush) => {
    const { series, metadata } = prometheusSeries(flush.points, flush.timeMs, output.trendAs);
    if (series.length === 0) return undefined;
    const message = writeRequest.fromObject({ timeseries: series, metadata });
    return { body: compress(writeRequest.encode(message).finish()), samples: series.length };
  });
}
