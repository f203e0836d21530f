/**
 * A gRPC endpoint's call (docs/grpc.md): an endpoint whose url is grpc://host:port (plaintext
 * HTTP/2, h2c) or grpcs://host:port (TLS, with the run's `tls:` settings) calls one method of a
 * service its `.proto` file declares. The proto is loaded by @grpc/proto-loader at validation
 * (dsl/sources/grpc-protos.ts) and again in each segment (runtime/grpc/), never encoded by hand.
 */
import type { HeaderPlan } from './endpoint-plan.js';
import type { Template } from './template.js';

/** gRPC status codes by number (grpc/doc/statuscodes.md): a code's name is GRPC_CODES[code]. */
export const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** A gRPC status code's name. */
export type GrpcCodeName = (typeof GRPC_CODES)[number];

/** The name of status code `code` (`CODE_<n>` for one outside the table). */
export function grpcCodeName(code: number): string {
  return GRPC_CODES[code] ?? `CODE_${code}`;
}

/**
 * The shape of a method: one request and one response (unary), a stream of responses
 * (server_stream), a stream of requests (client_stream), or both (bidi).
 */
export type GrpcCallKind = 'unary' | 'server_stream' | 'client_stream' | 'bidi';

/** The call kind of a method by its proto's `stream` markers. */
export function grpcCallKind(requestStream: boolean, responseStream: boolean): GrpcCallKind {
  if (requestStream) return responseStream ? 'bidi' : 'client_stream';
  return responseStream ? 'server_stream' : 'unary';
}

/**
 * How protos are loaded, at validation and in each segment alike (@grpc/proto-loader's options):
 * field names as the proto spells them, 64-bit integers and enums as strings (JSON has no int64),
 * unset fields with their defaults in decoded messages (so JSONPath finds them), oneofs named.
 */
export const PROTO_LOAD_OPTIONS = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

/** An endpoint's gRPC call, compiled. */
export interface GrpcPlan {
  /** The proto file's absolute path (inside the configuration's folder). */
  readonly protoFile: string;
  /** Where its imports are looked up: the configuration's folder. */
  readonly includeDirs: readonly string[];
  /** The full method name: `package.Service/Method`. */
  readonly method: string;
  readonly kind: GrpcCallKind;
  /** host:port of the server. */
  readonly address: string;
  /** grpcs://: TLS with the run's settings; grpc://: plaintext HTTP/2. */
  readonly tls: boolean;
  /**
   * The request messages as JSON text templates, sent in order: one for a unary or server-stream
   * call, each of `messages:` for a client-stream or bidi one.
   */
  readonly messages: readonly Template[];
  /** Request metadata (names lower case), values templated. */
  readonly metadata: readonly HeaderPlan[];
  /** Status codes that are a success (default: OK alone). */
  readonly expected: readonly number[];
}
