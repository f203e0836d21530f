/**
 * custom-metrics.k6.js, ported to barrage (docs/from-k6.md). Against the embedded target:
 *   barrage serve   then
 *   barrage run --scenario scenarios/from-k6/custom-metrics.ts --target http://127.0.0.1:8080
 *
 * What changed from k6, and why:
 * - Metrics are imported from 'barrage' and declared at the top level, as in k6.
 * - Scenario keys are snake_case (`time_unit`, `pre_allocated_vus`, `max_vus`, `start_time`).
 * - `http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404))` is
 *   `expect: { status: ['2xx', 404] }` in options (a request's own `expect` would win).
 * - Thresholds: `{scenario:lookups}` is `{scenario=lookups}`, `p(95)` is spelt `p95`.
 * - `__VU`/`__ITER` are `vu.id + 1`/`vu.iteration - 1`, so the ids looked up are k6's; barrage's
 *   VU ids run on across scenarios as k6's do, so the ids differ only by where each scenario's
 *   block of VUs starts.
 * - Every http call is awaited; BASE_URL is gone (`--target`, relative urls).
 */
import { check, Counter, Gauge, http, Rate, Trend, type VirtualUser } from 'barrage';

const productBytes = new Trend('product_bytes');
const missing = new Counter('missing_products');
const found = new Rate('found_rate');
const catalogueSize = new Gauge('catalogue_size');

export const options = {
  scenarios: {
    catalogue: {
      executor: 'constant-vus',
      vus: 5,
      duration: '30s',
      exec: 'catalogue',
    },
    lookups: {
      executor: 'constant-arrival-rate',
      rate: 20,
      time_unit: '1s',
      duration: '30s',
      pre_allocated_vus: 5,
      max_vus: 10,
      start_time: '5s',
      exec: 'lookups',
    },
  },
  expect: { status: ['2xx', 404] },
  thresholds: [
    'http_req_duration{scenario=catalogue}:p95 < 200',
    'http_req_failed{scenario=lookups}:rate < 0.01',
    'product_bytes:p95 < 500',
    'found_rate:rate > 0.5',
    'missing_products:count > 0',
    'catalogue_size:value == 40',
  ],
};

export async function catalogue(): Promise<void> {
  const res = await http.get('/app/products', { name: 'products' });
  check(res, { 'a list of products': (r) => Array.isArray(r.json()) });
  catalogueSize.add((res.json() as unknown[]).length);
}

export async function lookups(vu: VirtualUser): Promise<void> {
  // Ids 1060–1119 in a scrambled order: two in three (1070–1109) exist.
  const id = 1060 + (((vu.id + 1) * 7 + (vu.iteration - 1) * 17) % 60);
  const res = await http.get(`/app/products/${id}`, { name: 'product' });
  check(res, { 'a product or a 404': (r) => r.status === 200 || r.status === 404 });
  found.add(res.status === 200);
  if (res.status === 404) missing.add(1);
  else productBytes.add(res.body.length);
}
