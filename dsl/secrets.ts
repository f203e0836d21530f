/**
 * Which configuration values are secrets (DESIGN.md §9): client secrets, passwords, tokens,
 * credential headers. Every output redacts them through cli/render/redact.ts, which asks here.
 */

const SECRET_KEYS = new Set([
  'client_secret',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'api_key',
  'secret',
]);
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
]);

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
  return parent === 'headers' && isSecretHeader(last);
}

/** True for headers that carry credentials. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}
