/**
 * A real checkout recorded with headless Chromium against the session app (express 5,
 * express-session, csrf-sync; test/helpers/record-checkout.ts says what the user does).
 * `barrage har` turns the recording into a flow, and the
 * flow replays against a fresh app (other port, other secret, so other tokens and ids) with no
 * hand edits but the password from the environment: 0 failures, every checkout paid. The same
 * recording without correlation (the recorded values sent again) is refused by the server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { chromiumSkip } from '../helpers/chromium.js';
import { CHECKOUT_USERS, recordCheckout } from '../helpers/record-checkout.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startSessionApp, type SessionApp } from '../helpers/session-app.js';

const skip = chromiumSkip(process.env);

const USERS = CHECKOUT_USERS;

/** A fresh app, closed when the test ends. */
async function freshApp(t: Test): Promise<SessionApp> {
  const app = await startSessionApp(USERS);
  t.teardown(() => app.close());
  return app;
}

t.test('a recorded checkout replays with 0 failures after barrage har', { skip }, async (t) => {
  const dir = t.testdir({});
  const recorded = await freshApp(t);
  t.equal(await recordCheckout(recorded, join(dir, 'checkout.har')), 'paid', 'the recording paid');
  t.equal(recorded.stats.checkouts, 1);

  const har = await runInProcess(['har', 'checkout.har', '-o', 'flow.yaml'], { cwd: dir });
  t.equal(har.code, 0, har.stderr);
  const yaml = readFileSync(join(dir, 'flow.yaml'), 'utf8');
  t.notMatch(yaml + har.stderr, USERS.alice, 'the recorded password is nowhere');
  t.match(har.stderr, /dynamic values: 3 found, 3 correlated .*orderId \(JSON \$\.orderId, 1×\)/);
  t.notMatch(har.stderr, /X-CSRF-Token|body _csrf/, 'correlated fields are not dropped secrets');
  t.match(har.stderr, /credentials from the environment: set PASSWORD/);
  const config = parse(yaml) as {
    endpoints: { name: string; url: string; extract?: Record<string, unknown> }[];
    flows: { steps: string[] }[];
  };
  const checkout = config.endpoints.find((e) => e.url.endsWith('/checkout'));
  t.equal(checkout?.url, '/api/orders/{{orderId}}/checkout', 'the order id is a placeholder');
  t.same(
    config.endpoints.find((e) => e.name === 'POST /api/orders')?.extract,
    { orderId: '$.orderId' },
    'read from the response that gave it',
  );
  t.match(yaml, /# \{\{orderId\}\}: the server's JSON \$\.orderId, sent back by 1 later request\n/);
  t.match(yaml, /# \{\{_csrf\}\}: the server's HTML input\[name="_csrf"\]/);
  t.match(yaml, /X-CSRF-Token: "\{\{_csrf_2\}\}"/, 'the dashboard token goes in the header');
  t.match(yaml, /password: "\{\{\$env PASSWORD\}\}"/);
  t.same(config.flows[0]?.steps, [
    'GET /login',
    'POST /login',
    'GET /dashboard',
    'GET /api/products',
    'POST /api/cart',
    'POST /api/orders',
    'POST /api/orders/{orderId}/checkout',
  ]);

  const env = { PASSWORD: USERS.alice };
  const validate = await runInProcess(['validate', 'flow.yaml'], { cwd: dir, env });
  t.equal(validate.code, 0, validate.stderr);

  const replay = await freshApp(t);
  const argv = ['run', 'flow.yaml', '--target', replay.url, '-n', '3', '-c', '1', '--json-output'];
  const run = await runInProcess(argv, { cwd: dir, env });
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { total: number; failures: number };
  t.equal(report.failures, 0, 'no request failed');
  t.equal(replay.stats.logins.alice, 3, 'each iteration logged in');
  t.equal(replay.stats.checkouts, 3, 'each iteration paid its own order');
  t.same(replay.stats.rejected, { csrf: 0, credentials: 0, notLoggedIn: 0, cart: 0, order: 0 });

  const plain = await runInProcess(['har', 'checkout.har', '--no-correlate', '-o', 'plain.yaml'], {
    cwd: dir,
  });
  t.equal(plain.code, 0, plain.stderr);
  const refused = await freshApp(t);
  const again = await runInProcess(
    ['run', 'plain.yaml', '--target', refused.url, '-n', '3', '-c', '1', '--json-output'],
    { cwd: dir, env },
  );
  const failed = JSON.parse(again.stdout) as { failures: number };
  t.ok(failed.failures > 0, 'the recorded values are refused');
  t.equal(refused.stats.checkouts, 0, 'no checkout without correlation');
  t.ok(refused.stats.rejected.csrf > 0, 'the recorded CSRF tokens are refused');
});
