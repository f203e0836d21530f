import t from 'tap';
import { emptyRunCause } from '../../runtime/metrics/empty-run.js';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { runResultFixture } from '../helpers/run-report-fixture.js';

/** A run's result with no request in it. */
const nothingSent = (overrides: Partial<RunResult>): RunResult =>
  runResultFixture({ total: 0, successes: 0, failures: 0, ...overrides });

t.test('a run that proved nothing says why; one that proved something says nothing', (t) => {
  t.equal(emptyRunCause(runResultFixture()), undefined, 'requests succeeded');
  t.equal(
    emptyRunCause(runResultFixture({ successes: 1, failures: 999 })),
    undefined,
    'one success is a finding',
  );
  t.equal(
    emptyRunCause(
      runResultFixture({
        total: 4,
        successes: 0,
        failures: 4,
        errors: { http_4xx: 3, refused: 1 },
      }),
    ),
    'none of its 4 requests succeeded (http_4xx: 3, refused: 1)',
  );
  t.equal(
    emptyRunCause(
      nothingSent({
        iterations: 565,
        iterations_failed: 0,
        unsent: 0,
      }),
    ),
    'no request was sent: its 565 iterations made no request',
  );
  t.equal(
    emptyRunCause(
      nothingSent({
        iterations: 10,
        iterations_failed: 10,
        iteration_errors: { script_error: 10 },
        unsent: 10,
        unsent_causes: { 'missing_variable: {{token}} in endpoint home, header': 10 },
      }),
    ),
    'no request was sent: 10 of 10 iterations failed (script_error: 10); 10 unsent (missing_variable: {{token}} in endpoint home, header: 10)',
  );
  t.equal(
    emptyRunCause(nothingSent({ iterations: 0 })),
    'no request was sent: no iteration started',
  );
  t.equal(
    emptyRunCause(
      runResultFixture({
        iterations: 5,
        iterations_failed: 5,
        iteration_errors: { a: 1, b: 1, c: 2, d: 1 },
      }),
    ),
    'every one of its 5 iterations failed (c: 2, a: 1, b: 1, 1 more)',
    'requests succeeded but every iteration threw',
  );
  t.end();
});
