/**
 * The cross-field rules of gRPC endpoints (docs/grpc.md): a grpc:// or grpcs:// url takes a
 * `grpc:` mapping and none of an HTTP request's or a WebSocket session's keys; `grpc:` and
 * `expect.grpc_status` belong to those urls alone. What the proto declares is checked after
 * (dsl/sources/grpc-protos.ts), against the file.
 */
import { isGrpcUrl, joinUrl } from '../../model/request/url-rules.js';
import { startsWithVariable } from '../grammar/placeholder.js';
import type { Config } from './config-schema.js';
import type { Refinement } from './refinements.js';

type Endpoint = NonNullable<Config['endpoints']>[number];

/** An HTTP request's keys, which a gRPC endpoint refuses (a session's keys are refused as on HTTP ones). */
const NOT_GRPC = [
  'headers',
  'query',
  'body',
  'form',
  'multipart',
  'stream',
  'idle_timeout',
  'llm',
  'max_redirects',
  'checks',
  'checks_fail_request',
  'metrics',
] as const;

/** A grpc url names a host and port, and nothing after it but an optional "/". */
const GRPC_URL = /^grpcs?:\/\/[^/?#@]+(?::\d+)?\/?$/i;

/** True for an endpoint whose url, joined to the target, is grpc:// or grpcs://. */
export function isGrpcEndpoint(url: string, target: string | undefined): boolean {
  return !startsWithVariable(url) && isGrpcUrl(joinUrl(target, url));
}

/** The gRPC rules of endpoint `i`. */
export function grpcRules(endpoint: Endpoint, i: number, target: string | undefined): Refinement[] {
  const at = (...keys: string[]) => ['endpoints', i, ...keys];
  if (!isGrpcEndpoint(endpoint.url, target)) {
    const out: Refinement[] = [];
    if (endpoint.grpc !== undefined)
      out.push({
        code: 'invalid_value',
        path: at('grpc'),
        expected: 'grpc only on grpc:// or grpcs:// endpoints',
        actual: `grpc on ${endpoint.url}`,
      });
    if (endpoint.expect?.grpc_status !== undefined)
      out.push({
        code: 'invalid_value',
        path: at('expect', 'grpc_status'),
        expected: 'expect.grpc_status only on grpc:// or grpcs:// endpoints (HTTP: expect.status)',
        actual: `grpc_status on ${endpoint.url}`,
      });
    return out;
  }
  const url = joinUrl(target, endpoint.url);
  const out: Refinement[] = NOT_GRPC.filter((key) => endpoint[key] !== undefined).map((key) => ({
    code: 'invalid_value',
    path: at(key),
    expected: `a gRPC endpoint's keys (grpc: { proto, method, message, metadata }), not ${key}`,
    actual: `${key} on ${endpoint.url}`,
  }));
  if (!GRPC_URL.test(url) || url.includes('{{'))
    out.push({
      code: 'invalid_value',
      path: at('url'),
      expected: 'grpc://host:port or grpcs://host:port (no path, no placeholders)',
      actual: JSON.stringify(endpoint.url),
    });
  if (endpoint.method !== 'GET')
    out.push({
      code: 'invalid_value',
      path: at('method'),
      expected: 'no HTTP method on a gRPC endpoint (grpc.method names the call)',
      actual: endpoint.method,
    });
  if (endpoint.expect?.status !== undefined)
    out.push({
      code: 'invalid_value',
      path: at('expect', 'status'),
      expected: 'expect.grpc_status on a gRPC endpoint (gRPC status codes, not HTTP statuses)',
      actual: 'expect.status',
    });
  if (endpoint.grpc === undefined)
    out.push({
      code: 'missing_value',
      path: at('grpc'),
      expected: 'grpc: { proto, method, message } on a grpc:// or grpcs:// endpoint',
      actual: 'nothing',
    });
  else if (endpoint.grpc.message !== undefined && endpoint.grpc.messages !== undefined)
    out.push({
      code: 'invalid_value',
      path: at('grpc', 'messages'),
      expected: 'message (one request) or messages (a client stream), not both',
      actual: 'message and messages',
    });
  return out;
}
