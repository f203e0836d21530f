/**
 * web-flow.k6.js, ported to barrage (docs/from-k6.md). Against the embedded target's session app
 * (docs/serve.md):
 *   barrage serve   then
 *   barrage run --scenario scenarios/from-k6/web-flow.ts --target http://127.0.0.1:8080
 *
 * What changed from k6, and why:
 * - k6 empties a VU's cookie jar before each iteration (unless `noCookiesReset: true`); barrage
 *   keeps it for the VU's life, as a browser does. The port clears it where k6 did.
 * - An object body is sent as JSON by barrage, as a form by k6: the login form goes in `form`.
 * - `res.html().find(sel).attr(a)` is `res.html(sel)?.attr(a)` (the first element, or null), and
 *   `.text()` is `.text`.
 * - Header names are lower case (`location`, not `Location`); `cookiesForURL()` gives each name's
 *   value, not a list of values; relative urls are the target's, so BASE_URL is gone.
 * - A redirect followed is one request per hop, as in k6: `log in` is the POST and its hop to the
 *   dashboard; http_req_total_duration{endpoint=log in} times both.
 * - Thresholds: `{name:log in}` is `{endpoint=log in}`, `{check:…}` is `{check=…}`.
 * - `__VU` is `vu.id + 1`, so each VU logs in as the user it had in k6; every call is awaited.
 */
import { check, http, sleep, type VirtualUser } from 'barrage';

const USERS = [
  ['ada', 'lovelace'],
  ['grace', 'hopper'],
  ['alan', 'turing'],
] as const;

export const options = {
  concurrency: 5,
  duration: '1m',
  thresholds: [
    'http_req_duration{endpoint=log in}:p95 < 300',
    'checks{check=greets the user}:rate == 1',
    'checks:rate > 0.99',
  ],
};

export default async function (vu: VirtualUser): Promise<void> {
  const [username, password] = USERS[(vu.id + 1) % USERS.length]!;
  const jar = http.cookieJar();
  jar.clear();
  const form = await http.get('/app/login', { name: 'login form' });
  const csrf = form.html('input[name=_csrf]')?.attr('value') ?? '';
  check(form, { 'a session cookie': () => jar.cookiesForURL('/app/').sid !== undefined });

  // The 302 to /app/dashboard is followed.
  const dashboard = await http.post('/app/login', undefined, {
    name: 'log in',
    form: { _csrf: csrf, username, password },
  });
  check(dashboard, {
    'lands on the dashboard': (r) => r.url.endsWith('/app/dashboard'),
    'greets the user': (r) => r.html('#greeting')?.text === `Hello, ${username}`,
  });
  await sleep(1);

  const logout = await http.post('/app/logout', undefined, { redirects: 0, name: 'log out' });
  check(logout, {
    'logout redirects to the form': (r) => r.status === 302 && r.headers.location === '/app/login',
  });
  const after = await http.get('/app/dashboard', { name: 'dashboard, logged out' });
  check(after, { 'the dashboard sends us to the form': (r) => r.url.endsWith('/app/login') });
  await sleep(1);
}
