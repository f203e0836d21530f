/**
 * Shards of a TypeScript scenario name their endpoints as they meet them, each in its own order;
 * before they merge, each is rewritten onto the union of endpoints (a name and its own tags),
 * sorted, with empty figures where a shard never met one. Shards with the plan's endpoints (no
 * names) are returned unchanged.
 */
import type { Tags } from '../../model/metrics/metric-registry.js';
import type { EndpointSnapshot, ShardSnapshot } from './snapshot.js';

const EMPTY: EndpointSnapshot = {
  requests: 0,
  failures: 0,
  latency: '',
  statusCodes: {},
  errors: {},
  outcomes: [],
};

/** One key per endpoint: its name and tags, in a form that sorts by name first. */
export function endpointKey(name: string, tags: Tags | undefined): string {
  const pairs = Object.entries(tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([name, ...pairs.flat()]);
}

/** The shards on one sorted table of endpoints. */
export function alignEndpoints(shards: readonly ShardSnapshot[]): ShardSnapshot[] {
  if (shards.every((s) => s.endpointNames === undefined)) return [...shards];
  const union = new Map<string, { name: string; tags: Tags }>();
  for (const s of shards)
    (s.endpointNames ?? []).forEach((name, i) => {
      const tags = s.endpointTags?.[i] ?? {};
      union.set(endpointKey(name, tags), { name, tags });
    });
  const keys = [...union.keys()].sort();
  return shards.map((shard) => {
    const own = new Map(
      (shard.endpointNames ?? []).map((name, i) => [endpointKey(name, shard.endpointTags?.[i]), i]),
    );
    return {
      ...shard,
      endpoints: keys.map((key) => {
        const i = own.get(key);
        return i === undefined ? EMPTY : shard.endpoints[i]!;
      }),
      endpointNames: keys.map((key) => union.get(key)!.name),
      endpointTags: keys.map((key) => union.get(key)!.tags),
    };
  });
}
