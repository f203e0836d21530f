// An endpoint's requests by second (runtime/metrics/endpoint-seconds.ts): counted in the second
// of each completion, a late completion added to its own second, shards summed by second; and
// through the recorder and a merge, as the HTML report reads them.
import t from 'tap';
import {
  EndpointSeconds,
  MAX_ENDPOINTS_BY_SECOND,
  mergeEndpointSeconds,
} from '../../runtime/metrics/endpoint-seconds.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { Recorder } from '../../runtime/metrics/recorder.js';

t.test('requests, failures and service time summed per second of completion', async (t) => {
  const seconds = new EndpointSeconds();
  t.equal(seconds.snapshot(), undefined, 'none before a request');
  seconds.record(100, 1000, false);
  seconds.record(999_999, 3000, true);
  seconds.record(2_500_000, 5000, false);
  // A late completion of second 0, after second 2 began.
  seconds.record(400_000, 2000, false);
  t.same(seconds.snapshot(), [
    { second: 0, requests: 3, failures: 1, latencyUs: 6000 },
    { second: 2, requests: 1, failures: 0, latencyUs: 5000 },
  ]);
  t.same(seconds.snapshot(), seconds.snapshot(), 'a snapshot changes nothing');
});

t.test('shards merge by second; none stays none', async (t) => {
  t.equal(mergeEndpointSeconds([undefined, undefined]), undefined);
  t.same(
    mergeEndpointSeconds([
      [{ second: 1, requests: 2, failures: 1, latencyUs: 10 }],
      [
        { second: 0, requests: 1, failures: 0, latencyUs: 4 },
        { second: 1, requests: 3, failures: 0, latencyUs: 6 },
      ],
    ]),
    [
      { second: 0, requests: 1, failures: 0, latencyUs: 4 },
      { second: 1, requests: 5, failures: 1, latencyUs: 16 },
    ],
  );
});

t.test('the recorder keeps each endpoint’s seconds, and a merge sums two shards', async (t) => {
  const shard = (): Recorder =>
    new Recorder({
      endpointCount: 2,
      segment: { index: 1, count: 1 },
      startedAt: 0,
      openModel: false,
    });
  const a = shard();
  const b = shard();
  a.recordRequest(0, 200, undefined, 0, 1500, -1, 0, 0);
  a.recordRequest(0, 503, 'http_5xx', 1_000_000, 1_002_000, -1, 0, 0);
  b.recordRequest(0, 200, undefined, 1_000_000, 1_004_000, -1, 0, 0);
  const merged = mergeSnapshots([a.snapshot(2e6), b.snapshot(2e6)]);
  t.same(merged.endpoints[0]!.seconds, [
    { second: 0, requests: 1, failures: 0, latencyUs: 1500 },
    { second: 1, requests: 2, failures: 1, latencyUs: 6000 },
  ]);
  t.equal(merged.endpoints[1]!.seconds, undefined, 'an endpoint never sent has none');
});

t.test('only the first MAX_ENDPOINTS_BY_SECOND endpoints keep their seconds', async (t) => {
  const r = new Recorder({
    endpointCount: MAX_ENDPOINTS_BY_SECOND + 1,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
  r.recordRequest(MAX_ENDPOINTS_BY_SECOND - 1, 200, undefined, 0, 1000, -1, 0, 0);
  r.recordRequest(MAX_ENDPOINTS_BY_SECOND, 200, undefined, 0, 1000, -1, 0, 0);
  const s = r.snapshot(1e6);
  t.equal(s.endpoints[MAX_ENDPOINTS_BY_SECOND - 1]!.seconds?.length, 1);
  t.equal(s.endpoints[MAX_ENDPOINTS_BY_SECOND]!.seconds, undefined);
  t.equal(s.endpoints[MAX_ENDPOINTS_BY_SECOND]!.requests, 1, 'its other figures as ever');
});
