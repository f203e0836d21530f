import t from 'tap';
import type { Layer } from '../../dsl/layers.js';
import { SecretSet } from '../../dsl/secret-set.js';
import { isSecretPath, redactByShape } from '../../dsl/secrets.js';

function layer(values: Record<string, unknown>, secretPaths: string[] = []): Layer {
  return {
    name: 'file',
    values,
    sourceOf: () => ({ kind: 'default' }),
    secretPaths: new Set(secretPaths),
    secretValues: new Set(),
  };
}

t.test('secret paths: secret keys anywhere, token-like headers, never extract', async (t) => {
  const table: [readonly (string | number)[], boolean][] = [
    [['auth', 'token'], true],
    [['auth', 'client_secret'], true],
    [['headers', 'Authorization'], true],
    [['headers', 'X-Api-Key'], true],
    [['headers', 'X-Custom-Token'], true],
    [['endpoints', 0, 'headers', 'X-Session-Id'], true],
    [['headers', 'Accept'], false],
    [['endpoints', 0, 'extract', 'token'], false],
    [['target'], false],
  ];
  for (const [path, secret] of table) t.equal(isSecretPath(path), secret, path.join('.'));
});

t.test('by shape: URL userinfo and HTTP credentials, in any text', async (t) => {
  const table: [string, string][] = [
    ['GET http://user:pw@h:1/a', 'GET http://[redacted]@h:1/a'],
    ['"https://a@b@host/x"', '"https://[redacted]@host/x"'],
    ['mailto:a@b.c and http://host/@x', 'mailto:a@b.c and http://host/@x'],
    ['Authorization: Bearer abc.def', 'Authorization: Bearer [redacted]'],
    ['Basic dXNlcjpwdw==', 'Basic [redacted]'],
  ];
  for (const [text, shown] of table) t.equal(redactByShape(text), shown, text);
});

t.test(
  'a layer gives its secrets: by path, from ${NAME}, userinfo; all found in text',
  async (t) => {
    const secrets = new SecretSet();
    secrets.addLayer(
      layer(
        {
          target: 'http://u:info-1234@h/',
          auth: { type: 'bearer', token: 'tok-5678' },
          headers: { 'X-Trace': 'trace-9012', Accept: 'json' },
        },
        ['headers.X-Trace'],
      ),
    );
    const text = 'tok-5678 / trace-9012 / u:info-1234 / json / "tok-5678"';
    t.equal(secrets.redact(text), '[redacted] / [redacted] / [redacted] / json / "[redacted]"');
    t.equal(secrets.redact('abc'), 'abc', 'short strings are never searched for');
  },
);

t.test('a secret is found in its JSON-escaped form too, the longest first', async (t) => {
  const secrets = new SecretSet();
  secrets.add('pa"ss\\word');
  secrets.add('pass');
  t.equal(secrets.redact(JSON.stringify({ p: 'pa"ss\\word' })), '{"p":"[redacted]"}');
});
