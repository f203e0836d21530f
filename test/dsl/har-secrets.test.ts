import t from 'tap';
import { dropReason } from '../../dsl/har/har-headers.js';
import {
  DROP_SECRETS,
  rewriteBody,
  rewriteQuery,
  secretValuesOf,
  type FieldRules,
} from '../../dsl/har/har-fields.js';
import type { HarEntry } from '../../dsl/har/har-schema.js';
import { isCredentialValue, isHarSecretName } from '../../dsl/har/har-secrets.js';
import { isTokenLikeName } from '../../dsl/secrets.js';

/** The query as template text and the names dropped, with the default rules. */
function stripQuery(search: string, rules: FieldRules = DROP_SECRETS) {
  const rewritten = rewriteQuery(search, rules);
  return { text: rewritten.value, dropped: rewritten.dropped };
}

/** A text body and the names dropped, with the default rules. */
function stripBody(body: string, mimeType: string) {
  const rewritten = rewriteBody(body, mimeType, DROP_SECRETS);
  const { value } = rewritten;
  return {
    text: typeof value === 'string' ? value : JSON.stringify(value),
    dropped: rewritten.dropped,
  };
}

t.test('token-like names', async (t) => {
  const secret = [
    'Cookie',
    'Authorization',
    'Proxy-Authorization',
    'access_token',
    'accessToken',
    'X-CSRF-Token',
    'X-XSRF-TOKEN',
    'x-api-key',
    'apiKey',
    'api_key',
    'key',
    'client_secret',
    'password',
    'newPassword',
    'JSESSIONID',
    'PHPSESSID',
    'sid',
    'X-Amz-Signature',
    'sig',
    'jwt',
    'X-Auth-User',
    'credentials',
    'otp',
  ];
  const plain = [
    'Accept',
    'Content-Type',
    'author',
    'page',
    'sort_key',
    'keyboard',
    'q',
    'Referer',
  ];
  for (const name of secret) t.ok(isTokenLikeName(name), `${name} is a secret`);
  for (const name of plain) t.notOk(isTokenLikeName(name), `${name} is not`);
});

t.test('in a recording, "key" anywhere in a name is token-like', async (t) => {
  for (const name of [
    'access_key',
    'accessKey',
    'publishable-key',
    'key_id',
    'X-Api-Key',
    'mapsApikey',
  ])
    t.ok(isHarSecretName(name), `${name} is a secret`);
  for (const name of ['keyboard', 'monkey', 'page', 'hotkeys'])
    t.notOk(isHarSecretName(name), name);
  t.same(stripQuery('?access_key=abcdef&page=2'), { text: '?page=2', dropped: ['access_key'] });
});

t.test('a value equal to a dropped secret is dropped under any name', async (t) => {
  const entry = (request: Partial<HarEntry['request']>, setCookie?: string): HarEntry => ({
    request: { method: 'GET', url: 'https://a.test/', headers: [], ...request },
    response: {
      status: 200,
      headers: setCookie === undefined ? [] : [{ name: 'Set-Cookie', value: setCookie }],
    },
  });
  const secretValues = secretValuesOf([
    entry({ headers: [{ name: 'Cookie', value: 'sid=session-value-1; theme=dark' }] }),
    entry({}, 'uid=user-cookie-2; Path=/'),
    entry({ url: 'https://a.test/?access_key=query-secret-3' }),
  ]);
  const rules = { ...DROP_SECRETS, secretValues };
  t.same(
    stripQuery('?u=session-value-1&v=user-cookie-2&w=query-secret-3&page=2&t=dark', rules),
    {
      text: '?page=2&t=dark',
      dropped: ["u (a secret's value)", "v (a secret's value)", "w (a secret's value)"],
    },
    'values of 6 characters or more; "dark" is too short to tell',
  );
  const body = rewriteBody(
    '{"event":"view","visitor":{"id":"session-value-1"}}',
    'application/json',
    rules,
  );
  t.same(body, {
    value: '{"event":"view","visitor":{}}',
    dropped: ["id (a secret's value)"],
    placed: [],
  });
});

