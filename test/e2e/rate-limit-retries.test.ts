// Retries against a real rate limiter (express with express-rate-limit, its 429s carrying
// Retry-After and the draft-8 RateLimit fields): every attempt is a request of the report, so the
// totals and the 429s equal what the server answered; no retry comes before the server said; the
// logical request's total duration holds the waits, and each wait is a retry_wait sample.
import t from 'tap';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  readonly total: number;
  readonly retries: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly total_duration_ms: { readonly p50: number } | null;
  readonly total_failed: {
    readonly rate: number | null;
    readonly count: number;
    readonly total: number;
  };
  readonly retry_wait_ms: { readonly min: number } | null;
}

/** What the server answered, in order: the logical request's id, the status, when (ms). */
interface Answer {
  readonly id: string;
  readonly status: number;
  readonly atMs: number;
}

t.test('a retried 429 storm: counts equal the server, no retry before Retry-After', async (t) => {
  const answers: Answer[] = [];
  const app = express();
  app.use((req, res, next) => {
    const atMs = performance.now();
    res.on('finish', () =>
      answers.push({ id: String(req.headers['x-request'] ?? ''), status: res.statusCode, atMs }),
    );
    next();
  });
  app.use(
    rateLimit({ windowMs: 1000, limit: 3, standardHeaders: 'draft-8', legacyHeaders: false }),
  );
  app.get('/api', (_req, res) => res.json({ ok: true }));
  const server = await new Promise<ReturnType<typeof app.listen>>((done) => {
    const listening = app.listen(0, '127.0.0.1', () => done(listening));
  });
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const dir = t.testdir({
    'load.yaml': [
      `target: http://127.0.0.1:${port}`,
      'requests: 8',
      'concurrency: 4',
      'retry: { max_attempts: 6, backoff: 10ms, max_backoff: 5s, jitter: 0 }',
      "headers: { X-Request: '{{$uuid}}' }",
      'endpoints: [{ name: api, url: /api }]',
      '',
    ].join('\n'),
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  const limited = answers.filter((a) => a.status === 429).length;
  t.ok(limited > 0, `the limiter answered ${limited} 429s`);
  t.equal(json.total, answers.length, 'every attempt the server answered is a request');
  t.equal(json.status_codes['429'], limited, 'and every 429 is in the status table');
  t.equal(json.status_codes['200'], answers.length - limited);
  t.equal(json.retries, limited, 'each 429 was retried');
  t.same(json.total_failed, { rate: 0, count: 0, total: 8 }, '8 requests, all ok in the end');
  // Each retry of a request came no sooner than its 429's Retry-After (1 s) after it.
  const byRequest = new Map<string, Answer[]>();
  for (const a of answers) byRequest.set(a.id, [...(byRequest.get(a.id) ?? []), a]);
  t.equal(byRequest.size, 8, 'one id per logical request');
  let gaps = 0;
  for (const attempts of byRequest.values())
    attempts.forEach((a, i) => {
      if (a.status !== 429) return;
      const next = attempts[i + 1];
      t.ok(next !== undefined && next.atMs - a.atMs >= 999, 'a retry only after Retry-After');
      gaps++;
    });
  t.equal(gaps, limited);
  t.ok((json.retry_wait_ms?.min ?? 0) >= 999, `every wait honoured it: ${json.retry_wait_ms?.min}`);
  t.ok((json.total_duration_ms?.p50 ?? 0) > 0, 'the logical requests have their total duration');
});
