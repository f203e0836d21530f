import t from 'tap';
import { compilePlan } from '../../dsl/compile/compile-plan.js';
import { checkPlaceholders } from '../../dsl/compile/lint-plan.js';
import { topLevelLoad } from '../../model/plan/scenario-plan.js';
import { configSchema } from '../../dsl/schema/config-schema.js';
import { multipartFileKey } from '../../dsl/sources/multipart-files.js';

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
  t.equal(
    topLevelLoad(plan.scenarios, plan.namedScenarios)?.durationMs,
    10_000,
    'nothing bounds the run: the 10 s default',
  );
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

t.test(
  'headers: common, then the endpoint (any case wins), then User-Agent and Accept-Encoding',
  async (t) => {
    const { plan } = compile({
      target: 'http://h',
      headers: { Accept: 'a', 'X-A': '1' },
      endpoints: [{ url: '/', headers: { accept: 'b' } }],
    });
    t.same(plan.graph.endpoints[0]?.headers, [
      { name: 'accept', value: ['b'] },
      { name: 'X-A', value: ['1'] },
      { name: 'user-agent', value: ['barrage/test'] },
      { name: 'accept-encoding', value: ['gzip, deflate, br'] },
    ]);
  },
);

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

t.test('placeholders nothing can fill are refused, with what could fill them', async (t) => {
  const { plan } = compile({
    target: 'http://h',
    endpoints: [
      { name: 'login', url: '/l', extract: { token: '$.t' } },
      { name: 'me', url: '/me/{{token}}/{{tokn}}' },
    ],
    auth: { type: 'bearer', token: '{{phantom}}' },
  });
  const issues = checkPlaceholders(plan);
  t.strictSame(
    issues.map((i) => [i.code, i.path, i.actual, i.hint]),
    [
      ['unknown_variable', ['endpoints', 1], '{{tokn}}', 'did you mean {{token}}?'],
      ['unknown_variable', ['auth'], '{{phantom}}', undefined],
    ],
  );
  t.equal(issues[0]!.expected, 'a placeholder something fills: token (extracted)');
});
t.test(
  'query: and form: are form-encoded name=value pairs, a list repeating its name',
  async (t) => {
    const { plan } = compile({
      target: 'http://h',
      endpoints: [
        {
          name: 'q',
          url: '/s?x=1',
          query: { 'q q': 'a {{term}}', page: 2, on: true, tag: ['a', 'b&c'] },
        },
        {
          name: 'f',
          url: '/login',
          method: 'POST',
          form: { username: '{{u}}', _csrf: '{{$raw c}}' },
        },
      ],
    });
    const [query, form] = plan.graph.endpoints;
    t.same(query!.query, [
      'q+q=a+',
      { var: 'term', encoding: 'form' },
      '&page=2&on=true&tag=a&tag=b%26c',
    ]);
    t.same(query!.needs, ['term']);
    t.same(form!.body, {
      kind: 'text',
      text: ['username=', { var: 'u', encoding: 'form' }, '&_csrf=', { var: 'c', encoding: 'raw' }],
    });
    t.ok(
      form!.headers.some(
        (h) => h.name === 'content-type' && h.value[0] === 'application/x-www-form-urlencoded',
      ),
    );
  },
);

t.test('a url that starts with a placeholder is resolved at request time', async (t) => {
  const { plan } = compile({
    target: 'http://h:1/api',
    allowed_hosts: ['cdn.example'],
    endpoints: [
      { name: 'next', url: '{{next}}' },
      { name: 'base', url: '{{base}}/items/{{id}}' },
    ],
  });
  const [next, base] = plan.graph.endpoints;
  t.same(
    [next!.origin, next!.path, next!.urlFromVariable],
    ['http://h:1', [{ var: 'next', encoding: 'raw' }], { allowedHosts: ['cdn.example'] }],
  );
  t.same(base!.path, [{ var: 'base', encoding: 'raw' }, '/items/', { var: 'id', encoding: 'uri' }]);
  const fixed = compile({ target: 'http://h', endpoints: [{ url: '/a/{{$raw p}}' }] }).plan;
  t.same(fixed.graph.endpoints[0]!.urlFromVariable, undefined, 'a url starting with text is not');
});

t.test('multipart: fields as templates, files from what load-plan read', async (t) => {
  const bytes = new Uint8Array([1, 2]);
  const perUser = new Map([['photos/a.png', bytes]]);
  const { plan } = compilePlan(
    configSchema.parse({
      target: 'http://h',
      headers: { 'Content-Type': 'application/json' },
      endpoints: [
        {
          url: '/up',
          method: 'POST',
          multipart: {
            title: 'x {{id}}',
            n: 3,
            photo: { file: 'img/photo.png', content_type: 'image/png' },
            doc: { file: 'a.bin', filename: 'b.bin' },
            more: ['y', { file: 'photos/{{photo}}' }],
          },
        },
      ],
    }),
    {
      env: {},
      userAgent: 'barrage/test',
      fallbackSeed: 7,
      multipartFiles: new Map([
        [multipartFileKey(0, 'photo', 0), new Map([['img/photo.png', bytes]])],
        [multipartFileKey(0, 'doc', 0), new Map([['a.bin', bytes]])],
        [multipartFileKey(0, 'more', 1), perUser],
      ]),
    },
  );
  const endpoint = plan.graph.endpoints[0]!;
  t.same(endpoint.body, {
    kind: 'multipart',
    parts: [
      { kind: 'field', name: 'title', value: ['x ', { var: 'id', encoding: 'raw' }] },
      { kind: 'field', name: 'n', value: ['3'] },
      { kind: 'file', name: 'photo', bytes, filename: 'photo.png', contentType: 'image/png' },
      {
        kind: 'file',
        name: 'doc',
        bytes,
        filename: 'b.bin',
        contentType: 'application/octet-stream',
      },
      { kind: 'field', name: 'more', value: ['y'] },
      {
        kind: 'files',
        name: 'more',
        path: ['photos/', { var: 'photo', encoding: 'raw' }],
        files: perUser,
        filename: undefined,
        contentType: 'application/octet-stream',
      },
    ],
  });
  t.same(endpoint.needs, ['id', 'photo'], 'a file path needs its variables');
  t.notOk(
    endpoint.headers.some((h) => h.name.toLowerCase() === 'content-type'),
    'the encoder sets the Content-Type with its boundary',
  );
});
