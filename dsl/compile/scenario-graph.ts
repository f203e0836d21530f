/** Endpoint configs → EndpointPlans and the weighted pick table (spec §1 rule 8). */
import { evaluatorJsonPath } from '../grammar/json-path.js';
import type { MultipartFiles } from '../sources/multipart-files.js';
import { compileBody, compileForm, compileUrl } from './request-parts.js';
import { isWebSocketEndpoint } from '../schema/endpoint-kind.js';
import { resolveTemplate as resolve, type EnvResolver } from './resolve-template.js';
import { compileVerify } from './verify-plan.js';
import { compileSocketioSession } from './socketio-session.js';
import { compileWsSession } from './ws-session.js';
import { compileGrpcCall } from './grpc-call.js';
import type { GrpcMethods } from '../sources/grpc-protos.js';
import { joinUrl } from '../../model/request/url-rules.js';
import type { Config } from '../schema/config-schema.js';
import { endpointName } from '../schema/refinements.js';
import type {
  EndpointMetricPlan,
  EndpointPlan,
  ExtractorPlan,
  HeaderPlan,
} from '../../model/plan/endpoint-plan.js';
import { buildRequest, type BodyType } from '../../model/request/request-builder.js';
import { checkTemplates } from '../../model/plan/check-plan.js';
import { llmPlan } from './llm.js';
import { compileFlows } from './flow-graph.js';
import type { PickItem, PickTable, ScenarioGraph } from '../../model/plan/scenario-graph.js';

type EndpointConfig = NonNullable<Config['endpoints']>[number];
type Extractor = NonNullable<EndpointConfig['extract']>[string];

/** Compiles endpoints and flows (or the single-request form) into the scenario graph. */
export function compileGraph(
  config: Config,
  userAgent: string,
  env: EnvResolver,
  files: MultipartFiles = new Map(),
  grpc: GrpcMethods = new Map(),
): ScenarioGraph {
  const single: EndpointConfig = {
    url: config.target ?? '/',
    method: config.method,
    headers: {},
    ...(config.body === undefined ? {} : { body: config.body }),
    weight: 1,
    setup: false,
    tags: {},
  };
  const configs = config.endpoints ?? (config.scenario === undefined ? [single] : []);
  const runHeaders = compileRunHeaders(config, userAgent, env);
  const compiled = configs.map((endpoint, index) =>
    compileEndpoint(
      endpoint,
      index,
      config,
      runHeaders,
      (name, path, singleLine) => env(name, ['endpoints', index, ...path], singleLine),
      files,
      grpc,
    ),
  );
  const nameToIndex = new Map(compiled.map((e) => [e.name, e.index]));
  const endpoints = compiled.map((endpoint, index): EndpointPlan => {
    const reauth = configs[index]!.reauth;
    return reauth === undefined
      ? endpoint
      : { ...endpoint, reauth: { on: reauth.on, run: nameToIndex.get(reauth.run) ?? -1 } };
  });
  const flows = compileFlows(config, nameToIndex, env);
  const items: { item: PickItem; weight: number }[] =
    flows.length > 0
      ? flows.map((flow, index) => ({ item: { kind: 'flow', index }, weight: flow.weight }))
      : endpoints
          .filter((e) => !e.setup)
          .map((e) => ({ item: { kind: 'endpoint', index: e.index }, weight: e.weight }));
  return {
    endpoints,
    flows,
    setup: endpoints.filter((e) => e.setup).map((e) => e.index),
    picks: pickTable(items),
  };
}

/**
 * The run's headers, which every request (a YAML endpoint's, a TypeScript scenario's call) starts
 * from: the top-level ones, then User-Agent unless they set it (model/request/request-builder.ts).
 */
export function compileRunHeaders(
  config: Config,
  userAgent: string,
  env: EnvResolver,
): HeaderPlan[] {
  const headers = Object.entries(config.headers).map(([name, value]) => ({
    name,
    value: resolve(value, ['headers', name], env, { singleLine: true }),
  }));
  if (!headers.some((h) => h.name.toLowerCase() === 'user-agent'))
    headers.push({ name: 'user-agent', value: [config.user_agent ?? userAgent] });
  return headers;
}

/** Builds the cumulative weight table. */
export function pickTable(items: readonly { item: PickItem; weight: number }[]): PickTable {
  const cumulative: number[] = [];
  let total = 0;
  for (const { weight } of items) {
    total += weight;
    cumulative.push(total);
  }
  return { items: items.map((i) => i.item), cumulative, total };
}

