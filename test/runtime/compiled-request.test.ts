import t, { type Test } from 'tap';
import type { EndpointPlan, HeaderPlan } from '../../model/plan/endpoint-plan.js';
import { UserCookies } from '../../runtime/http/cookie-jar.js';
import {
  BODY_PENDING,
  CompiledRequest,
  type RequestOptions,
} from '../../runtime/http/compiled-request.js';
import { seededRandom } from '../../model/random.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';

function endpoint(headers: HeaderPlan[], more: Partial<EndpointPlan> = {}): EndpointPlan {
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
    metrics: [],
    verify: undefined,
    setup: false,
    weight: 1,
    timeoutMs: 1000,
    stream: undefined,
    llm: undefined,
    maxRedirects: 10,
    tags: {},
    think: undefined,
    ws: undefined,
    needs: [],
    ...more,
  };
}

function options(): RequestOptions {
  return { origin: '', path: '/', method: 'GET', headers: [], body: null };
}

function store(values: Record<string, string>): VariableStore {
  const vars = new VariableStore();
  for (const [key, value] of Object.entries(values)) vars.set(key, value);
  return vars;
}

function fill(
  t: Test,
  request: CompiledRequest,
  authorization: string | undefined,
  cookies?: UserCookies,
): RequestOptions {
  const out: RequestOptions = { origin: '', path: '/', method: 'GET', headers: [], body: null };
  t.equal(request.fill(out, new VariableStore(), seededRandom(1), authorization, cookies), 0);
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

t.test('fill says where the request goes: the origin and the encoded path and query', async (t) => {
  const request = new CompiledRequest(
    endpoint([], {
      path: ['/p/', { var: 'v', encoding: 'uri' }, '?x=1'],
      query: ['q=', { var: 'v', encoding: 'form' }],
    }),
  );
  const out = options();
  t.equal(request.fill(out, store({ v: 'A&B=C d' }), seededRandom(1), undefined), 0);
  t.equal(out.origin, 'http://127.0.0.1:9');
  t.equal(out.path, '/p/A%26B%3DC%20d?x=1&q=A%26B%3DC+d', "query: joins the url's own with &");
  const fixed = new CompiledRequest(endpoint([], { path: ['/p'], query: ['a=1'] }));
  fixed.fill(out, new VariableStore(), seededRandom(1), undefined);
  t.equal(out.path, '/p?a=1', 'a static path and query are joined once');
  t.equal(
    request.fill(out, new VariableStore(), seededRandom(1), undefined),
    'missing_variable',
    'a missing variable: not sent',
  );
});

t.test('a url from a variable: a path joins the origin, an allowed host its own', async (t) => {
  const request = new CompiledRequest(
    endpoint([], {
      path: [{ var: 'next', encoding: 'raw' }],
      urlFromVariable: { allowedHosts: ['api.example', 'other.example:8443'] },
    }),
  );
  const cases: [string, string | undefined, string | undefined][] = [
    ['/login?from=a%20b', 'http://127.0.0.1:9', '/login?from=a%20b'],
    ['http://127.0.0.1:9/x', 'http://127.0.0.1:9', '/x'],
    ['https://api.example:444/y?z', 'https://api.example:444', '/y?z'],
    ['https://other.example:8443/w', 'https://other.example:8443', '/w'],
    ['https://other.example/w', undefined, undefined],
    ['http://127.0.0.1:10/x', undefined, undefined],
    ['http://evil.example/x', undefined, undefined],
    ['//evil.example/x', undefined, undefined],
    ['ftp://127.0.0.1:9/x', undefined, undefined],
    ['login', undefined, undefined],
  ];
  for (const [next, origin, path] of cases) {
    const out = options();
    const filled = request.fill(out, store({ next }), seededRandom(1), undefined);
    if (origin === undefined) t.equal(filled, 'url_not_allowed', next);
    else t.same([filled, out.origin, out.path], [0, origin, path], next);
  }
});

t.test('a multipart body: static, encoded once; with placeholders, per request', async (t) => {
  const parts = (value: EndpointPlan['path']): EndpointPlan['body'] => ({
    kind: 'multipart',
    parts: [
      { kind: 'field', name: 'title', value },
      {
        kind: 'file',
        name: 'photo',
        bytes: new Uint8Array([1, 2, 3]),
        filename: 'p.png',
        contentType: 'image/png',
      },
    ],
  });
  const auth = 'Bearer t';
  for (const [value, vars] of [
    [['x'], new VariableStore()],
    [['x ', { var: 'id' }], store({ id: '7' })],
  ] as const) {
    const request = new CompiledRequest(endpoint([], { method: 'POST', body: parts(value) }));
    const out = options();
    t.equal(request.fill(out, vars, seededRandom(1), auth), BODY_PENDING, 'first: pending');
    const size = await request.finishBody(out);
    t.equal(size, (out.body as Buffer).length);
    const type = out.headers[1]!;
    t.match(type, /^multipart\/form-data; boundary=/);
    t.equal(out.headers.at(-1), auth, 'authorization stays last');
    const form = await new Request('http://x/', {
      method: 'POST',
      body: out.body as Buffer,
      headers: { 'content-type': type },
    }).formData();
    t.equal(form.get('title'), value.length === 1 ? 'x' : 'x 7');
    const file = form.get('photo') as File;
    t.same(
      [file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]],
      ['p.png', 'image/png', [1, 2, 3]],
    );
    const again = options();
    const second = request.fill(again, vars, seededRandom(1), auth);
    if (value.length === 1) t.equal(second, size, 'static: encoded once, sent as is after');
    else t.equal(second, BODY_PENDING, 'with placeholders: encoded per request');
  }
});

t.test("the jar's cookies join the endpoint's own Cookie header, whose values win", async (t) => {
  const jar = (pairs: string): UserCookies => {
    const cookies = new UserCookies();
    cookies.store('http://127.0.0.1:9/', pairs.split('; '));
    return cookies;
  };
  const plain = new CompiledRequest(endpoint([{ name: 'Accept', value: ['*/*'] }]));
  t.strictSame(fill(t, plain, 'Bearer x', jar('sid=1')).headers, [
    'Accept',
    '*/*',
    'cookie',
    'sid=1',
    'authorization',
    'Bearer x',
  ]);
  const own = new CompiledRequest(endpoint([{ name: 'Cookie', value: ['theme=dark; sid=mine'] }]));
  t.strictSame(fill(t, own, undefined, jar('sid=jar; lang=en')).headers, [
    'Cookie',
    'theme=dark; sid=mine; lang=en',
  ]);
  t.strictSame(
    fill(t, plain, undefined, new UserCookies()).headers,
    ['Accept', '*/*'],
    'an empty jar adds nothing',
  );
});
