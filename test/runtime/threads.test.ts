import t from 'tap';
import type { Plan } from '../../model/plan/plan.js';
import { compilePlan } from '../../dsl/compile/compile-plan.js';
import { configSchema } from '../../dsl/schema/config-schema.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { summarize } from '../../runtime/metrics/summarize.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import { execute } from '../../runtime/execute.js';
import { resolveThreads } from '../../runtime/segment/auto-threads.js';
import { sumLiveStates, type LiveState } from '../../runtime/segment/live-state.js';
import { SegmentHost } from '../../runtime/segment/segment-host.js';
import { splitPlan } from '../../runtime/split/split-plan.js';

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
    const hosts = specs.map((spec) => new SegmentHost(spec, 200, { onSnapshot: () => undefined }));
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

t.test('live views of a two-thread run see both threads: workers and rate add up', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const seen: LiveState[] = [];
  await execute(
    plan({ target: `${server.url}/delay/5`, concurrency: 6, rate: 200, duration: '1500ms' }),
    systemClock,
    {
      threads: 2,
      stop: new AbortController().signal,
      hardStop: new AbortController().signal,
      onProgress: (_snapshot, live) => seen.push(live),
    },
  );
  t.ok(seen.length > 0, 'progress was reported');
  const last = seen.at(-1)!;
  t.equal(last.workers, 6, 'the workers of both threads');
  t.equal(last.targetRate, 200, 'the rate shares of both threads');
  t.ok(seen.every((s) => s.busy <= s.workers && s.inFlight <= s.workers));
});

t.test('sumLiveStates: counts and rate shares add; no rate in the closed model', async (t) => {
  const a = { workers: 3, busy: 1, inFlight: 1, targetRate: 150 };
  const b = { workers: 2, busy: 2, inFlight: 0, targetRate: 50 };
  t.same(sumLiveStates([a, b]), { workers: 5, busy: 3, inFlight: 1, targetRate: 200 });
  t.same(sumLiveStates([{ ...a, targetRate: undefined }]).targetRate, undefined);
});
