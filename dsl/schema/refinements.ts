/**
 * Cross-field rules that a field's own schema cannot see (astro's "refined" layer). They run on a
 * Config that passed the schema and return every problem at once.
 */
import { startsWithVariable } from '../grammar/placeholder.js';
import type { IssueCode } from '../issues.js';
import {
  isAbsoluteUrl,
  isSupportedUrl,
  isWebSocketUrl,
  originOfUrl,
} from '../../model/request/url-rules.js';
import { isWebSocketEndpoint } from './endpoint-kind.js';
import { grpcRules } from './grpc-rules.js';
import { DEFAULT_CONCURRENCY, type Config } from './config-schema.js';
import { customMetricRules } from './custom-metric-rules.js';
import { flowRules, reauthRules } from './flow-rules.js';
import { scenarioRules } from './scenario-rules.js';
import { socketioRules } from './socketio-rules.js';
import { thresholdRules } from './threshold-rules.js';

/** A cross-field problem; the loader adds its source from the path. */
export interface Refinement {
  readonly code: IssueCode;
  readonly path: readonly (string | number)[];
  readonly expected: string;
  readonly actual: string;
  readonly hint?: string;
}

type Endpoint = NonNullable<Config['endpoints']>[number];

/** The name reports use for an endpoint: its `name`, else "METHOD url" (gRPC: its method). */
export function endpointName(endpoint: Endpoint): string {
  if (endpoint.name !== undefined) return endpoint.name;
  return endpoint.grpc === undefined ? `${endpoint.method} ${endpoint.url}` : endpoint.grpc.method;
}

/** Runs every rule. */
export function refineConfig(config: Config): Refinement[] {
  return [
    ...runShape(config),
    ...endpointRules(config),
    ...flowRules(config, (config.endpoints ?? []).map(endpointName)),
    ...reauthRules(config, (config.endpoints ?? []).map(endpointName)),
    ...authRules(config),
    ...patternRules(config),
    ...thresholdRules(config),
    ...customMetricRules(config),
    ...scenarioRules(config),
  ];
}

function runShape(config: Config): Refinement[] {
  const out: Refinement[] = [];
  // The open model sends round(rate × duration) permits (runtime/schedule/permit-count.ts).
  if (config.rate !== undefined && config.duration !== undefined) {
    const permits = Math.round((config.rate * config.duration) / 1000);
    if (permits === 0)
      out.push({
        code: 'invalid_value',
        path: ['rate'],
        expected: `a rate and duration that send at least one request (rate × duration rounds to the number sent)`,
        actual: `${config.rate}/s for ${config.duration / 1000} s: ${((config.rate * config.duration) / 1000).toFixed(3)}, which rounds to 0`,
      });
  }
  if (config.rate !== undefined && config.pattern !== undefined) {
    out.push({
      code: 'invalid_value',
      path: ['rate'],
      expected: 'either rate or pattern, not both',
      actual: `rate ${config.rate} with a ${config.pattern.type} pattern`,
    });
  }
  if (
    config.scenario !== undefined &&
    (config.endpoints !== undefined || config.flows !== undefined)
  ) {
    out.push({
      code: 'invalid_value',
      path: ['scenario'],
      expected: 'a scenario file or endpoints/flows, not both',
      actual: 'both',
    });
  }
  if (
    config.segment !== undefined &&
    (config.concurrency ?? DEFAULT_CONCURRENCY) < config.segment.count
  ) {
    out.push({
      code: 'invalid_value',
      path: ['concurrency'],
      expected: `at least one worker per segment (${config.segment.count} segments)`,
      actual: String(config.concurrency ?? DEFAULT_CONCURRENCY),
    });
  }
  if (config.flows !== undefined && config.endpoints === undefined) {
    out.push({
      code: 'missing_value',
      path: ['endpoints'],
      expected: 'endpoints for the flows to use',
      actual: 'nothing',
    });
  }
  if (config.target === undefined && config.scenario === undefined) {
    const relative = (config.endpoints ?? []).findIndex((e) => !isAbsoluteUrl(e.url));
    if (config.endpoints === undefined) {
      out.push({
        code: 'missing_value',
        path: ['target'],
        expected: 'a target URL (or endpoints with absolute urls)',
        actual: 'nothing',
      });
    } else if (relative >= 0) {
      out.push({
        code: 'missing_value',
        path: ['target'],
        expected: `a target URL, since endpoints[${relative}].url is relative`,
        actual: 'nothing',
      });
    }
  }
  return out;
}

function endpointRules(config: Config): Refinement[] {
  const out: Refinement[] = [];
  const endpoints = config.endpoints ?? [];
  const seen = new Map<string, number>();
  endpoints.forEach((endpoint, i) => {
    const name = endpointName(endpoint);
    const first = seen.get(name);
    if (first !== undefined) {
      out.push({
        code: 'invalid_value',
        path: ['endpoints', i, 'name'],
        expected: 'a name no other endpoint has',
        actual: `"${name}", also endpoints[${first}]`,
      });
    } else seen.set(name, i);
    out.push(
      ...urlRules(endpoint, i, config.target),
      ...bodyRules(endpoint, i),
      ...socketioRules(endpoint, i, config.target),
    );
    if (startsWithVariable(endpoint.url) && isWebSocketUrl(config.target ?? ''))
      out.push({
        code: 'invalid_value',
        path: ['endpoints', i, 'url'],
        expected: 'an http or https target for a url taken from a variable',
        actual: `${JSON.stringify(endpoint.url)} under a WebSocket target`,
      });
  });
  if (endpoints.length > 0 && endpoints.every((e) => e.setup) && config.flows === undefined) {
    out.push({
      code: 'invalid_value',
      path: ['endpoints'],
      expected: 'at least one endpoint without setup: true for the weighted traffic',
      actual: 'only setup endpoints',
    });
  }
  return out;
}

