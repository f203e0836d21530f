import t from 'tap';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { backoffMs, isRetryable } from '../../runtime/failure/retry.js';
import { RetryBudget } from '../../runtime/failure/retry-budget.js';
import { seededRandom } from '../../model/random.js';

t.test('retryable per spec §7.3', async (t) => {
  const table: [ErrorKind, number, boolean][] = [
    ['http_4xx', 429, true],
    ['http_5xx', 503, true],
    ['http_5xx', 500, true],
    ['timeout', 0, true],
    ['reset', 0, true],
    ['http_4xx', 404, false],
    ['http_4xx', 400, false],
    ['aborted', 0, false],
    ['invalid_request', 0, false],
    ['refused', 0, false],
    ['missing_variable', 0, false],
    ['tls', 0, false],
  ];
  for (const [kind, status, expected] of table)
    t.equal(isRetryable(kind, status), expected, `${kind} ${status}`);
});

t.test('backoff doubles, is capped, and jitter takes at most its share', async (t) => {
  const random = seededRandom(1);
  for (let attempt = 1; attempt <= 10; attempt++) {
    const exponential = Math.min(5000, 100 * 2 ** (attempt - 1));
    for (let i = 0; i < 50; i++) {
      const wait = backoffMs(attempt, 100, 5000, 0.5, random);
      t.ok(wait <= exponential && wait >= exponential / 2, `attempt ${attempt}: ${wait}`);
    }
  }
  t.equal(backoffMs(3, 100, 5000, 0, random), 400, 'no jitter: exact');
});

t.test('the budget allows its share of requests plus a floor per second', async (t) => {
  const budget = new RetryBudget(0.1, 0, 0);
  for (let i = 0; i < 100; i++) budget.deposit();
  let allowed = 0;
  for (let i = 0; i < 50; i++) if (budget.tryWithdraw(0)) allowed++;
  t.equal(allowed, 10, '10% of 100 requests');
  const floor = new RetryBudget(0.1, 10, 0);
  let granted = 0;
  for (let i = 0; i < 50; i++) if (floor.tryWithdraw(0)) granted++;
  t.equal(granted, 10, 'the floor lets a small run retry');
  t.ok(floor.tryWithdraw(1_000_000), 'a second later the floor refills');
});
