// A request record as the debug log, the JSON result and the HTML report show it: credential
// headers and token-like headers hidden by name, known secrets and credentials hidden wherever
// they are (url, headers, bodies, the error), bodies cut to 1 KiB after redaction, so a secret
// across the cut is hidden whole.
import t from 'tap';
import type { Provenance } from '../../dsl/layers.js';
import { SecretSet } from '../../dsl/secret-set.js';
import { redactExchange } from '../../cli/render/redact-exchange.js';
import { Redactor } from '../../cli/render/redact.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';

const SECRET = 'env-secret-value-42';
const provenance: Provenance = {
  sourceOf: () => ({ kind: 'default' }),
  isInterpolated: () => false,
};

function redactor(): Redactor {
  const secrets = new SecretSet();
  secrets.add(SECRET);
  return new Redactor({ provenance, secrets });
}

t.test('headers, url, bodies and the error are redacted', async (t) => {
  const body = 'a'.repeat(1010) + SECRET + 'b'.repeat(500);
  const record: ExchangeRecord = {
    time: '2025-01-01T00:00:00.000Z',
    endpoint: `login ${SECRET}`,
    vu: 1,
    method: 'POST',
    url: `http://user:pw@127.0.0.1/login?key=${SECRET}`,
    request: {
      headers: {
        Authorization: 'Bearer abc.def',
        'X-Api-Key': 'plain-looking',
        'X-Trace': `t-${SECRET}`,
        Accept: '*/*',
      },
      body,
      body_truncated: true,
      body_bytes: 4000,
    },
    response: {
      status: 500,
      headers: { 'Set-Cookie': 'sid=1', 'Content-Type': 'text/plain' },
      body: `token was Bearer xyz.123 and ${SECRET}`,
      body_bytes: 60,
    },
    timings: { waiting_ms: 1, duration_ms: 2 },
    error_kind: 'http_5xx',
    error: `refused by http://user:pw@127.0.0.1 with ${SECRET}`,
  };
  const shown = redactExchange(record, redactor());
  const text = JSON.stringify(shown);
  t.notMatch(text, SECRET);
  t.notMatch(text, 'user:pw');
  t.notMatch(text, 'abc.def');
  t.notMatch(text, 'xyz.123');
  t.same(shown.request.headers, {
    Authorization: '[redacted]',
    'X-Api-Key': '[redacted]',
    'X-Trace': 't-[redacted]',
    Accept: '*/*',
  });
  t.equal(shown.response?.headers['Set-Cookie'], '[redacted]');
  t.equal(
    shown.request.body,
    'a'.repeat(1010) + '[redacted]bbbb',
    'the secret across the cut, whole',
  );
  t.same([shown.request.body_truncated, shown.request.body_bytes], [true, 4000]);
  t.equal(shown.response?.body_truncated, undefined, 'a whole short body is not cut');
  t.equal(shown.endpoint, 'login [redacted]');
});
