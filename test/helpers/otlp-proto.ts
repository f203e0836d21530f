/**
 * The official OpenTelemetry definitions barrage vendors (runtime/outputs/proto/), loaded from the
 * .proto files themselves with protobufjs' parser: what the committed JSON descriptor must equal,
 * and what the tests decode the otlp output's requests with, independently of the sink's module.
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/** The vendored .proto files' root folder (their imports are relative to it). */
export const OTLP_PROTO_DIR = fileURLToPath(
  new URL('../../runtime/outputs/proto/', import.meta.url),
);

/** The request message of OTLP/HTTP metrics, and what it imports. */
export const OTLP_METRICS_SERVICE =
  'opentelemetry/proto/collector/metrics/v1/metrics_service.proto';

/** The definitions parsed from the .proto files. */
export function loadOtlpProto(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${OTLP_PROTO_DIR}${target}`;
  return root.loadSync(OTLP_METRICS_SERVICE);
}
