import t from 'tap';
import { ErrorFeed } from '../../cli/dashboard/error-feed.js';
import { Recorder } from '../../runtime/metrics/recorder.js';

function recorder(): Recorder {
  return new Recorder({
    endpointCount: 2,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
}

t.test('events are the growth of each endpoint’s error counts between snapshots', async (t) => {
  const r = recorder();
  const names = ['login', 'search'];
  const feed = new ErrorFeed();
  r.recordRequest(0, 200, undefined, 0, 100, -1, 0, 0);
  feed.update(r.snapshot(500_000), names);
  t.same(feed.events, [], 'no errors, no events');

  for (let i = 0; i < 3; i++) r.recordRequest(1, 503, 'http_5xx', 0, 100, -1, 0, 0);
  r.recordRequest(1, 500, 'http_5xx', 0, 100, -1, 0, 0);
  r.recordRequest(0, 0, 'timeout', 0, 100, -1, 0, 0);
  feed.update(r.snapshot(1_000_000), names);
  t.same(feed.events, [
    { atMs: 1000, endpoint: 'search', kind: 'http_5xx', statuses: [500, 503], count: 4 },
    { atMs: 1000, endpoint: 'login', kind: 'timeout', statuses: [], count: 1 },
  ]);

  r.recordRequest(0, 404, 'http_4xx', 0, 100, -1, 0, 0);
  feed.update(r.snapshot(1_500_000), names);
  t.same(
    feed.events[0],
    { atMs: 1500, endpoint: 'login', kind: 'http_4xx', statuses: [404], count: 1 },
    'newest first; only what grew since the previous snapshot',
  );
  t.equal(feed.events.length, 3);
  feed.update(r.snapshot(2_000_000), names);
  t.equal(feed.events.length, 3, 'nothing new, nothing added');
});

t.test('the feed keeps the newest `capacity` events', async (t) => {
  const r = recorder();
  const feed = new ErrorFeed(2);
  for (let tick = 1; tick <= 5; tick++) {
    r.recordRequest(0, 0, 'refused', 0, 100, -1, 0, 0);
    feed.update(r.snapshot(tick * 500_000), ['a', 'b']);
  }
  t.same(
    feed.events.map((e) => e.atMs),
    [2500, 2000],
  );
});
