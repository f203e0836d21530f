/** What thresholds match a run's samples by: its endpoints' names and tags, its scenarios' tags. */
import type { Plan } from '../model/plan/plan.js';
import type { ShardSnapshot } from '../runtime/metrics/snapshot.js';
import type { SampleTable } from '../runtime/metrics/sample-select.js';

/**
 * The names and tags thresholds match a snapshot's samples by: the endpoints the snapshot
 * discovered (TypeScript), else the plan's, each with its method, its own tags and the run's;
 * and each named scenario's tags.
 */
export function endpointTable(plan: Plan, snapshot: ShardSnapshot): SampleTable {
  const names = snapshot.endpointNames ?? plan.graph.endpoints.map((e) => e.name);
  const own =
    snapshot.endpointTags ?? plan.graph.endpoints.map((e) => ({ method: e.method, ...e.tags }));
  return {
    run: plan.tags,
    names,
    endpoints: names.map((_, i) => ({ ...plan.tags, ...own[i] })),
    scenarios: Object.fromEntries(
      plan.namedScenarios ? plan.scenarios.map((s) => [s.name, s.tags]) : [],
    ),
  };
}
