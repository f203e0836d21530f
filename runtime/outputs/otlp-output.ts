/**
 * `otlp=URL`: the run's figures as OpenTelemetry metrics over OTLP/HTTP (docs/outputs.md,
 * OpenTelemetry): each flush one ExportMetricsServiceRequest (otlp-metrics.ts), encoded in
 * protobuf by protobufjs from the official definitions (proto/, loaded from their JSON descriptor,
 * so no .proto parser runs), POSTed with `Content-Type: application/x-protobuf` and the output's
 * headers. The receiver's answer (an ExportMetricsServiceResponse) is not read: a 2xx took it.
 */
import protobuf from 'protobufjs/light.js';
import type { OutputPlan } from '../../model/plan/output-plan.js';
import { otlpRequest } from './otlp-metrics.js';
import type { OutputSink } from './output-sink.js';
import { PostedSink } from './post-payload.js';
import descriptor from './proto/otlp-metrics.json' with { type: 'json' };

const root = protobuf.Root.fromJSON(descriptor);
const REQUEST = root.lookupType(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
);
const CUMULATIVE = root.lookupEnum('opentelemetry.proto.metrics.v1.AggregationTemporality').values
  .AGGREGATION_TEMPORALITY_CUMULATIVE!;

/** The media type of OTLP/HTTP's binary protobuf encoding. */
const PROTOBUF = 'application/x-protobuf';

/** The sink of an otlp output. */
export function openOtlpOutput(output: OutputPlan): OutputSink {
  // The body is protobuf whatever the user's headers say.
  const receiver = {
    url: output.target,
    protocol: { 'content-type': PROTOBUF },
    own: output.headers,
  };
  return new PostedSink('otlp', output.target, receiver, (flush) => {
    const { request, dataPoints } = otlpRequest(flush, CUMULATIVE);
    if (dataPoints === 0) return undefined;
    return { body: REQUEST.encode(request).finish(), samples: dataPoints };
  });
}
