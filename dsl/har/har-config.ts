/**
 * Converted endpoints → configuration values (DESIGN.md §4 keys): what `barrage har` writes as
 * YAML and what `run --har` merges into the loaded configuration. Keys come in reading order:
 * name, method, url, weight, headers, body (or form), extract, think; a ws endpoint has no
 * method or body but subprotocols and session. In the YAML, an endpoint whose response a later
 * request reads from says so in a comment above it, and a ws endpoint whose recording had more
 * frames than a session takes says how many were dropped.
 */
import { Document, isMap, isSeq } from 'yaml';
import { escapeInterpolation } from '../sources/interpolate.js';
import type { HarEndpoint, HarEndpoints } from './har-to-endpoints.js';
import { MAX_STEPS } from './har-websocket.js';

/** The name of the flow `barrage har --as-flow` writes. */
export const RECORDED_FLOW = 'recording';

/** One endpoint entry; its weight is how many times the request was recorded (not in a flow). */
export function endpointConfig(endpoint: HarEndpoint, weighted: boolean): Record<string, unknown> {
  const headers = Object.keys(endpoint.headers).length > 0 ? { headers: endpoint.headers } : {};
  const { body, webSocket } = endpoint;
  let sent = {};
  if (webSocket !== undefined)
    sent = {
      ...(webSocket.subprotocols.length > 0 ? { subprotocols: webSocket.subprotocols } : {}),
      session: webSocket.session,
    };
  else if (typeof body === 'string') sent = { body };
  else if (body !== undefined) sent = 'form' in body ? { form: body.form } : { body: body.json };
  return {
    name: endpoint.name,
    ...(webSocket === undefined ? { method: endpoint.method } : {}),
    url: endpoint.url,
    ...(weighted && endpoint.count > 1 ? { weight: endpoint.count } : {}),
    ...headers,
    ...sent,
    ...(Object.keys(endpoint.extract).length > 0 ? { extract: endpoint.extract } : {}),
    ...(endpoint.think === undefined ? {} : { think: endpoint.think }),
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

/**
 * The configuration file as YAML: no folded lines, no anchors for repeated values; above each
 * endpoint that extracts, where each value is read and how many requests send it back.
 */
export function harConfigYaml(converted: HarEndpoints): string {
  const document = new Document(harConfig(converted), { aliasDuplicateObjects: false });
  const endpoints = document.get('endpoints');
  if (isSeq(endpoints))
    endpoints.items.forEach((node, i) => {
      const endpoint = converted.endpoints[i];
      if (!isMap(node) || endpoint === undefined) return;
      const lines = Object.keys(endpoint.extract).flatMap((name) => {
        const value = converted.summary.dynamic.find((d) => d.name === name && d.correlated);
        if (value === undefined) return [];
        const uses = value.uses === 1 ? '1 later request' : `${value.uses} later requests`;
        return [` {{${name}}}: the server's ${value.where}, sent back by ${uses}`];
      });
      const dropped = endpoint.webSocket?.dropped ?? 0;
      if (dropped > 0)
        lines.push(
          ` ${dropped} more recorded ${dropped === 1 ? 'message' : 'messages'} not replayed: a session takes at most ${MAX_STEPS} steps`,
        );
      if (lines.length > 0) node.commentBefore = lines.join('\n');
    });
  return document.toString({ lineWidth: 0 });
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
