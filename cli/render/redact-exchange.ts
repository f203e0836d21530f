/**
 * A request record (model/exchange-record.ts) as it may be shown, in the HTTP debug log,
 * the JSON result and the HTML report: the values of credential headers (Authorization,
 * Proxy-Authorization, Cookie, Set-Cookie) and of every header whose name the configuration would
 * hide (dsl/secrets.ts, token-like names) replaced; every other text (url, header values, bodies,
 * the error) through the run's Redactor, which hides the known secrets, ${ENV} values, URL userinfo
 * and Bearer/Basic credentials. Bodies are redacted first and cut to SHOWN_BODY_BYTES after, so a
 * secret across the cut is hidden whole.
 */
import { REDACTED, isTokenLikeName } from '../../dsl/secrets.js';
import { cutText, SHOWN_BODY_BYTES } from '../../runtime/http/body-capture.js';
import type { CapturedBody, ExchangeRecord, RecordedHeaders } from '../../model/exchange-record.js';
import type { Redactor } from './redact.js';

/** The record with its secrets hidden and its bodies cut to what is shown. */
export function redactExchange(record: ExchangeRecord, redactor: Redactor): ExchangeRecord {
  const text = (s: string): string => redactor.text(s);
  const { request, response } = record;
  return {
    ...record,
    ...(record.scenario === undefined ? {} : { scenario: text(record.scenario) }),
    endpoint: text(record.endpoint),
    url: text(record.url),
    request: { headers: headers(request.headers, text), ...body(request, text) },
    response:
      response === null
        ? null
        : {
            status: response.status,
            headers: headers(response.headers, text),
            ...body(response, text),
          },
    ...(record.error === undefined ? {} : { error: text(record.error) }),
  };
}

function headers(of: RecordedHeaders, text: (s: string) => string): RecordedHeaders {
  return Object.fromEntries(
    Object.entries(of).map(([name, value]) => [
      text(name),
      isTokenLikeName(name) ? REDACTED : text(value),
    ]),
  );
}

function body(of: CapturedBody, text: (s: string) => string): CapturedBody {
  if (of.body === null) return { body: null, body_bytes: of.body_bytes };
  const shown = text(of.body);
  const cut = cutText(shown, SHOWN_BODY_BYTES);
  return cut === undefined && of.body_truncated !== true
    ? { body: shown, body_bytes: of.body_bytes }
    : { body: cut ?? shown, body_truncated: true, body_bytes: of.body_bytes };
}
