import t from 'tap';
import { formatProgressLine, ProgressLines } from '../../cli/dashboard/progress-line.js';
import { Recorder } from '../../runtime/metrics/recorder.js';

t.test('the line: elapsed, req/s, p95, error rate and counts, no escape codes', async (t) => {
  const rows: [Parameters<typeof formatProgressLine>[0], string][] = [
    [
      { elapsedMs: 10_000, rate: 1234.56, p95Ms: 12.345, requests: 12345, failures: 25 },
      'barrage: 0:10 elapsed, 1234.6 req/s, p95 12.35 ms, 0.20% errors (12345 requests, 25 failed)\n',
    ],
    [
      { elapsedMs: 5_000, rate: 0, p95Ms: undefined, requests: 0, failures: 0 },
      'barrage: 0:05 elapsed, 0.0 req/s, p95 n/a, 0.00% errors (0 requests, 0 failed)\n',
    ],
    [
      { elapsedMs: 3_725_000, rate: 3, p95Ms: 1500, requests: 4, failures: 4 },
      'barrage: 1:02:05 elapsed, 3.0 req/s, p95 1500.00 ms, 100.00% errors (4 requests, 4 failed)\n',
    ],
  ];
  for (const [figures, expected] of rows) {
    const line = formatProgressLine(figures);
    t.equal(line, expected);
    t.notOk(line.includes('\u001b'), 'no escape codes');
  }
});

t.test('a line each time the run crosses a multiple of the interval', async (t) => {
  const lines: string[] = [];
  const progress = new ProgressLines((line) => lines.push(line), 5000);
  const r = new Recorder({
    endpointCount: 1,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
  // 100 requests of 2 ms per half second; one failure a second.
  for (let tick = 1; tick <= 25; tick++) {
    for (let i = 0; i < 100; i++) {
      const failed = i === 0 && tick % 2 === 0;
      r.recordRequest(0, failed ? 500 : 200, failed ? 'http_5xx' : undefined, 0, 2000, -1, 0, 0);
    }
    progress.update(r.snapshot(tick * 500_000));
  }
  t.equal(lines.length, 2, 'at 5 s and 10 s of 12.5 s');
  t.match(
    lines[0],
    /^barrage: 0:05 elapsed, 200\.0 req\/s, p95 2\.00 ms, 0\.50% errors \(1000 requests, 5 failed\)\n$/,
  );
  t.match(lines[1], /^barrage: 0:10 elapsed, 200\.0 req\/s, /, 'req/s over the last interval');
});

t.test('a late snapshot prints once and the next line is due at the next multiple', async (t) => {
  const lines: string[] = [];
  const progress = new ProgressLines((line) => lines.push(line), 5000);
  const r = new Recorder({
    endpointCount: 1,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
  progress.update(r.snapshot(12_300_000));
  progress.update(r.snapshot(14_900_000));
  progress.update(r.snapshot(15_000_000));
  t.equal(lines.length, 2);
  t.match(lines[0], /^barrage: 0:12 elapsed, 0\.0 req\/s, p95 n\/a/);
  t.match(lines[1], /^barrage: 0:15 elapsed/);
});
