import t from 'tap';
import { compilePlan } from '../../dsl/compile/compile-plan.js';
import { lintPlan } from '../../dsl/compile/lint-plan.js';
import { configSchema } from '../../dsl/schema/config-schema.js';

function compile(config: Record<string, unknown>, env: Record<string, string> = {}) {
  return compilePlan(configSchema.parse(config), {
    env,
    userAgent: 'barrage/test',
    fallbackSeed: 7,
  });
}

t.test('the single-request form is one endpoint on the target', async (t) => {
  const { plan } = compile({ target: 'http://127.0.0.1:9/a?b=1', method: 'post', body: 'x' });
  t.equal(plan.graph.endpoints.length, 1);
  t.match(plan.graph.endpoints[0], {
    method: 'POST',
    origin: 'http://127.0.0.1:9',
    path: ['/a?b=1'],
    body: { kind: 'text', text: ['x'] },
  });
  t.equal(plan.durationMs, 10_000, 'nothing bounds the run: the 10 s default');
  t.equal(plan.seed, 7);
});

t.test('urls join the target by text; their placeholders are percent-encoded', async (t) => {
  const { plan } = compile({
    target: 'http://h:1/api/',
    endpoints: [{ url: '/users/{{id}}' }, { url: 'items' }, { url: 'http://other:2/x' }],
  });
  t.same(
    plan.graph.endpoints.map((e) => [e.origin, e.path]),
    [
      ['http://h:1', ['/api/users/', { var: 'id', encoding: 'uri' }]],
      ['http://h:1', ['/api/items']],
      ['http://other:2', ['/x']],
    ],
  );
  t.same(plan.graph.endpoints[0]?.needs, ['id']);
});

t.test('headers: common, then the endpoint (any case wins), then User-Agent', async (t) => {
  const { plan } = compile({
    target: 'http://h',
    headers: { Accept: 'a', 'X-A': '1' },
    endpoints: [{ url: '/', headers: { accept: 'b' } }],
  });
  t.same(plan.graph.endpoints[0]?.headers, [
    { name: 'accept', value: ['b'] },
    { name: 'X-A', value: ['1'] },
    { name: 'user-agent', value: ['barrage/test'] },
  ]);
});

t.test('a mapping body is JSON with a content type; its placeholders are filled', async (t) => {
  const { plan } = compile({
    target: 'http://h',
    endpoints: [
      {
        url: '/',
        method: 'POST',
        body: { user: '{{name}}', 'k"{{k}}': ['say "{{word}}"', 2, null, { raw: '{{$raw r}}' }] },
      },
    ],
  });
  const endpoint = plan.graph.endpoints[0]!;
  t.same(endpoint.body, {
    kind: 'text',
    text: [
      '{"user":',
      { var: 'name', encoding: 'json-value' },
      ',"k\\"',
      { var: 'k', encoding: 'json' },
      '":["say \\"',
      { var: 'word', encoding: 'json' },
      '\\"",2,null,{"raw":"',
      { var: 'r', encoding: 'raw' },
      '"}]}',
    ],
  });
  t.same(endpoint.needs, ['name', 'k', 'word', 'r']);
  t.ok(
    endpoint.headers.some((h) => h.name === 'content-type' && h.value[0] === 'application/json'),
  );
});

t.test('weights, setup and flows make the pick table', async (t) => {
  const { plan } = compile({
    target: 'http://h',
    endpoints: [
      { name: 'login', url: '/l', setup: true },
      { name: 'a', url: '/a', weight: 8 },
      { name: 'b', url: '/b', weight: 2 },
    ],
  });
  t.same(plan.graph.setup, [0]);
  t.same(plan.graph.picks, {
    items: [
      { kind: 'endpoint', index: 1 },
      { kind: 'endpoint', index: 2 },
    ],
    cumulative: [8, 10],
    total: 10,
  });
  const flows = compile({
    target: 'http://h',
    endpoints: [
      { name: 'a', url: '/a' },
      { name: 'b', url: '/b' },
    ],
    flows: [
      { name: 'f', weight: 3, steps: ['b', 'a', 'b'] },
      { name: 'g', steps: ['a'] },
    ],
  }).plan;
  t.same(flows.graph.flows[0]?.steps, [1, 0, 1]);
  t.same(flows.graph.picks.cumulative, [3, 4]);
});

t.test('{{$env NAME}} is read at compile time; unset is a problem with its path', async (t) => {
  const ok = compile(
    { target: 'http://h', endpoints: [{ url: '/{{$env REGION}}' }] },
    { REGION: 'eu' },
  );
  t.same(ok.plan.graph.endpoints[0]?.path, ['/eu']);
  const missing = compile({ target: 'http://h', endpoints: [{ url: '/{{$env REGION}}' }] });
  t.match(missing.issues, [{ code: 'missing_env', path: ['endpoints', 0, 'url'] }]);
});

t.test('lint warns about placeholders nothing can fill', async (t) => {
  const { plan } = compile({
    target: 'http://h',
    endpoints: [
      { name: 'login', url: '/l', extract: { token: '$.t' } },
      { name: 'me', url: '/me/{{token}}/{{ghost}}' },
    ],
    auth: { type: 'bearer', token: '{{phantom}}' },
  });
  const messages = lintPlan(plan).map((w) => w.message);
  t.equal(messages.length, 2);
  t.match(messages[0], /endpoint "me": \{\{ghost\}\} can never be filled/);
  t.match(messages[1], /auth: \{\{phantom\}\}/);
});
