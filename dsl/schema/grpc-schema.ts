/**
 * A gRPC endpoint's `grpc:` mapping and `expect: { grpc_status }` (docs/grpc.md). What the proto
 * declares (the method, its message's fields) is checked against the file itself, after this
 * shape (dsl/sources/grpc-protos.ts).
 */
import * as z from 'zod';
import { GRPC_CODES } from '../../model/plan/grpc-plan.js';
import { checkJsonTemplates, headerMap, nonEmpty } from './fields.js';

/** `package.Service/Method` (the package may be empty or dotted). */
const METHOD = /^[A-Za-z_][A-Za-z0-9_.]*\/[A-Za-z_][A-Za-z0-9_]*$/;

/** A message: a mapping of its fields, placeholders allowed in keys and string values. */
function message(what: string) {
  return z
    .record(z.string(), z.unknown(), { error: `a mapping of the message's fields (${what})` })
    .superRefine(checkJsonTemplates);
}

/** The `grpc:` mapping of a grpc:// or grpcs:// endpoint. */
export function grpcSchema() {
  return z
    .strictObject(
      {
        proto: nonEmpty('a .proto file')
          .regex(/\.proto$/i, { error: 'a .proto file (its name ends in .proto)' })
          .describe("The service's .proto file, relative to the configuration (inside its folder)"),
        method: z
          .string({ error: 'a full method name: package.Service/Method' })
          .regex(METHOD, { error: 'a full method name: package.Service/Method' })
          .describe('The method called: package.Service/Method'),
        message: message('the request message')
          .optional()
          .describe('The request message (unary and server-streaming calls); default {}'),
        messages: z
          .array(message('a request message'), { error: 'a list of request messages' })
          .min(1, { error: 'at least one message' })
          .optional()
          .describe('The request messages, sent in order (client-streaming and bidi calls)'),
        metadata: headerMap('gRPC metadata')
          .optional()
          .describe('Request metadata: name → value (placeholders allowed)'),
      },
      { error: 'a mapping { proto, method, message | messages, metadata }' },
    )
    .describe('A gRPC call (url grpc://host:port or grpcs://host:port; docs/grpc.md)');
}

const CODE_TEXT = `gRPC status codes: names (${GRPC_CODES.join(', ')}) or numbers 0-16, or a list of them`;

/** `expect.grpc_status`: the codes that are a success, as numbers. */
export function grpcStatusList() {
  const entry = z.union([z.int().min(0).max(16), z.enum(GRPC_CODES)], { error: CODE_TEXT });
  return z
    .union([entry, z.array(entry, { error: CODE_TEXT }).min(1, { error: CODE_TEXT })], {
      error: CODE_TEXT,
    })
    .transform((value) =>
      (Array.isArray(value) ? value : [value]).map((c) =>
        typeof c === 'number' ? c : GRPC_CODES.indexOf(c),
      ),
    )
    .meta({ description: CODE_TEXT });
}
