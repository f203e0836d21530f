import t from 'tap';
import { alignEndpoints } from '../../runtime/metrics/align-endpoints.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { Recorder } from '../../runtime/metrics/recorder.js';

/** A shard whose scenario met `names` in this order, one request of each (status 200). */
function shard(names: readonly string[], index: number) {
  const recorder = new Recorder({
    endpointCount: 0,
    segment: { index, count: 2 },
    startedAt: 0,
    openModel: false,
  });
  for (const name of names) {
    const endpoint = recorder.addEndpoint(name);
    recorder.recordRequest(endpoint, 200, undefined, 0, 1000, -1, 10, 0);
  }
  return recorder.snapshot(1000);
}

t.test('shards that met endpoints in different orders merge by name', (t) => {
  const merged = mergeSnapshots(alignEndpoints([shard(['b', 'a'], 1), shard(['a', 'c', 'a2'], 2)]));
  t.same(merged.endpointNames, ['a', 'a2', 'b', 'c']);
  t.same(
    merged.endpoints.map((e) => e.requests),
    [2, 1, 1, 1],
  );
  t.equal(merged.requests, 5);
  t.end();
});

t.test('shards of the plan’s endpoints are left as they are', (t) => {
  const plain = new Recorder({
    endpointCount: 1,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  }).snapshot(0);
  t.same(alignEndpoints([plain]), [plain]);
  t.equal(plain.endpointNames, undefined);
  t.end();
});
