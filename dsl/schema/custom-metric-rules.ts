/**
 * What an endpoint's `metrics:` may name: a metric the top-level `metrics:` declares (or the
 * scenario declares at its top level), fed from an HTTP response (a WebSocket endpoint's samples
 * are its frames, which `metrics:` does not read).
 */
import { closest } from '../grammar/did-you-mean.js';
import type { Config } from './config-schema.js';
import { isWebSocketEndpoint } from './endpoint-kind.js';
import type { Refinement } from './refinements.js';

/** Every endpoint's `metrics:` checked against the declarations. */
export function customMetricRules(config: Config): Refinement[] {
  const declared = Object.keys(config.metrics);
  const out: Refinement[] = [];
  (config.endpoints ?? []).forEach((endpoint, i) => {
    const names = Object.keys(endpoint.metrics ?? {});
    if (names.length > 0 && isWebSocketEndpoint(endpoint.url, config.target))
      out.push({
        code: 'invalid_value',
        path: ['endpoints', i, 'metrics'],
        expected: 'metrics on an HTTP endpoint (they read its response)',
        actual: `metrics on the WebSocket endpoint ${endpoint.url}`,
      });
    for (const name of names) {
      if (Object.hasOwn(config.metrics, name)) continue;
      const guess = closest(name, declared);
      out.push({
        code: 'invalid_value',
        path: ['endpoints', i, 'metrics', name],
        expected:
          declared.length === 0
            ? 'a metric declared under the top-level metrics: (none is declared)'
            : `a metric declared under the top-level metrics: ${declared.join(', ')}`,
        actual: `"${name}"`,
        ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
      });
    }
  });
  return out;
}
