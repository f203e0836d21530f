/**
 * What counts as a secret in a recording, and taking secrets out of query strings and bodies.
 * A recording is full of credentials (session cookies, bearer tokens, CSRF tokens, passwords in
 * login forms); a generated configuration is meant to be committed and shared, so by default they
 * are dropped and only their names are reported. The rules err on the side of dropping: a
 * non-secret field taken out by mistake shows in the summary and costs one edit; a leaked token
 * costs much more.
 *
 * Which names are token-like is the configuration's rule (dsl/secrets.ts isTokenLikeName).
 * A value is credential-like when it starts with an HTTP auth scheme ("Bearer …") or is a JWT.
 */
import { isTokenLikeName } from '../secrets.js';

const CREDENTIAL_VALUE =
  /^(?:(?:Bearer|Basic|Digest|Negotiate|NTLM)\s+\S|eyJ[\w-]{4,}\.[\w-]{4,}\.)/i;

/** True for a value that is a credential whatever its name: "Bearer …", "Basic …", a JWT. */
export function isCredentialValue(value: string): boolean {
  return CREDENTIAL_VALUE.test(value.trim());
}

/** Text with secret fields taken out, and the names of what was taken. */
export interface Stripped {
  readonly text: string;
  readonly dropped: readonly string[];
}

/**
 * Drops token-like parameters from a query string ("a=1&token=x" → "a=1"). Kept parameters stay
 * byte for byte as recorded (no re-encoding); names are compared decoded.
 */
export function stripQuery(search: string): Stripped {
  if (search === '') return { text: search, dropped: [] };
  const dropped: string[] = [];
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => {
      const [rawName = '', ...rest] = pair.split('=');
      const name = decodeLoosely(rawName);
      if (isTokenLikeName(name) || isCredentialValue(decodeLoosely(rest.join('=')))) {
        dropped.push(name);
        return false;
      }
      return true;
    });
  if (dropped.length === 0) return { text: search, dropped };
  return { text: kept.length === 0 ? '' : `?${kept.join('&')}`, dropped };
}

/**
 * Drops token-like fields from a JSON body (at any depth) or a form-urlencoded body. Other bodies
 * (multipart, text, binary) are returned unchanged: their secrets cannot be found reliably.
 * A body is re-serialized only when something was dropped, so untouched bodies stay as recorded.
 */
export function stripBody(body: string, mimeType: string): Stripped {
  if (/x-www-form-urlencoded/i.test(mimeType)) {
    const stripped = stripQuery(body);
    return { text: stripped.text.replace(/^\?/, ''), dropped: stripped.dropped };
  }
  if (!/json/i.test(mimeType) && !/^\s*[[{]/.test(body)) return { text: body, dropped: [] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { text: body, dropped: [] };
  }
  const dropped: string[] = [];
  const cleaned = dropJsonSecrets(value, dropped);
  return dropped.length === 0
    ? { text: body, dropped }
    : { text: JSON.stringify(cleaned), dropped };
}

/** A copy of a JSON value without token-like keys or credential-like string values. */
function dropJsonSecrets(value: unknown, dropped: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => dropJsonSecrets(item, dropped));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isTokenLikeName(key) || (typeof item === 'string' && isCredentialValue(item))) {
      dropped.push(key);
      continue;
    }
    Object.defineProperty(out, key, {
      value: dropJsonSecrets(item, dropped),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** decodeURIComponent with "+" as a space, returning the input when it is malformed. */
function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
