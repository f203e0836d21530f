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
    url: '/me',
    headers,
    body: undefined,
    extract: [],
    setup: false,
    weight: 1,
    timeoutMs: 1000,
    maxRedirects: 10,
    think: undefined,
    ws: undefined,
    needs: [],
  };
}

function fill(
  t: Test,
  request: CompiledRequest,
  authorization: string | undefined,
  cookie?: string,
): RequestOptions {
  const out: RequestOptions = { path: '/', method: 'GET', headers: [], body: null };
  const vars = new VariableStore();
  const path = request.path(vars, seededRandom(1));
  t.equal(path, '/me');
  t.equal(request.fill(out, path!, vars, seededRandom(1), authorization, cookie), 0);
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

t.test("the jar's cookies join the endpoint's own Cookie header, whose values win", async (t) => {
  const plain = new CompiledRequest(endpoint([{ name: 'Accept', value: ['*/*'] }]));
  t.strictSame(fill(t, plain, 'Bearer x', 'sid=1').headers, [
    'Accept',
    '*/*',
    'cookie',
    'sid=1',
    'authorization',
    'Bearer x',
  ]);
  const own = new CompiledRequest(endpoint([{ name: 'Cookie', value: ['theme=dark; sid=mine'] }]));
  t.strictSame(fill(t, own, undefined, 'sid=jar; lang=en').headers, [
    'Cookie',
    'theme=dark; sid=mine; lang=en',
  ]);
});