t.test('correlated values become placeholders; passwords come from the environment', async (t) => {
  const rules: FieldRules = {
    ...DROP_SECRETS,
    uses: new Map([
      ['tok-123456', '{{_csrf}}'],
      ['98765', '{{orderId}}'],
    ]),
    credentialsFromEnv: true,
  };
  t.same(
    rewriteBody(
      '_csrf=tok-123456&user=ada&password=pw&x=%7B%7B',
      'application/x-www-form-urlencoded',
      rules,
    ),
    {
      value: {
        form: { _csrf: '{{_csrf}}', user: 'ada', password: '{{$env PASSWORD}}', x: '\\{{' },
      },
      dropped: [],
      placed: ['_csrf', 'password'],
    },
  );
  t.same(rewriteBody('{"order":98765,"n":2,"note":"{{x"}', 'application/json', rules), {
    value: { json: { order: '{{orderId}}', n: 2, note: '\\{{x' } },
    dropped: [],
    placed: ['order'],
  });
  t.same(stripQuery('?csrf=tok-123456&q=a', rules), { text: '?csrf={{_csrf}}&q=a', dropped: [] });
});

t.test('credential-like values, whatever the name', async (t) => {
  t.ok(isCredentialValue('Bearer abc.def'));
  t.ok(isCredentialValue(' basic dXNlcjpwYXNz'));
  t.ok(isCredentialValue('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'));
  t.notOk(isCredentialValue('text/html'));
  t.notOk(isCredentialValue('Bearer'));
});

t.test('query strings lose token-like parameters, the rest stays byte for byte', async (t) => {
  t.same(stripQuery('?q=a%20b&access_token=x&page=2'), {
    text: '?q=a%20b&page=2',
    dropped: ['access_token'],
  });
  t.same(stripQuery('?access%5Ftoken=x'), { text: '', dropped: ['access_token'] });
  t.same(stripQuery('?auth=Bearer%20x&a'), { text: '?a', dropped: ['auth'] });
  t.same(stripQuery('?x=Bearer%20abc'), { text: '', dropped: ['x'] }, 'by value');
  t.same(stripQuery('?q=%E0%A4%A&x=1'), { text: '?q=%E0%A4%A&x=1', dropped: [] }, 'bad encoding');
  t.same(stripQuery(''), { text: '', dropped: [] });
});

t.test('bodies: JSON at any depth, form fields; others untouched', async (t) => {
  t.same(
    stripBody(
      '{"user":"ada","login":{"password":"p","otp":"1"},"items":[{"card_token":"t","n":1}]}',
      'application/json',
    ),
    {
      text: '{"user":"ada","login":{},"items":[{"n":1}]}',
      dropped: ['password', 'otp', 'card_token'],
    },
  );
  t.equal(
    stripBody('{ "a" : 1 }', 'application/json').text,
    '{ "a" : 1 }',
    'untouched bodies keep their bytes',
  );
  t.same(
    stripBody('[{"token":"x"}]', ''),
    { text: '[{}]', dropped: ['token'] },
    'JSON by its look',
  );
  t.same(
    stripBody(
      'user=ada&password=p&remember=on',
      'application/x-www-form-urlencoded; charset=UTF-8',
    ),
    {
      text: 'user=ada&remember=on',
      dropped: ['password'],
    },
  );
  t.same(stripBody('not {json', 'application/json'), { text: 'not {json', dropped: [] });
  const multipart = '--x\r\nContent-Disposition: form-data; name="password"\r\n\r\np\r\n--x--';
  t.same(stripBody(multipart, 'multipart/form-data; boundary=x'), { text: multipart, dropped: [] });
  t.same(
    JSON.parse(stripBody('{"__proto__":{"token":"x"},"a":1}', 'application/json').text),
    JSON.parse('{"__proto__":{},"a":1}'),
    '__proto__ stays a plain key',
  );
});

t.test('header drop reasons', async (t) => {
  const table: [string, string, string | undefined][] = [
    ['Host', 'h', 'connection'],
    ['connection', 'keep-alive', 'connection'],
    ['Content-Length', '12', 'connection'],
    ['TE', 'trailers', 'connection'],
    ['Expect', '100-continue', 'connection'],
    [':authority', 'h', 'pseudo'],
    ['Sec-Fetch-Mode', 'cors', 'browser'],
    ['sec-ch-ua', '"x"', 'browser'],
    ['Upgrade-Insecure-Requests', '1', 'browser'],
    ['User-Agent', 'Mozilla', 'user-agent'],
    ['traceparent', '00-…', 'trace'],
    ['X-B3-TraceId', '1', 'trace'],
    ['Cookie', 'a=b', 'secret'],
    ['X-Whatever', 'Bearer abc', 'secret'],
    ['Bad Name', 'x', 'invalid'],
    ['Accept-Encoding', 'gzip, br', undefined],
    ['Origin', 'https://h', undefined],
    ['Content-Type', 'application/json', undefined],
  ];
  for (const [name, value, reason] of table) t.equal(dropReason(name, value), reason, name);
});
