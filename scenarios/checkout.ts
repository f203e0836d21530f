/**
 * login → browse → checkout, as a TypeScript scenario (docs/scenarios.md). Run it against the
 * embedded target:  barrage serve --port 8080  then
 *   barrage run --scenario scenarios/checkout.ts --target http://127.0.0.1:8080
 */
import { check, feed, group, http, sleep, vars, type VirtualUser } from 'barrage';

export const options = {
  concurrency: 4,
  duration: '10s',
  feeder: { file: 'users.csv', order: 'sequential', cycle: true },
  thresholds: ['checks:rate > 0.99', 'http_req_duration:p95 < 500'],
};

/** Runs once per run: the catalogue every virtual user browses. */
export async function setup(): Promise<{ items: number[] }> {
  const catalogue = await http.get('/json', { name: 'catalogue' });
  check(catalogue, { 'catalogue is up': (r) => r.status === 200 });
  return { items: [1, 2, 3, 4, 5] };
}

export default async function (vu: VirtualUser, data: { items: number[] }): Promise<void> {
  const user = feed();
  await group('login', async () => {
    const login = await http.post('/login', {
      user: user?.user ?? `vu-${vu.id}`,
      password: user?.password,
    });
    check(login, { 'login is 200': (r) => r.status === 200 });
    vars.set('token', login.json('$.access_token'));
  });
  const auth = { Authorization: `Bearer ${vars.get('token')}` };
  const me = await http.get('/me', { headers: auth });
  check(me, { 'me is the user': (r) => r.status === 200 });
  for (const item of data.items.slice(0, 1 + (vu.iteration % data.items.length))) {
    const page = await http.get(`/json?item=${item}`, { name: 'browse' });
    check(page, {
      'item page is JSON': (r) => r.headers['content-type']?.includes('json') === true,
    });
  }
  const order = await http.post(
    '/echo',
    { items: data.items.slice(0, 2) },
    { headers: auth, name: 'checkout' },
  );
  check(order, { 'order echoed': (r) => r.status === 200 && r.body.includes('items') });
  await sleep(0.05);
}
