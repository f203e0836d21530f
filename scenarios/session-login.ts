/**
 * A browser-like visit to the embedded target's web app (docs/serve.md), as a TypeScript
 * scenario: scenarios/session-login.yaml with a logout at the end of each visit. Each virtual
 * user's cookie jar carries the session; the CSRF token is read from the form's HTML and the login
 * is posted as a form, with no cookie or form code written here. Against the embedded target:
 *   barrage serve --port 8080  then
 *   barrage run --scenario scenarios/session-login.ts --target http://127.0.0.1:8080
 */
import { check, feed, http, sleep } from 'barrage';

export const options = {
  concurrency: 10,
  duration: '30s',
  feeder: { file: 'users.csv', order: 'sequential', cycle: true },
  thresholds: ['checks:rate > 0.99', 'http_req_duration:p95 < 200'],
};

export default async function (): Promise<void> {
  const user = feed() ?? { user: 'ada', password: 'lovelace' };
  const form = await http.get('/app/login', { name: 'login form' });
  const csrf = form.html('input[name=_csrf]')?.attr('value');
  // 302 to /app/dashboard, followed: the response is the dashboard.
  const dashboard = await http.post('/app/login', undefined, {
    name: 'log in',
    form: { _csrf: csrf ?? '', username: user.user ?? '', password: user.password ?? '' },
  });
  check(dashboard, {
    'lands on the dashboard': (r) => r.status === 200,
    'greets the user': (r) => r.body.includes('Hello'),
  });
  await sleep(1);

  const products = await http.get('/app/products', { name: 'products' });
  check(products, { 'the catalogue is decoded JSON': (r) => r.json('$[0].id') === 1070 });
  await sleep(2);
  const product = await http.get('/app/products/1071', { name: 'product' });
  check(product, { 'a product page': (r) => r.json('$.id') === 1071 });
  await sleep(1);

  const loggedOut = await http.post('/app/logout', undefined, { name: 'log out' });
  check(loggedOut, { 'back at the login form': (r) => r.body.includes('name="_csrf"') });
}
