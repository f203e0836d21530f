/**
 * A gRPC endpoint (docs/grpc.md) → GrpcPlan: its address from the url (grpc:// plaintext, grpcs://
 * TLS; the default ports 80 and 443), its messages as JSON templates (placeholders encoded as in
 * a JSON body; the serializer converts a number's text for a numeric field), its metadata
 * templated, its expected codes (default OK). The method's kind comes from the loaded proto.
 */
import type { Template } from '../../model/plan/template.js';
import type { GrpcPlan } from '../../model/plan/grpc-plan.js';
import type { Config } from '../schema/config-schema.js';
import type { GrpcMethodInfo } from '../sources/grpc-protos.js';
import { compileJson } from './request-parts.js';
import { resolveTemplate as resolve, type EnvResolver } from './resolve-template.js';

type EndpointConfig = NonNullable<Config['endpoints']>[number];

/** The call's plan, and the templates it renders (for the variables it needs). */
export function compileGrpcCall(
  endpoint: EndpointConfig,
  url: string,
  info: GrpcMethodInfo,
  env: EnvResolver,
): { plan: GrpcPlan; templates: Template[] } {
  const grpc = endpoint.grpc!;
  const tls = /^grpcs:/i.test(url);
  const parsed = new URL(url.replace(/^grpcs?:/i, tls ? 'https:' : 'http:'));
  const port = parsed.port === '' ? (tls ? '443' : '80') : parsed.port;
  const messages = grpc.messages?.map((m, i) => compileJson(m, ['grpc', 'messages', i], env)) ?? [
    compileJson(grpc.message ?? {}, ['grpc', 'message'], env),
  ];
  const metadata = Object.entries(grpc.metadata ?? {}).map(([name, value]) => ({
    name: name.toLowerCase(),
    value: resolve(value, ['grpc', 'metadata', name], env, { singleLine: true }),
  }));
  return {
    plan: {
      protoFile: info.protoFile,
      includeDirs: info.includeDirs,
      method: grpc.method,
      kind: info.kind,
      address: `${parsed.hostname}:${port}`,
      tls,
      messages,
      metadata,
      expected: endpoint.expect?.grpc_status ?? [0],
    },
    templates: [...messages, ...metadata.map((m) => m.value)],
  };
}
