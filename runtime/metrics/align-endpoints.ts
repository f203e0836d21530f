/**
 * Shards of a TypeScript scenario name their endpoints as they meet them, each in its own order;
 * before they merge, each is rewritten onto the union of names, sorted, with empty figures where
 * a shard never met a name. Shards with the plan's endpoints (no names) are returned unchanged.
 */
import type { EndpointSnapshot, ShardSnapshot } from './snapshot.js';

const EMPTY: EndpointSnapshot = {
  requests: 0,
  failures: 0,
  latency: '',
  statusCodes: {},
  errors: {},
};

/** The shards on one sorted endpoint-name table. */
export function alignEndpoints(shards: readonly ShardSnapshot[]): ShardSnapshot[] {
  if (shards.every((s) => s.endpointNames === undefined)) return [...shards];
  const names = [...new Set(shards.flatMap((s) => s.endpointNames ?? []))].sort();
  return shards.map((shard) => {
    const own = new Map((shard.endpointNames ?? []).map((name, i) => [name, i]));
    return {
      ...shard,
      endpoints: names.map((name) => {
        const i = own.get(name);
        return i === undefined ? EMPTY : shard.endpoints[i]!;
      }),
      endpointNames: names,
    };
  });
}
