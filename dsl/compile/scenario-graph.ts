/** Endpoint configs → EndpointPlans and the weighted pick table (spec §1 rule 8). */
import { evaluatorJsonPath } from '../grammar/json-path.js';
import { templateVariables } from '../grammar/placeholder.js';
import type { MultipartFiles } from '../sources/multipart-files.js';
import { compileBody, compileForm, compileUrl, joinUrl } from './request-parts.js';
import { resolveTemplate as resolve, type EnvResolver } from './resolve-template.js';
import { compileVerify } from './verify-plan.js';
import { compileWsSession } from './ws-session.js';
import type { Config } from '../schema/config-schema.js';
import { endpointName, isWebSocketUrl } from '../schema/refinements.js';
import {
  defaultHeaders,
  type BodyPlan,
  type EndpointPlan,
  type ExtractorPlan,
  type HeaderPlan,
} from '../../model/plan/endpoint-plan.js';
import type { PickItem, PickTable, ScenarioGraph } from '../../model/plan/scenario-graph.js';
import type { Template } from '../../model/plan/template.js';

type EndpointConfig = NonNullable<Config['endpoints']>[number];
type Extractor = NonNullable<EndpointConfig['extract']>[string];

/** Compiles endpoints and flows (or the single-request form) into the scenario graph. */
export function compileGraph(
  config: Config,
  userAgent: string,
  env: EnvResolver,
  files: MultipartFiles = new Map(),
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
  const endpoints = configs.map((endpoint, index) =>
    compileEndpoint(
      endpoint,
      index,
      config,
      userAgent,
      (name, path, singleLine) => env(name, ['endpoints', index, ...path], singleLine),
      files,
    ),
  );
  const nameToIndex = new Map(endpoints.map((e) => [e.name, e.index]));
  const flows = (config.flows ?? []).map((flow) => ({
    name: flow.name,
    weight: flow.weight,
    steps: flow.steps.map((step) => nameToIndex.get(step) ?? -1),
    think: flow.think,
  }));
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
 * The headers every request of a TypeScript scenario starts from: top-level ones and User-Agent.
 * Each call adds the defaults of its kind (defaultHeaders(): a stream asks for no compression).
 */
export function compileScriptHeaders(
  config: Config,
  userAgent: string,
  env: EnvResolver,
): HeaderPlan[] {
  return mergeHeaders(config.headers, {}, userAgent, config.user_agent, []).map(
    ([name, value]) => ({
      name,
      value: resolve(value, ['headers', name], env, { singleLine: true }),
    }),
  );
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
  userAgent: string,
  env: EnvResolver,
  files: MultipartFiles,
): EndpointPlan {
  const url = compileUrl(endpoint.url, config.target, env);
  const ws = !url.fromVariable && isWebSocketUrl(joinUrl(config.target, endpoint.url));
  const headers = mergeHeaders(
    config.headers,
    endpoint.headers ?? {},
    userAgent,
    config.user_agent,
    defaultHeaders(endpoint.stream),
  ).filter(
    // multipart/form-data's Content-Type names its boundary: the encoder sets it.
    ([name]) => endpoint.multipart === undefined || name.toLowerCase() !== 'content-type',
  );
  const headerPlans: HeaderPlan[] = headers.map(([name, value]) => ({
    name,
    value: resolve(value, ['headers', name], env, { singleLine: true }),
  }));
  const body = compileBody(endpoint, index, env, files);
  const contentType =
    endpoint.form !== undefined
      ? 'application/x-www-form-urlencoded'
      : typeof endpoint.body === 'object'
        ? 'application/json'
        : undefined;
  if (contentType !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-type'))
    headerPlans.push({ name: 'content-type', value: [contentType] });
  const query =
    endpoint.query === undefined ? undefined : compileForm(endpoint.query, 'query', env);
  const timeoutMs = endpoint.timeout ?? config.timeout;
  const session = ws
    ? compileWsSession(endpoint, timeoutMs, env, (variable, from) =>
        extractorPlan(variable, from as Extractor),
      )
    : undefined;
  const needs: Template[] = [url.path, ...(query === undefined ? [] : [query])];
  needs.push(...headerPlans.map((h) => h.value), ...bodyTemplates(body));
  needs.push(...(session?.templates ?? []));
  return {
    index,
    name: endpointName(endpoint),
    protocol: ws ? 'ws' : 'http',
    method: ws ? 'GET' : endpoint.method,
    origin: url.origin,
    path: url.path,
    query,
    urlFromVariable: url.fromVariable ? { allowedHosts: config.allowed_hosts ?? [] } : undefined,
    url: endpoint.url,
    headers: headerPlans,
    body,
    extract: Object.entries(endpoint.extract ?? {}).map(([variable, from]) =>
      extractorPlan(variable, from),
    ),
    metrics: Object.entries(endpoint.metrics ?? {}).flatMap(([metric, from]) => {
      const declared = config.metrics[metric];
      return declared === undefined
        ? []
        : [
            {
              kind: declared.kind,
              extractor: extractorPlan(metric, from),
              tags: {
                ...config.tags,
                ...endpoint.tags,
                endpoint: endpointName(endpoint),
                method: endpoint.method,
              },
            },
          ];
    }),
    // A WebSocket endpoint's outcome is its session's (validation refuses expect and checks there).
    verify: ws ? undefined : compileVerify(endpoint, config.expect?.status),
    setup: endpoint.setup,
    weight: endpoint.weight,
    timeoutMs,
    stream:
      endpoint.stream === undefined
        ? undefined
        : { kind: endpoint.stream, idleTimeoutMs: endpoint.idle_timeout },
    maxRedirects: endpoint.max_redirects ?? config.max_redirects,
    think: endpoint.think,
    ws: session?.plan,
    needs: [...new Set(needs.flatMap((t) => templateVariables(t)))],
    tags: endpoint.tags,
  };
}

/** The templates of a body: its text, or its multipart fields. */
export function bodyTemplates(body: BodyPlan | undefined): Template[] {
  if (body === undefined) return [];
  if (body.kind === 'text') return [body.text];
  return body.parts.flatMap((part) => (part.kind === 'field' ? [part.value] : []));
}

/**
 * One `extract` entry as the runtime reads it (header and attribute names lower case, a JSONPath
 * with its jsonpath-plus spelling).
 */
function extractorPlan(variable: string, from: Extractor): ExtractorPlan {
  if (typeof from === 'string' || 'json' in from) {
    const path = typeof from === 'string' ? from : from.json;
    return { variable, from: 'json', path, evaluatorPath: evaluatorJsonPath(path) };
  }
  if ('header' in from) return { variable, from: 'header', header: from.header.toLowerCase() };
  if ('regex' in from) return { variable, from: 'regex', pattern: from.regex };
  return { variable, from: 'css', selector: from.css, attr: from.attr?.toLowerCase() };
}

/**
 * Top-level headers, then the endpoint's (same name, any case, replaces), then User-Agent and
 * `defaults` (defaultHeaders()) if unset.
 */
function mergeHeaders(
  common: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>>,
  userAgent: string,
  configured: string | undefined,
  defaults: readonly [string, string][],
): [string, string][] {
  const byLower = new Map<string, [string, string]>();
  for (const [name, value] of [...Object.entries(common), ...Object.entries(own)])
    byLower.set(name.toLowerCase(), [name, value]);
  if (!byLower.has('user-agent'))
    byLower.set('user-agent', ['user-agent', configured ?? userAgent]);
  for (const [name, value] of defaults) if (!byLower.has(name)) byLower.set(name, [name, value]);
  return [...byLower.values()];
}
