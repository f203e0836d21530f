/**
 * One gRPC call of any kind through @grpc/grpc-js's generic client calls, with the method's
 * serializers from @grpc/proto-loader (never a hand-written codec): YAML endpoints
 * (grpc-runner.ts) and a scenario's `client.invoke` make their calls here.
 *
 *   kind           sends                        receives
 *   unary          one message                  one message (the callback)
 *   server_stream  one message                  messages until the server ends the stream
 *   client_stream  each message, then the end   one message (the callback)
 *   bidi           each message, then the end   messages until the server ends the stream
 *
 * The call ends at its status (grpc-js emits `status` once, after the last message and the
 * trailers), OK or not, or at its deadline (DEADLINE_EXCEEDED).
 */
import {
  Metadata,
  type Client,
  type ClientDuplexStream,
  type ClientReadableStream,
  type ServiceError,
  type StatusObject,
} from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { GrpcCallKind } from '../../model/plan/grpc-plan.js';

/** A loaded method: its path on the wire and its serializers. */
export type GrpcMethod = MethodDefinition<object, object>;

/** What one call asks for. */
export interface GrpcCallSpec {
  readonly kind: GrpcCallKind;
  readonly method: GrpcMethod;
  /** The request messages as plain objects (one but for client streams and bidi). */
  readonly messages: readonly object[];
  readonly metadata: readonly (readonly [string, string])[];
  readonly timeoutMs: number;
}

/** How a call ended. */
export interface GrpcCallResult {
  readonly code: number;
  readonly details: string;
  /** The last message received (a stream's last), undefined when none came. */
  readonly message: object | undefined;
  /** Messages written (the request's) and received. */
  readonly sent: number;
  readonly received: number;
  /** The response's headers, undefined when none came (the call never reached a server). */
  readonly headers: Metadata | undefined;
  readonly trailers: Metadata | undefined;
}

/** Makes one call on `client` and waits for its status. */
export function callGrpc(client: Client, spec: GrpcCallSpec): Promise<GrpcCallResult> {
  const { method, kind } = spec;
  const metadata = new Metadata();
  for (const [name, value] of spec.metadata) metadata.add(name, value);
  const options = { deadline: Date.now() + spec.timeoutMs };
  const path = method.path;
  const ser = method.requestSerialize;
  const de = method.responseDeserialize;
  return new Promise((resolve) => {
    let message: object | undefined;
    let received = 0;
    let headers: Metadata | undefined;
    const onReply = (_error: ServiceError | null, value?: object) => {
      if (value !== undefined) {
        message = value;
        received++;
      }
    };
    const first = spec.messages[0] ?? {};
    const call =
      kind === 'unary'
        ? client.makeUnaryRequest(path, ser, de, first, metadata, options, onReply)
        : kind === 'server_stream'
          ? client.makeServerStreamRequest(path, ser, de, first, metadata, options)
          : kind === 'client_stream'
            ? client.makeClientStreamRequest(path, ser, de, metadata, options, onReply)
            : client.makeBidiStreamRequest(path, ser, de, metadata, options);
    call.on('metadata', (m: Metadata) => (headers = m));
    if (kind === 'server_stream' || kind === 'bidi') {
      const stream = call as ClientReadableStream<object> | ClientDuplexStream<object, object>;
      stream.on('data', (value: object) => {
        message = value;
        received++;
      });
      // A non-OK status is also emitted as an error; the status says it all.
      stream.on('error', () => undefined);
    }
    call.on('status', (status: StatusObject) => {
      resolve({
        code: status.code,
        details: status.details,
        message,
        sent: kind === 'client_stream' || kind === 'bidi' ? spec.messages.length : 0,
        received: kind === 'server_stream' || kind === 'bidi' ? received : 0,
        headers,
        trailers: status.metadata,
      });
    });
    if (kind === 'client_stream' || kind === 'bidi') {
      const writable = call as ClientDuplexStream<object, object>;
      for (const m of spec.messages) writable.write(m);
      writable.end();
    }
  });
}
