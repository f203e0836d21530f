// A k6 script as a k6 user writes it: two scenarios at once, each running its own function, a
// closed one browsing the catalogue and an open one looking products up at a fixed rate. Custom
// metrics (a Trend, a Counter, a Rate, a Gauge) and thresholds on them; a 404 for a product that
// does not exist is an expected answer, not a failed request. Ported to barrage in
// custom-metrics.ts; docs/from-k6.md says what changed and why. barrage does not run this file:
//   k6 run -e BASE_URL=http://127.0.0.1:8080 scenarios/from-k6/custom-metrics.k6.js
import http from 'k6/http';
import { check } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';

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
      timeUnit: '1s',
      duration: '30s',
      preAllocatedVUs: 5,
      maxVUs: 10,
      startTime: '5s',
      exec: 'lookups',
    },
  },
  thresholds: {
    'http_req_duration{scenario:catalogue}': ['p(95)<200'],
    'http_req_failed{scenario:lookups}': ['rate<0.01'],
    product_bytes: ['p(95)<500'],
    found_rate: ['rate>0.5'],
    missing_products: ['count>0'],
    catalogue_size: ['value==40'],
  },
};

// Every 2xx and a 404 are expected answers: they stay out of http_req_failed.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404));

export function catalogue() {
  const res = http.get(`${BASE}/app/products`, { tags: { name: 'products' } });
  check(res, { 'a list of products': (r) => Array.isArray(r.json()) });
  catalogueSize.add(res.json().length);
}

export function lookups() {
  // Ids 1060–1119 in a scrambled order: two in three (1070–1109) exist.
  const id = 1060 + ((__VU * 7 + __ITER * 17) % 60);
  const res = http.get(`${BASE}/app/products/${id}`, { tags: { name: 'product' } });
  check(res, { 'a product or a 404': (r) => r.status === 200 || r.status === 404 });
  found.add(res.status === 200);
  if (res.status === 404) missing.add(1);
  else productBytes.add(res.body.length);
}
