// A k6 script as a k6 user writes it: a ramp of virtual users (stages), a login and a browse in
// groups, thresholds per request name and per group, the catalogue shared by every VU
// (SharedArray) and the think time from the environment (__ENV). Ported to barrage in
// stages-groups.ts; docs/from-k6.md says what changed and why. barrage does not run this file:
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e THINK=1 scenarios/from-k6/stages-groups.k6.js
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { SharedArray } from 'k6/data';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const THINK = Number(__ENV.THINK || 1);
const items = new SharedArray('items', () => JSON.parse(open('./items.json')));

export const options = {
  stages: [
    { duration: '30s', target: 10 },
    { duration: '1m', target: 10 },
    { duration: '10s', target: 0 },
  ],
  thresholds: {
    'http_req_duration{name:browse}': ['p(95)<300'],
    'http_req_duration{group:::login}': ['p(99)<500'],
    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '10s' }],
    checks: ['rate>0.99'],
  },
};

export default function () {
  let token;
  group('login', () => {
    const res = http.post(`${BASE}/login`, JSON.stringify({ user: `vu-${__VU}` }), {
      headers: { 'Content-Type': 'application/json' },
    });
    check(res, { 'login is 200': (r) => r.status === 200 });
    token = res.json('access_token');
  });
  group('browse', () => {
    const item = items[(__VU + __ITER) % items.length];
    const res = http.get(`${BASE}/json?item=${item.id}`, {
      headers: { Authorization: `Bearer ${token}` },
      tags: { name: 'browse' },
    });
    check(res, { 'browse is JSON': (r) => r.headers['Content-Type'].includes('json') });
    const me = http.get(`${BASE}/me`, { headers: { Authorization: `Bearer ${token}` } });
    check(me, { 'me knows the token': (r) => r.json('user') === `vu-${__VU}` });
  });
  sleep(THINK);
}
