/**
 * The `.proto` files of gRPC endpoints (docs/grpc.md), loaded at validation with
 * @grpc/proto-loader, before anything is sent: each file must lie inside the configuration's
 * folder (its imports are looked up there), its method must be a service's, and the message's
 * fields the request type's (nested messages too), each problem naming the endpoint's key.
 */
import { resolve } from 'node:path';
import { loadSync, type MessageTypeDefinition, type PackageDefinition } from '@grpc/proto-loader';
import type { ConfigIssue } from '../issues.js';
import type { Provenance } from '../layers.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import { closest } from '../grammar/did-you-mean.js';
import { isInsideFolder } from '../script/scenario-folder.js';
import { grpcCallKind, PROTO_LOAD_OPTIONS, type GrpcCallKind } from '../../model/plan/grpc-plan.js';

/** What validation learned of an endpoint's method. */
export interface GrpcMethodInfo {
  readonly protoFile: string;
  readonly includeDirs: readonly string[];
  readonly kind: GrpcCallKind;
}

/** Each gRPC endpoint's method, by endpoint index. */
export type GrpcMethods = ReadonlyMap<number, GrpcMethodInfo>;

type Path = readonly (string | number)[];

/** A message type of a loaded proto. */
type Message = MessageTypeDefinition<object, object>;

/** A descriptor's field, as proto-loader gives it (descriptor.proto's FieldDescriptorProto). */
interface FieldDescriptor {
  readonly name: string;
  readonly typeName?: string;
}

/** Loads every gRPC endpoint's proto and checks its method and messages. */
export function readGrpcProtos(
  config: Config,
  baseDir: string,
  provenance: Provenance,
): Result<GrpcMethods, ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  const methods = new Map<number, GrpcMethodInfo>();
  const issue = (path: Path, expected: string, actual: string, code: ConfigIssue['code']) =>
    issues.push({ code, source: provenance.sourceOf(path), path, expected, actual });
  (config.endpoints ?? []).forEach((endpoint, index) => {
    const grpc = endpoint.grpc;
    if (grpc === undefined) return;
    const at = (...keys: (string | number)[]): Path => ['endpoints', index, 'grpc', ...keys];
    const protoFile = resolve(baseDir, grpc.proto);
    if (!isInsideFolder(baseDir, protoFile)) {
      issue(
        at('proto'),
        `a file inside the configuration's folder (${baseDir})`,
        `${JSON.stringify(grpc.proto)}: outside it`,
        'invalid_value',
      );
      return;
    }
    let definition: PackageDefinition;
    try {
      definition = loadSync(protoFile, { ...PROTO_LOAD_OPTIONS, includeDirs: [baseDir] });
    } catch (error) {
      issue(
        at('proto'),
        'a .proto file that @grpc/proto-loader reads',
        `${JSON.stringify(grpc.proto)}: ${firstLine(error)}`,
        'file_unreadable',
      );
      return;
    }
    const found = findMethod(definition, grpc.method);
    if (typeof found === 'string') {
      issue(at('method'), found, `"${grpc.method}" in ${grpc.proto}`, 'invalid_value');
      return;
    }
    const kind = grpcCallKind(found.requestStream, found.responseStream);
    const streams = kind === 'client_stream' || kind === 'bidi';
    if (streams && grpc.message !== undefined)
      issue(
        at('message'),
        `messages: [...] (${grpc.method} takes a stream of requests)`,
        'message',
        'invalid_value',
      );
    if (!streams && grpc.messages !== undefined)
      issue(
        at('messages'),
        `message: {...} (${grpc.method} takes one request)`,
        'messages',
        'invalid_value',
      );
    // The request type's full name: its descriptor's name, looked up from the service's scope.
    const service = grpc.method.split('/')[0]!;
    const name = typeNameOf(found.requestType);
    const request = nestedType(definition, service, name) ?? { name, type: found.requestType };
    const given = grpc.messages ?? [grpc.message ?? {}];
    given.forEach((message, i) => {
      const path = grpc.messages === undefined ? at('message') : at('messages', i);
      for (const [p, expected, actual] of unknownFields(
        definition,
        request.name,
        request.type,
        message,
        path,
      ))
        issue(p, expected, actual, 'invalid_value');
    });
    methods.set(index, { protoFile, includeDirs: [baseDir], kind });
  });
  return issues.length > 0 ? err(issues) : ok(methods);
}

/** The method `package.Service/Method` of a loaded proto, or what was expected instead. */
function findMethod(
  definition: PackageDefinition,
  method: string,
): { requestStream: boolean; responseStream: boolean; requestType: Message } | string {
  const [service, name] = method.split('/') as [string, string];
  const services = Object.keys(definition).filter((k) => !('format' in definition[k]!));
  const found = Object.hasOwn(definition, service) ? definition[service] : undefined;
  if (found === undefined || 'format' in found) {
    const guess = closest(service, services);
    return `a service the proto declares: ${services.join(', ') || '(none)'}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`;
  }
  const own = Object.hasOwn(found, name) ? found[name] : undefined;
  if (own === undefined) {
    const names = Object.keys(found);
    const guess = closest(name, names);
    return `a method of ${service}: ${names.join(', ')}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`;
  }
  return own;
}

/** Keys of `message` (and of its nested messages) that its type does not declare. */
function unknownFields(
  definition: PackageDefinition,
  typeName: string,
  type: Message,
  message: Readonly<Record<string, unknown>>,
  path: Path,
): [Path, string, string][] {
  const descriptor = type.type as {
    readonly name: string;
    readonly field: readonly FieldDescriptor[];
  };
  const fields = descriptor.field;
  const names = fields.map((f) => f.name);
  const out: [Path, string, string][] = [];
  for (const [key, value] of Object.entries(message)) {
    if (key.includes('{{')) continue;
    const field = fields.find((f) => f.name === key);
    if (field === undefined) {
      const guess = closest(key, names);
      out.push([
        [...path, key],
        `a field of ${descriptor.name}: ${names.join(', ') || '(none)'}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`,
        `"${key}"`,
      ]);
      continue;
    }
    const nested = nestedType(definition, typeName, field.typeName);
    if (nested !== undefined && isMapping(value))
      out.push(...unknownFields(definition, nested.name, nested.type, value, [...path, key]));
  }
  return out;
}

/**
 * The message type a field names: its `typeName` as the descriptor writes it (relative to the
 * enclosing type's scope, or absolute with a leading "."), looked up from the innermost scope
 * out, as protoc resolves names.
 */
function nestedType(
  definition: PackageDefinition,
  scopeName: string,
  typeName: string | undefined,
): { name: string; type: Message } | undefined {
  if (typeName === undefined || typeName === '') return undefined;
  const scope = scopeName.split('.');
  const names = typeName.startsWith('.')
    ? [typeName.slice(1)]
    : scope.map((_, i) => [...scope.slice(0, scope.length - i), typeName].join('.'));
  names.push(typeName);
  for (const name of names) {
    const found = Object.hasOwn(definition, name) ? definition[name] : undefined;
    if (found !== undefined && found.format === 'Protocol Buffer 3 DescriptorProto')
      return { name, type: found };
  }
  return undefined;
}

/** A message type's own (short) name, as its descriptor gives it. */
function typeNameOf(type: Message): string {
  return (type.type as { readonly name: string }).name;
}

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An error's first line, no stack. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