function compileEndpoint(
  endpoint: EndpointConfig,
  index: number,
  config: Config,
  runHeaders: readonly HeaderPlan[],
  env: EnvResolver,
  files: MultipartFiles,
  grpcMethods: GrpcMethods,
): EndpointPlan {
  const url = compileUrl(endpoint.url, config.target, env);
  const ws = isWebSocketEndpoint(endpoint.url, config.target);
  const method = grpcMethods.get(index);
  const grpc =
    method === undefined
      ? undefined
      : compileGrpcCall(endpoint, joinUrl(config.target, endpoint.url), method, env);
  const timeoutMs = endpoint.timeout ?? config.timeout;
  const session = ws
    ? compileWsSession(endpoint, timeoutMs, env, (variable, from) =>
        extractorPlan(variable, from as Extractor),
      )
    : undefined;
  const socketio =
    endpoint.socketio === undefined
      ? undefined
      : compileSocketioSession(endpoint.socketio, timeoutMs, env, (variable, from) =>
          extractorPlan(variable, from as Extractor),
        );
  const name = endpointName(endpoint);
  // A WebSocket endpoint's outcome is its session's (validation refuses expect and checks there).
  // A gRPC call's outcome is its status code's (expect.grpc_status).
  const verify =
    ws || socketio || grpc !== undefined
      ? undefined
      : compileVerify(endpoint, config.expect?.status, env);
  return buildRequest({
    index,
    name,
    protocol: ws ? 'ws' : socketio ? 'socketio' : grpc === undefined ? 'http' : 'grpc',
    // A gRPC endpoint's method tag is its full method name (package.Service/Method).
    method: ws || socketio ? 'GET' : (grpc?.plan.method ?? endpoint.method),
    origin: url.origin,
    path: url.path,
    query: endpoint.query === undefined ? undefined : compileForm(endpoint.query, 'query', env),
    urlFromVariable: url.fromVariable ? { allowedHosts: config.allowed_hosts ?? [] } : undefined,
    url: endpoint.url,
    runHeaders,
    headers: Object.entries(endpoint.headers ?? {}).map(([header, value]) => ({
      name: header,
      value: resolve(value, ['headers', header], env, { singleLine: true }),
    })),
    body: compileBody(endpoint, index, env, files),
    bodyType: bodyTypeOf(endpoint),
    stream:
      endpoint.stream === undefined
        ? undefined
        : { kind: endpoint.stream, idleTimeoutMs: endpoint.idle_timeout },
    llm: llmPlan(endpoint.llm),
    timeoutMs,
    maxRedirects: endpoint.max_redirects ?? config.max_redirects,
    verify,
    tags: endpoint.tags,
    extract: Object.entries(endpoint.extract ?? {}).map(([variable, from]) =>
      extractorPlan(variable, from),
    ),
    metrics: endpointMetrics(endpoint, config, name),
    setup: endpoint.setup,
    weight: endpoint.weight,
    think: endpoint.think,
    ws: session?.plan,
    socketio: socketio?.plan,
    grpc: grpc?.plan,
    moreTemplates: [
      ...(session?.templates ?? []),
      ...(socketio?.templates ?? []),
      ...(grpc?.templates ?? []),
      ...checkTemplates(verify),
    ],
  });
}

/** What an endpoint's body is: JSON (a mapping or a list), form fields, multipart parts or text. */
function bodyTypeOf(endpoint: EndpointConfig): BodyType | undefined {
  if (endpoint.form !== undefined) return 'form';
  if (endpoint.multipart !== undefined) return 'multipart';
  if (endpoint.body === undefined) return undefined;
  return typeof endpoint.body === 'object' ? 'json' : 'text';
}

/** An endpoint's `metrics:`, each declared one with its extractor and the sample's tags. */
function endpointMetrics(
  endpoint: EndpointConfig,
  config: Config,
  name: string,
): EndpointMetricPlan[] {
  return Object.entries(endpoint.metrics ?? {}).flatMap(([metric, from]) => {
    const declared = config.metrics[metric];
    if (declared === undefined) return [];
    const tags = { ...config.tags, ...endpoint.tags, endpoint: name, method: endpoint.method };
    return [{ kind: declared.kind, extractor: extractorPlan(metric, from), tags }];
  });
}

/**
 * One `extract` entry as the runtime reads it (header and attribute names lower case, a JSONPath
 * with its jsonpath-plus spelling).
 */
function extractorPlan(variable: string, from: Extractor): ExtractorPlan {
  if (typeof from === 'string' || 'json' in from) {
    const path = typeof from === 'string' ? from : from.json;
    const pick = typeof from === 'string' || from.pick === 'first' ? undefined : from.pick;
    return {
      variable,
      from: 'json',
      path,
      evaluatorPath: evaluatorJsonPath(path),
      ...(pick === undefined ? {} : { pick }),
    };
  }
  if ('header' in from) return { variable, from: 'header', header: from.header.toLowerCase() };
  if ('regex' in from) return { variable, from: 'regex', pattern: from.regex };
  return { variable, from: 'css', selector: from.css, attr: from.attr?.toLowerCase() };
}
