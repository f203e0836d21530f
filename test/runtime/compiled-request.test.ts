import t, { type Test } from 'tap';
import type { EndpointPlan, HeaderPlan } from '../../dsl/plan/endpoint-plan.js';
import { CompiledRequest, type RequestOptions } from '../../runtime/http/compiled-request.js';
import { seededRandom } from '../../runtime/random.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';

function endpoint(headers: HeaderPlan[]): EndpointPlan {
  return {
    index: 0,
    name: 'me',
    protocol: 'http',
    method: 'GET',
    origin: 'http://127.0.0.1:9',
    path: ['/me'],
    query: undefined,
    urlFromVariable: undefined,
    url: '/me',
    headers,
    body: undefined,
    extract: [],
    setup: false,
    weight: 1,
    timeoutMs: 1000,
    ws: undefined,
    needs: [],
  };
}

function fill(
  t: Test,
  request: CompiledRequest,
  authorization: string | undefined,
): RequestOptions {
  const out: RequestOptions = { origin: '', path: '/', method: 'GET', headers: [], body: null };
  t.equal(request.fill(out, new VariableStore(), seededRandom(1), authorization), 0);
  return out;
}

t.test('authorization is injected last, and replaced before a retry', async (t) => {
  const request = new CompiledRequest(endpoint([{ name: 'Accept', value: ['*/*'] }]));
  const out = fill(t, request, 'Bearer old');
  t.strictSame(out.headers, ['Accept', '*/*', 'authorization', 'Bearer old']);
  request.replaceAuthorization(out, 'Bearer new');
  t.strictSame(out.headers, ['Accept', '*/*', 'authorization', 'Bearer new']);
  t.strictSame(fill(t, request, undefined).headers, ['Accept', '*/*'], 'none yet: no header');
});

t.test("an endpoint's own Authorization header wins over the auth provider", async (t) => {
  const request = new CompiledRequest(endpoint([{ name: 'AUTHORIZATION', value: ['Custom x'] }]));
  const out = fill(t, request, 'Bearer injected');
  t.strictSame(out.headers, ['AUTHORIZATION', 'Custom x']);
  request.replaceAuthorization(out, 'Bearer new');
  t.strictSame(out.headers, ['AUTHORIZATION', 'Custom x']);
});