function urlRules(endpoint: Endpoint, i: number, target: string | undefined): Refinement[] {
  const out: Refinement[] = [];
  const ws = isWebSocketEndpoint(endpoint.url, target);
  const origin = originOfUrl(endpoint.url);
  if (origin !== undefined && origin.includes('{{')) {
    out.push({
      code: 'invalid_placeholder',
      path: ['endpoints', i, 'url'],
      expected: 'placeholders only in the path and query, not in scheme, host or port',
      actual: JSON.stringify(endpoint.url),
    });
  }
  if (origin !== undefined && !isSupportedUrl(origin)) {
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'url'],
      expected: 'an http, https, ws or wss url',
      actual: JSON.stringify(endpoint.url),
    });
  }
  if (endpoint.idle_timeout !== undefined && endpoint.stream === undefined)
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'idle_timeout'],
      expected: 'idle_timeout only with stream: sse or stream: chunks',
      actual: 'idle_timeout without stream',
    });
  out.push(...llmRules(endpoint, i), ...grpcRules(endpoint, i, target));
  if (!ws) {
    for (const key of ['session', 'messages', 'message_interval', 'subprotocols'] as const) {
      if (endpoint[key] !== undefined) {
        out.push({
          code: 'invalid_value',
          path: ['endpoints', i, key],
          expected: `${key} only on ws:// or wss:// endpoints`,
          actual: `${key} on ${endpoint.url}`,
        });
      }
    }
  } else {
    // A session's outcome is its handshake's and its messages' (docs/configuration.md).
    for (const key of ['expect', 'checks', 'checks_fail_request', 'stream', 'llm'] as const) {
      if (endpoint[key] !== undefined)
        out.push({
          code: 'invalid_value',
          path: ['endpoints', i, key],
          expected: `${key} only on HTTP endpoints`,
          actual: `${key} on ${endpoint.url}`,
        });
    }
    for (const key of ['body', 'query', 'form', 'multipart'] as const) {
      if (endpoint[key] !== undefined)
        out.push({
          code: 'invalid_value',
          path: ['endpoints', i, key],
          expected: `session or messages (not ${key}) on a WebSocket endpoint`,
          actual: `${key} on ${endpoint.url}`,
        });
    }
    if (endpoint.session !== undefined)
      for (const key of ['messages', 'message_interval'] as const)
        if (endpoint[key] !== undefined)
          out.push({
            code: 'invalid_value',
            path: ['endpoints', i, key],
            expected: `session or ${key}, not both (messages is shorthand for send-and-reply steps)`,
            actual: `session and ${key}`,
          });
  }
  return out;
}

/** An endpoint sends one body: `body`, `form` or `multipart`. */
function bodyRules(endpoint: Endpoint, i: number): Refinement[] {
  const given = (['body', 'form', 'multipart'] as const).filter((k) => endpoint[k] !== undefined);
  return given.slice(1).map((key) => ({
    code: 'invalid_value',
    path: ['endpoints', i, key],
    expected: 'one of body, form or multipart',
    actual: `${given[0]} and ${key}`,
  }));
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function authRules(config: Config): Refinement[] {
  const auth = config.auth;
  if (auth?.type !== 'oauth2') return [];
  const url = new URL(auth.token_url);
  if (url.protocol === 'https:' || LOOPBACK_HOST.test(url.hostname)) return [];
  return [
    {
      code: 'invalid_value',
      path: ['auth', 'token_url'],
      expected: 'an https URL (http only for loopback addresses)',
      actual: JSON.stringify(auth.token_url),
    },
  ];
}

function patternRules(config: Config): Refinement[] {
  const pattern = config.pattern;
  if (pattern?.type !== 'spike') return [];
  const at = pattern.at ?? pattern.duration / 4;
  const used =
    at + (pattern.rise ?? 0) + (pattern.hold ?? pattern.duration / 10) + (pattern.fall ?? 0);
  if (used <= pattern.duration) return [];
  return [
    {
      code: 'invalid_value',
      path: ['pattern'],
      expected: 'at + rise + hold + fall within duration',
      actual: `${used}ms of a ${pattern.duration}ms pattern`,
    },
  ];
}

/** `llm:` reads an event stream or a whole response, and needs an output path without a preset. */
function llmRules(endpoint: Endpoint, i: number): Refinement[] {
  const llm = endpoint.llm;
  if (llm === undefined) return [];
  const out: Refinement[] = [];
  if (endpoint.stream === 'chunks')
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'llm'],
      expected: 'llm with stream: sse, or without stream',
      actual: 'llm with stream: chunks',
    });
  if (typeof llm === 'object' && llm.api === undefined && llm.output === undefined)
    out.push({
      code: 'invalid_value',
      path: ['endpoints', i, 'llm'],
      expected: 'api (a preset) or output (where an event carries output text)',
      actual: 'neither',
    });
  return out;
}
