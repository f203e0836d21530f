/**
 * `run --har` / `validate --har`: HAR endpoints join the merged configuration (flags, environment,
 * file) before it is validated, as a layer of their own:
 *
 * - they are appended after the configuration's endpoints (names kept unique), and take part in
 *   the weighted pick with their recorded counts as weights; with `flows` in the configuration
 *   they run only as steps the flows name;
 * - `target`: the configuration's target wins (relative HAR urls are replayed against it); with
 *   none, the recorded page's origin becomes the target.
 *
 * Provenance follows: a HAR endpoint's values (and a target taken from the recording) have the
 * HAR file and the entry of their first recording as source, so every problem names it.
 */
import type { Source } from '../issues.js';
import type { Provenance } from '../layers.js';
import { endpointConfig } from './har-config.js';
import type { HarEndpoints } from './har-to-endpoints.js';
import { harSource } from './read-har.js';

/** The merged configuration with the HAR endpoints in it, and its provenance. */
export function mergeHar(
  raw: Readonly<Record<string, unknown>>,
  provenance: Provenance,
  converted: HarEndpoints,
  file: string,
): { raw: Record<string, unknown>; provenance: Provenance } {
  const before = Array.isArray(raw.endpoints) ? (raw.endpoints as unknown[]) : [];
  const merged: Record<string, unknown> = {
    ...raw,
    endpoints: [...before, ...converted.endpoints.map((e) => endpointConfig(e, true))],
  };
  const targetFromHar = raw.target === undefined;
  if (targetFromHar) merged.target = converted.target;
  const harSourceOf = (path: readonly (string | number)[]): Source | undefined => {
    if (path[0] === 'target' && targetFromHar)
      return harSource(file, converted.endpoints[0]?.entry);
    if (path[0] !== 'endpoints' || typeof path[1] !== 'number' || path[1] < before.length)
      return undefined;
    return harSource(file, converted.endpoints[path[1] - before.length]?.entry);
  };
  return {
    raw: merged,
    provenance: {
      sourceOf: (path, key) => harSourceOf(path) ?? provenance.sourceOf(path, key),
      isInterpolated: (path) => harSourceOf(path) === undefined && provenance.isInterpolated(path),
    },
  };
}

/** Names the configuration's endpoints already have (their `name`, else "METHOD url"). */
export function endpointNames(raw: Readonly<Record<string, unknown>>): string[] {
  if (!Array.isArray(raw.endpoints)) return [];
  return (raw.endpoints as unknown[]).flatMap((e) => {
    if (e === null || typeof e !== 'object') return [];
    const { name, method, url } = e as Record<string, unknown>;
    if (typeof name === 'string') return [name];
    const verb = typeof method === 'string' ? method.toUpperCase() : 'GET';
    return typeof url === 'string' ? [`${verb} ${url}`] : [];
  });
}
