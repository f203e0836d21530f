import t from 'tap';
import type { Plan } from '../../dsl/plan/plan.js';
import { compilePlan } from '../../dsl/compile/compile-plan.js';
import { configSchema } from '../../dsl/schema/config-schema.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { summarize } from '../../runtime/metrics/summarize.js';
import { resolveThreads } from '../../runtime/segment/auto-threads.js';
import { SegmentHost } from '../../runtime/segment/segment-host.js';
import { splitPlan } from '../../runtime/segment/split-plan.js';

function plan(config: Record<string, unknown>): Plan {
  return compilePlan(configSchema.parse(config), {
    env: {},
    userAgent: 'barrage/test',
    fallbackSeed: 1,
  }).plan;
}

t.test(
  'two segment threads: exact totals, and percentiles equal to merging the shards by hand',
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const specs = splitPlan(
      plan({ target: `${server.url}/delay/1`, concurrency: 6, requests: 601 }),
      2,
    );
    t.equal(specs.length, 2);
    const hosts = specs.map((spec) => new SegmentHost(spec, 200, () => undefined));
    await Promise.all(hosts.map((h) => h.ready));
    for (const host of hosts) host.send({ type: 'go' });
    const outcomes = await Promise.all(hosts.map((h) => h.outcome));
    const shards = outcomes.map((o) => o.snapshot!);
    t.same(
      shards.map((s) => s.requests),
      [301, 300],
      'each thread ran its exact share',
    );
    t.equal(server.stats().byRoute.delay, 601);
    const merged = summarize(mergeSnapshots(shards), ['e']);
    t.equal(merged.total, 601);
    const byHand = decodeHistogram(shards[0]!.latency);
    byHand.add(decodeHistogram(shards[1]!.latency));
    for (const p of [50, 90, 95, 99] as const)
      t.equal(merged.latency_ms?.[`p${p}`], percentileMs(byHand, p), `p${p}`);
  },
);

t.test('threads: auto', async (t) => {
  const closed = plan({ target: 'http://h', concurrency: 50 });
  const slow = plan({ target: 'http://h', concurrency: 50, rate: 1000 });
  const fast = plan({ target: 'http://h', concurrency: 50, rate: 50_000 });
  const few = plan({ target: 'http://h', concurrency: 3 });
  t.same(
    [closed, slow, fast, few].map((p) => resolveThreads(p, 2)),
    [1, 1, 1, 1],
    'two cores: one thread',
  );
  t.same(
    [closed, slow, fast, few].map((p) => resolveThreads(p, 8)),
    [7, 1, 7, 3],
  );
  t.equal(resolveThreads(plan({ target: 'http://h', threads: 3 }), 2), 3, 'an explicit count wins');
});
