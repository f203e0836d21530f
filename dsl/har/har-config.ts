/**
 * Converted endpoints → configuration values (DESIGN.md §4 keys): what `barrage har` writes as
 * YAML and what `run --har` merges into the loaded configuration. Keys come in reading order:
 * name, method, url, weight, headers, body.
 */
import { stringify } from 'yaml';
import { escapeInterpolation } from '../sources/interpolate.js';
import type { HarEndpoint, HarEndpoints } from './har-to-endpoints.js';

/** The name of the flow `barrage har --as-flow` writes. */
export const RECORDED_FLOW = 'recording';

/** One endpoint entry; its weight is how many times the request was recorded (not in a flow). */
export function endpointConfig(endpoint: HarEndpoint, weighted: boolean): Record<string, unknown> {
  const headers = Object.keys(endpoint.headers).length > 0 ? { headers: endpoint.headers } : {};
  return {
    name: endpoint.name,
    method: endpoint.method,
    url: endpoint.url,
    ...(weighted && endpoint.count > 1 ? { weight: endpoint.count } : {}),
    ...headers,
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
  };
}

/**
 * A whole configuration file: target, endpoints and, for a flow, the flow in recorded order.
 * A file's strings go through ${NAME} interpolation when loaded, so every recorded "${" is
 * written "$${" and loads back as recorded.
 */
function harConfig(converted: HarEndpoints): Record<string, unknown> {
  const flow = converted.flowSteps;
  return escapeStrings({
    target: converted.target,
    endpoints: converted.endpoints.map((e) => endpointConfig(e, flow === undefined)),
    ...(flow === undefined ? {} : { flows: [{ name: RECORDED_FLOW, steps: flow }] }),
  }) as Record<string, unknown>;
}

/** The configuration file as YAML: no folded lines, no anchors for repeated values. */
export function harConfigYaml(converted: HarEndpoints): string {
  return stringify(harConfig(converted), { lineWidth: 0, aliasDuplicateObjects: false });
}

/** A copy with every string escaped (keys are config keys and header names: never a "${"). */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeInterpolation(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, {
      value: escapeStrings(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
