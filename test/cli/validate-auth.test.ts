// `validate` with auth: secrets redacted, the token URL rule (https unless loopback), defaults.
import t, { type Test } from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';

const BASE = 'target: http://127.0.0.1:9\nconcurrency: 5\nduration: 5s\n';
const SECRET = 'literal-client-secret-91b';

async function validate(t: Test, config: string, env: Record<string, string> = {}) {
  const dir = t.testdir({ 'load.yaml': config });
  return runInProcess(['validate', 'load.yaml'], { cwd: dir, env });
}

function oauth2(tokenUrl: string, extra = ''): string {
  return `${BASE}auth:\n  type: oauth2\n  token_url: ${tokenUrl}\n  client_id: me\n  client_secret: ${SECRET}\n${extra}`;
}

t.test('oauth2: a client secret written in the file is redacted, defaults shown', async (t) => {
  const result = await validate(t, oauth2('https://idp.example.com/oauth/token'));
  t.equal(result.code, 0, result.stderr);
  t.notMatch(result.stdout + result.stderr, SECRET);
  t.match(result.stdout, /auth\.client_secret\s+\[redacted\]/);
  t.match(result.stdout, /auth\.client_id\s+me\b/);
  t.match(result.stdout, /auth\.grant_type\s+client_credentials\s+default/);
  t.match(result.stdout, /auth\.client_auth\s+body\s+default/);
  t.match(result.stdout, /auth\.max_retries\s+3\s+default/);
});

t.test('bearer and basic secrets are redacted', async (t) => {
  const bearer = await validate(t, `${BASE}auth: { type: bearer, token: bearer-secret-1234 }\n`);
  t.equal(bearer.code, 0, bearer.stderr);
  t.notMatch(bearer.stdout, 'bearer-secret-1234');
  t.match(bearer.stdout, /auth\.token\s+\[redacted\]/);
  const basic = await validate(
    t,
    `${BASE}auth: { type: basic, username: ada, password: pw-5678 }\n`,
  );
  t.equal(basic.code, 0, basic.stderr);
  t.notMatch(basic.stdout, 'pw-5678');
  t.match(basic.stdout, /auth\.password\s+\[redacted\]/);
});

t.test('a wrongly typed client secret is not echoed in the error', async (t) => {
  const result = await validate(
    t,
    `${BASE}auth: { type: oauth2, token_url: https://i/t, client_id: a, client_secret: [${SECRET}] }\n`,
  );
  t.equal(result.code, 1);
  t.match(result.stderr, /auth\.client_secret: .*got \[redacted\]/);
  t.notMatch(result.stderr, SECRET);
});

/** Token URLs: accepted or not. */
const TOKEN_URLS: readonly [string, boolean][] = [
  ['https://idp.example.com/oauth/token', true],
  ['http://127.0.0.1:8080/oauth/token', true],
  ['http://127.10.0.2/token', true],
  ['http://localhost:8080/token', true],
  ['http://[::1]:8080/token', true],
  ['http://idp.example.com/oauth/token', false],
  ['http://10.0.0.5/token', false],
  ['http://localhost.example.com/token', false],
  ['http://128.0.0.1/token', false],
];

t.test('the token URL must be https unless it is a loopback address', async (t) => {
  for (const [url, ok] of TOKEN_URLS) {
    const result = await validate(t, oauth2(url));
    t.equal(result.code, ok ? 0 : 1, url);
    if (ok) continue;
    t.equal(result.stdout, '', `${url}: stdout stays empty`);
    t.match(
      result.stderr,
      `auth.token_url: expected an https URL (http only for loopback addresses), got "${url}"`,
      url,
    );
    t.notMatch(result.stderr, SECRET);
  }
});
