/**
 * What counts as a secret in a recording (har-fields.ts takes them out of queries and bodies,
 * har-headers.ts out of headers).
 * A recording is full of credentials (session cookies, bearer tokens, CSRF tokens, passwords in
 * login forms); a generated configuration is meant to be committed and shared, so by default they
 * are dropped and only their names are reported. The rules err on the side of dropping: a
 * non-secret field taken out by mistake shows in the summary and costs one edit; a leaked token
 * costs much more.
 *
 * Which names are token-like is the configuration's rule (dsl/secrets.ts isTokenLikeName), plus,
 * for a recording, any name with the word "key" (access_key, apiKey, key_id): a recording's
 * parameters are anyone's naming, so the rule is wider here. A value is credential-like when it
 * starts with an HTTP auth scheme ("Bearer …") or is a JWT. A value equal to a dropped secret's
 * (a cookie's value echoed in a tracking pixel's query) is dropped too: see SecretValues.
 */
import { isTokenLikeName } from '../secrets.js';

/** True for a header, query parameter or body field name that a recording's secrets go by. */
export function isHarSecretName(name: string): boolean {
  if (isTokenLikeName(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => w === 'key' || w.endsWith('apikey') || w.endsWith('accesskey'));
}

/** A field the user must supply (a password, not a token the server issued): from ${ENV}. */
export function isCredentialField(name: string): boolean {
  return /pass(?:word|wd|code)|^(?:pwd|pin)$/i.test(name);
}

/** Shortest value whose echo under another name is taken for the secret itself. */
const MIN_ECHO_LENGTH = 6;

/**
 * The values of a recording's secrets (cookie values, credentials, token-like fields), so that
 * the same value under another name (a tracking pixel's `?u=<session id>`) is dropped too.
 */
export class SecretValues {
  readonly #values = new Set<string>();

  /** Remembers a secret's value (short ones are too likely to be something else). */
  add(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_ECHO_LENGTH) this.#values.add(trimmed);
  }

  /** True when the value is (or, as "Bearer x", carries) a remembered secret. */
  has(value: string): boolean {
    const trimmed = value.trim();
    if (this.#values.has(trimmed)) return true;
    const credential = /^\S+\s+(\S+)$/.exec(trimmed)?.[1];
    return credential !== undefined && this.#values.has(credential);
  }
}

const CREDENTIAL_VALUE =
  /^(?:(?:Bearer|Basic|Digest|Negotiate|NTLM)\s+\S|eyJ[\w-]{4,}\.[\w-]{4,}\.)/i;

/** True for a value that is a credential whatever its name: "Bearer …", "Basic …", a JWT. */
export function isCredentialValue(value: string): boolean {
  return CREDENTIAL_VALUE.test(value.trim());
}
