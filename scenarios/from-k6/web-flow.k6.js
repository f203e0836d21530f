// A k6 script as a k6 user writes it: a visit to a web app with a cookie session. The login
// form's CSRF token is read from its HTML, the form is posted and its redirect followed, then the
// user logs out (the redirect read, not followed) and a page behind the login sends them back to
// the form. Ported to barrage in web-flow.ts; docs/from-k6.md says what changed and why. barrage
// does not run this file:
//   k6 run -e BASE_URL=http://127.0.0.1:8080 scenarios/from-k6/web-flow.k6.js
import http from 'k6/http';
import { check, sleep } from 'k6';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const USERS = [
  ['ada', 'lovelace'],
  ['grace', 'hopper'],
  ['alan', 'turing'],
];

export const options = {
  vus: 5,
  duration: '1m',
  thresholds: {
    'http_req_duration{name:log in}': ['p(95)<300'],
    'checks{check:greets the user}': ['rate==1'],
    checks: ['rate>0.99'],
  },
};

export default function () {
  const [username, password] = USERS[__VU % USERS.length];
  // k6 empties the VU's cookie jar before each iteration: every visit starts a new session.
  const form = http.get(`${BASE}/app/login`, { tags: { name: 'login form' } });
  const csrf = form.html().find('input[name=_csrf]').attr('value');
  check(form, {
    'a session cookie': () => (http.cookieJar().cookiesForURL(`${BASE}/app/`).sid || []).length > 0,
  });

  // An object body is sent as a form; the 302 to /app/dashboard is followed.
  const dashboard = http.post(
    `${BASE}/app/login`,
    { _csrf: csrf, username, password },
    { tags: { name: 'log in' } },
  );
  check(dashboard, {
    'lands on the dashboard': (r) => r.url.endsWith('/app/dashboard'),
    'greets the user': (r) => r.html().find('#greeting').text() === `Hello, ${username}`,
  });
  sleep(1);

  const logout = http.post(`${BASE}/app/logout`, null, { redirects: 0, tags: { name: 'log out' } });
  check(logout, {
    'logout redirects to the form': (r) => r.status === 302 && r.headers.Location === '/app/login',
  });
  const after = http.get(`${BASE}/app/dashboard`, { tags: { name: 'dashboard, logged out' } });
  check(after, { 'the dashboard sends us to the form': (r) => r.url.endsWith('/app/login') });
  sleep(1);
}
