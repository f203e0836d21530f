/**
 * stages-groups.k6.js, ported to barrage (docs/from-k6.md). Against the embedded target:
 *   barrage serve   then
 *   barrage run --scenario scenarios/from-k6/stages-groups.ts --target http://127.0.0.1:8080
 *
 * What changed from k6, and why:
 * - `stages` became a `ramping-vus` scenario named `default` (k6's own name for the load its
 *   top-level options describe): barrage's top-level form paces requests, its VU ramps are
 *   executors. `start_vus: 1` is k6's default for top-level stages.
 * - Thresholds are a list of expressions: `{name:browse}` is `{endpoint=browse}` (the request
 *   name), k6's group tag `::login` is `{group=login}`; `p(95)` would be accepted as written and
 *   is spelt `p95`; `abortOnFail`/`delayAbortEval` are `abort_on_fail`/`delay_abort_eval`.
 * - `BASE_URL` is gone: the target comes from `--target` (a scenario may not choose where it
 *   sends) and urls are relative.
 * - Every http call is awaited, and so is `sleep` and a `group` whose function awaits.
 * - `__VU` and `__ITER` are k6's globals, as in k6 (`vu.id + 1` and `vu.iteration - 1`), so each
 *   VU browses the items the k6 script gave it.
 * - `res.json('access_token')` (a GJSON path) is `res.json('$.access_token')` (JSONPath); header
 *   names are lower case (`content-type`).
 * - `new SharedArray('items', () => JSON.parse(open('./items.json')))` is
 *   `data.json('items.json')`: read once by barrage before any traffic, one copy shared by every
 *   VU. `data.json<Item>()` types its records, `unknown` without it (the type check is strict).
 * - `__ENV.THINK` is `env.THINK`, set by `--env THINK=0.5` (or `scenario_env: [THINK]` in a
 *   configuration file): a scenario sees only the variables the user names, never the whole
 *   environment. Unset, the think time is 1 s, as in k6's script.
 */
import { check, data, env, group, http, sleep } from 'barrage';

interface Item {
  readonly id: number;
  readonly name: string;
}
const items = data.json<Item>('items.json');
const THINK = Number(env.THINK ?? 1);

export const options = {
  scenarios: {
    default: {
      executor: 'ramping-vus',
      start_vus: 1,
      stages: [
        { duration: '30s', target: 10 },
        { duration: '1m', target: 10 },
        { duration: '10s', target: 0 },
      ],
    },
  },
  thresholds: [
    'http_req_duration{endpoint=browse}:p95 < 300',
    'http_req_duration{group=login}:p99 < 500',
    { threshold: 'http_req_failed:rate < 0.01', abort_on_fail: true, delay_abort_eval: '10s' },
    'checks:rate > 0.99',
  ],
};

export default async function (): Promise<void> {
  const token = await group('login', async () => {
    const res = await http.post('/login', { user: `vu-${__VU}` });
    check(res, { 'login is 200': (r) => r.status === 200 });
    return res.json('$.access_token');
  });
  const auth = { Authorization: `Bearer ${String(token)}` };
  await group('browse', async () => {
    const item = items[(__VU + __ITER) % items.length]!;
    const res = await http.get(`/json?item=${item.id}`, { headers: auth, name: 'browse' });
    check(res, { 'browse is JSON': (r) => r.headers['content-type']?.includes('json') === true });
    const me = await http.get('/me', { headers: auth });
    check(me, { 'me knows the token': (r) => r.json('$.user') === `vu-${__VU}` });
  });
  await sleep(THINK);
}
