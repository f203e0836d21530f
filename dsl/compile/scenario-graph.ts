/** Endpoint configs → EndpointPlans and the weighted pick table (spec §1 rule 8). */
import { templateVariables } from '../grammar/placeholder.js';
import { resolveTemplate as resolve, type EnvResolver } from './resolve-template.js';
import type { Config } from '../schema/config-schema.js';
import { endpointName, isWebSocketUrl } from '../schema/refinements.js';
import type {
  EndpointPlan,
  ExtractorPlan,
  HeaderPlan,
  WsMessagePlan,
} from '../plan/endpoint-plan.js';
import type { PickItem, PickTable, ScenarioGraph } from '../plan/scenario-graph.js';
import type { Template } from '../plan/template.js';

type EndpointConfig = NonNullable<Config['endpoints']>[number];
type Extractor = NonNullable<EndpointConfig['extract']>[string];

/** Compiles endpoints and flows (or the single-request form) into the scenario graph. */
export function compileGraph(config: Config, userAgent: string, env: EnvResolver): ScenarioGraph {
  const single: EndpointConfig = {
    url: config.target ?? '/',
    method: config.method,
    headers: {},
    ...(config.body === undefined ? {} : { body: config.body }),
    weight: 1,
    setup: false,
  };
  const configs = config.endpoints ?? (config.scenario === undefined ? [single] : []);
  const endpoints = configs.map((endpoint, index) =>
    compileEndpoint(endpoint, index, config, userAgent, (name, path, singleLine) =>
      env(name, ['endpoints', index, ...path], singleLine),
    ),
  );
  const nameToIndex = new Map(endpoints.map((e) => [e.name, e.index]));
  const flows = (config.flows ?? []).map((flow) => ({
    name: flow.name,
    weight: flow.weight,
    steps: flow.steps.map((step) => nameToIndex.get(step) ?? -1),
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

/** The headers every request of a TypeScript scenario starts from: top-level ones and User-Agent. */
export function compileScriptHeaders(
  config: Config,
  userAgent: string,
  env: EnvResolver,
): HeaderPlan[] {
  return mergeHeaders(config.headers, {}, userAgent, config.user_agent).map(([name, value]) => ({
    name,
    value: resolve(value, ['headers', name], env, true),
  }));
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
): EndpointPlan {
  const absolute = joinUrl(config.target, endpoint.url);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(absolute)?.[0] ?? absolute;
  const rest = absolute.slice(origin.length);
  const path = resolve(rest.startsWith('/') ? rest : `/${rest}`, ['url'], env, true);
  const headers = mergeHeaders(
    config.headers,
    endpoint.headers ?? {},
    userAgent,
    config.user_agent,
  );
  const headerPlans: HeaderPlan[] = headers.map(([name, value]) => ({
    name,
    value: resolve(value, ['headers', name], env, true),
  }));
  let body: Template | undefined;
  if (typeof endpoint.body === 'string') body = resolve(endpoint.body, ['body'], env);
  else if (endpoint.body !== undefined) {
    // Placeholders inside string values of a JSON body are filled too; values go in as they are.
    body = resolve(JSON.stringify(endpoint.body), ['body'], env);
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
      headerPlans.push({ name: 'content-type', value: ['application/json'] });
  }
  const ws = isWebSocketUrl(absolute);
  const needs = [path, ...headerPlans.map((h) => h.value), ...(body === undefined ? [] : [body])];
  const messages: WsMessagePlan[] = (endpoint.messages ?? []).map((m, i) =>
    'text' in m
      ? { kind: 'text', text: resolve(m.text, ['messages', i, 'text'], env) }
      : {
          kind: 'binary',
          bytes: new Uint8Array(Buffer.from(m.binary.slice('base64:'.length), 'base64')),
        },
  );
  for (const m of messages) if (m.kind === 'text') needs.push(m.text);
  return {
    index,
    name: endpointName(endpoint),
    protocol: ws ? 'ws' : 'http',
    method: ws ? 'GET' : endpoint.method,
    origin: origin.toLowerCase(),
    path,
    url: endpoint.url,
    headers: headerPlans,
    body,
    extract: Object.entries(endpoint.extract ?? {}).map(([variable, from]) =>
      extractorPlan(variable, from),
    ),
    setup: endpoint.setup,
    weight: endpoint.weight,
    timeoutMs: endpoint.timeout ?? config.timeout,
    ws: ws
      ? {
          messages,
          intervalMs: endpoint.message_interval ?? 0,
          subprotocols: endpoint.subprotocols ?? [],
        }
      : undefined,
    needs: [...new Set(needs.flatMap((t) => templateVariables(t)))],
  };
}

/** One `extract` entry as the runtime reads it (header and attribute names lower case). */
function extractorPlan(variable: string, from: Extractor): ExtractorPlan {
  if (typeof from === 'string') return { variable, from: 'json', path: from };
  if ('json' in from) return { variable, from: 'json', path: from.json };
  if ('header' in from) return { variable, from: 'header', header: from.header.toLowerCase() };
  if ('regex' in from) return { variable, from: 'regex', pattern: from.regex };
  return { variable, from: 'css', selector: from.css, attr: from.attr?.toLowerCase() };
}

/** target + relative url by string concatenation (so placeholders are not percent-encoded). */
export function joinUrl(target: string | undefined, url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || target === undefined) return url;
  const base = target.replace(/\/+$/, '');
  return url.startsWith('/') ? base + url : `${base}/${url}`;
}

/** Top-level headers, then the endpoint's (same name, any case, replaces), then User-Agent if unset. */
function mergeHeaders(
  common: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>>,
  userAgent: string,
  configured: string | undefined,
): [string, string][] {
  const byLower = new Map<string, [string, string]>();
  for (const [name, value] of [...Object.entries(common), ...Object.entries(own)])
    byLower.set(name.toLowerCase(), [name, value]);
  if (!byLower.has('user-agent'))
    byLower.set('user-agent', ['user-agent', configured ?? userAgent]);
  return [...byLower.values()];
}
