/**
 * Which configuration values are secrets (DESIGN.md §9): the one rule set every output asks,
 * through dsl/secret-set.ts (loading's issues and warnings) and cli/render/redact.ts (the
 * configuration view, reports, the dashboard, run-time messages).
 *
 * - By key: client_secret, password, token… anywhere; under `headers` (top-level and per
 *   endpoint), every header whose name is token-like (the HAR import's rule, below).
 * - By origin: values built from ${NAME} (layers.ts tracks them).
 * - By shape: URL userinfo (`http://user:pass@host`) and `Bearer …`/`Basic …` credentials in
 *   any text.
 *
 * A name is token-like when, split into words (at non-alphanumerics and camelCase humps, lower
 * case), it contains one of SECRET_PARTS anywhere, or one of SECRET_WORDS as a whole word, or is
 * exactly "key"; e.g. access_token, X-CSRF-Token, apiKey, sessionid, X-Amz-Signature, sid.
 * The rules err on the side of hiding: a value hidden by mistake costs a look at the file; a
 * leaked token costs much more.
 */

const SECRET_KEYS = new Set([
  'client_secret',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'api_key',
  'secret',
  'passphrase',
]);
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
]);
/** Substrings that make a name secret wherever they appear in its joined words. */
const SECRET_PARTS = [
  'token',
  'secret',
  'password',
  'passwd',
  'apikey',
  'csrf',
  'xsrf',
  'jwt',
  'credential',
  'signature',
  'sessionid',
  'sessid',
  'cookie',
];
/** Words that make a name secret only as a whole word (short ones would match too much). */
const SECRET_WORDS = new Set(['sid', 'sig', 'pwd', 'otp', 'auth', 'session', 'passcode']);
/** Top-level keys whose values can hold secrets below them (BARRAGE_<KEY> text is hidden whole). */
const HOLDS_SECRETS = new Set(['auth', 'headers', 'endpoints', 'outputs']);

/** The text shown in place of a secret. */
export const REDACTED = '[redacted]';

/** True when the value at `path` is a secret by its name. */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  const last = path[path.length - 1];
  if (typeof last !== 'string') return false;
  const parent = path[path.length - 2];
  // Under `extract`, keys are variable names and values JSONPaths: neither is a secret.
  if (parent === 'extract') return false;
  if (SECRET_KEYS.has(last.toLowerCase())) return true;
  return parent === 'headers' && isTokenLikeName(last);
}

/** True for headers that carry credentials by their well-known name. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** True for a header, query parameter or body field name that looks like it carries a secret. */
export function isTokenLikeName(name: string): boolean {
  if (isSecretHeader(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  if (words.length === 1 && words[0] === 'key') return true;
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  const joined = words.join('');
  return SECRET_PARTS.some((part) => joined.includes(part));
}

/** True for a top-level key whose value may hold secrets anywhere below it. */
export function holdsSecrets(key: string): boolean {
  return HOLDS_SECRETS.has(key);
}

/** An HTTP credential in text: the scheme, then the credential itself. */
const CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const WHITE_SPACE = /\s/;

/** Text with URL userinfo and `Bearer …`/`Basic …` credentials replaced, whatever it is. */
export function redactByShape(text: string): string {
  let out = '';
  let from = 0;
  for (const [start, end] of userinfoSpans(text)) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return (out + text.slice(from)).replace(CREDENTIAL, `$1 ${REDACTED}`);
}

/** The userinfo of every URL in `text` (each "user:pass" part), for exact-text redaction. */
export function userinfoIn(text: string): string[] {
  return userinfoSpans(text).map(([start, end]) => text.slice(start, end));
}

/**
 * Where the userinfo of each `scheme://userinfo@` in `text` is, [start, end) — the userinfo runs
 * up to the last "@" before the host ends (WHATWG URL does the same), never across white space,
 * a slash or quotes. A linear scan, not a regular expression: one that looks for a scheme at every
 * position backtracks over each long run of letters or digits, which made redacting a 64 K-letter
 * name take half a minute. Each character is looked at a bounded number of times.
 */
export function userinfoSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  // A scheme is looked for back to `back` only: the end of the last match, or its "://".
  let back = 0;
  for (let i = text.indexOf('://'); i !== -1;) {
    let start = i;
    while (start > back && isSchemeCode(text.charCodeAt(start - 1))) start--;
    while (start < i && !isLetterCode(text.charCodeAt(start))) start++;
    let end = i + 3;
    let at = -1;
    for (; end < text.length && !endsUserinfo(text[end]!); end++)
      if (text.charCodeAt(end) === 0x40) at = end;
    const found = start < i && at > i + 3;
    if (found) spans.push([i + 3, at]);
    back = found ? at + 1 : i + 3;
    // The run ends at a "/" or the like: only a ":" just before it can start the next "://".
    i = text.indexOf('://', Math.max(end - 1, i + 3));
  }
  return spans;
}

/** `name=value` pairs of a url's query (after "?" or "&"); the scan is linear. */
const QUERY_PAIR = /[?&]([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;

/**
 * The values of the query parameters with a token-like name (`?api_key=…`, `&access_token=…`) in
 * `text`, for exact-text redaction: an endpoint's url is shown in validate and every report.
 */
export function secretQueryValues(text: string): string[] {
  if (!text.includes('=')) return [];
  const values: string[] = [];
  for (const [, name, value] of text.matchAll(QUERY_PAIR))
    if (value !== '' && isTokenLikeName(decodeLoosely(name!))) values.push(value!);
  return values;
}

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` without a trailing `scheme://…` whose userinfo may be unfinished (no host end or "@"
 * after it): a cut message must not show the start of a password the cut separated from its "@".
 */
export function withoutOpenUrl(text: string): string {
  const open = text.lastIndexOf('://');
  if (open === -1) return text;
  for (let i = open + 3; i < text.length; i++) if (endsUserinfo(text[i]!)) return text;
  return text.slice(0, open + 3);
}

function isLetterCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** A character of a URL scheme after its first letter: letters, digits, "+", "." and "-". */
function isSchemeCode(code: number): boolean {
  return (
    isLetterCode(code) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x2d
  );
}

function endsUserinfo(char: string): boolean {
  return '/?#"\'<>\\'.includes(char) || WHITE_SPACE.test(char);
}
