/**
 * A request record (model/exchange-record.ts) without the values of its virtual user's cookies:
 * a target that sets a session cookie and echoes it (in a body, a header, a redirect's url) would
 * otherwise put it in the HTTP debug log and the reports' sample failures. The Cookie and
 * Set-Cookie headers are hidden by name where the record is shown (cli/render/redact-exchange.ts);
 * this hides the values wherever else they appear, in the segment that knows them: those of the
 * user's jar, those the request sent (a value the response has since replaced included), and
 * those this very response set (a cookie the jar refused included). A value is
 * hidden as a secret is (dsl/secret-set.ts), from 4 characters: shorter ones (`1`, `en`) would
 * blank the record without hiding anything.
 */
import type { CapturedBody, ExchangeRecord, RecordedHeaders } from '../../model/exchange-record.js';

/** What a hidden value reads as (dsl/secrets.ts's REDACTED). */
const HIDDEN = '[redacted]';
/** Shortest value hidden. */
const MIN_HIDDEN_LENGTH = 4;

/** The value of each Set-Cookie line (`name=value; attributes`), unquoted. */
export function setCookieValues(lines: Iterable<string>): string[] {
  const values: string[] = [];
  for (const line of lines) {
    const pair = line.slice(0, line.includes(';') ? line.indexOf(';') : line.length);
    const value = pair.slice(pair.indexOf('=') + 1).trim();
    values.push(
      value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value,
    );
  }
  return values;
}

/** The values of the Cookie header a record's request sent (`a=1; b=2`). */
export function sentCookieValues(record: ExchangeRecord): string[] {
  const values: string[] = [];
  for (const [name, header] of Object.entries(record.request.headers))
    if (name.toLowerCase() === 'cookie')
      for (const pair of header.split(';')) values.push(pair.slice(pair.indexOf('=') + 1).trim());
  return values;
}

/** The record with every value of `values` (of 4 characters or more) hidden. */
export function hideCookieValues(record: ExchangeRecord, values: Iterable<string>): ExchangeRecord {
  const hidden = [...new Set(values)].filter((v) => v.length >= MIN_HIDDEN_LENGTH);
  if (hidden.length === 0) return record;
  // Longest first, so a value holding another is hidden whole.
  hidden.sort((a, b) => b.length - a.length);
  const text = (s: string): string => {
    let out = s;
    for (const value of hidden) if (out.includes(value)) out = out.split(value).join(HIDDEN);
    return out;
  };
  const { request, response } = record;
  return {
    ...record,
    url: text(record.url),
    request: { ...request, headers: headers(request.headers, text), ...body(request, text) },
    response:
      response === null
        ? null
        : { ...response, headers: headers(response.headers, text), ...body(response, text) },
    ...(record.error === undefined ? {} : { error: text(record.error) }),
  };
}

function headers(of: RecordedHeaders, text: (s: string) => string): RecordedHeaders {
  return Object.fromEntries(Object.entries(of).map(([name, value]) => [name, text(value)]));
}

function body(of: CapturedBody, text: (s: string) => string): Pick<CapturedBody, 'body'> {
  return { body: of.body === null ? null : text(of.body) };
}
