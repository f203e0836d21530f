/**
 * Recorded query parameters and body fields → what a replay sends, one field at a time. Each is
 * kept as recorded, dropped as a secret, or replaced by a placeholder:
 *
 * 1. a value a recorded response gave (har-correlate.ts) → `{{name}}`, read by that response's
 *    extractor, so the replay sends what the server gives it this time;
 * 2. with keepSecrets, everything else as recorded;
 * 3. a field the user types (a password: har-secrets.ts isCredentialField), when correlating →
 *    `{{$env NAME}}`, NAME the field's name in capitals;
 * 4. a token-like name or credential value → dropped, named in the summary;
 * 5. a value equal to a dropped secret's (SecretValues) → dropped too: "query u (a secret's value)";
 * 6. anything else as recorded.
 *
 * Output is template text: recorded parts escaped (escapeTemplate), placeholders not. Kept query
 * parameters stay byte for byte as recorded; names and values are compared decoded. A body is
 * re-serialized only when a field changed: a JSON body with a placeholder becomes a mapping (so
 * `"{{id}}"` takes the extracted value's JSON type), a form body with one a `form:` mapping (so
 * the value is form-encoded); other bodies (multipart, text) are kept as they are.
 */
import { escapeTemplate } from '../grammar/escape-template.js';
import { dropReason } from './har-headers.js';
import type { HarEntry } from './har-schema.js';
import {
  isCredentialField,
  isCredentialValue,
  isHarSecretName,
  SecretValues,
} from './har-secrets.js';

/** How fields are judged; see the module comment. */
export interface FieldRules {
  readonly keepSecrets: boolean;
  /** Recorded value → the placeholder that replaces it ("{{orderId}}"). */
  readonly uses: ReadonlyMap<string, string>;
  /** Passwords come from `{{$env NAME}}` (when correlating); otherwise they are dropped. */
  readonly credentialsFromEnv: boolean;
  readonly secretValues: SecretValues;
}

/** Rules that only drop secrets: no placeholders, no echoes known. */
export const DROP_SECRETS: FieldRules = {
  keepSecrets: false,
  uses: new Map(),
  credentialsFromEnv: false,
  secretValues: new SecretValues(),
};

/**
 * The values of the secrets the entries hold: cookies (sent and set), secret headers (and the
 * credential after their scheme), token-like query parameters and body fields.
 */
export function secretValuesOf(entries: readonly HarEntry[]): SecretValues {
  const secrets = new SecretValues();
  const pairs = (text: string, separator: string, all: boolean): void => {
    for (const pair of text.split(separator)) {
      const [name = '', ...rest] = pair.split('=');
      const value = decodeLoosely(rest.join('='));
      if (all || isHarSecretName(decodeLoosely(name)) || isCredentialValue(value))
        secrets.add(value);
    }
  };
  for (const entry of entries) {
    for (const { name, value } of entry.request.headers) {
      if (name.toLowerCase() === 'cookie') pairs(value, ';', true);
      else if (dropReason(name, value) === 'secret') {
        secrets.add(value);
        secrets.add(/^\S+\s+(\S+)$/.exec(value.trim())?.[1] ?? '');
      }
    }
    for (const { name, value } of entry.response.headers)
      if (name.toLowerCase() === 'set-cookie') pairs(value.split(';')[0] ?? '', ';', true);
    const query = entry.request.url.indexOf('?');
    if (query >= 0) pairs(entry.request.url.slice(query + 1).split('#')[0] ?? '', '&', false);
    const post = entry.request.postData;
    for (const p of post?.params ?? [])
      if (isHarSecretName(p.name) && p.value !== undefined) secrets.add(p.value);
    if (post?.text !== undefined && /x-www-form-urlencoded/i.test(post.mimeType ?? ''))
      pairs(post.text, '&', false);
    else if (post?.text !== undefined) jsonSecrets(post.text, secrets);
  }
  return secrets;
}

/** The string values of token-like keys of a JSON text, at any depth. */
function jsonSecrets(text: string, secrets: SecretValues): void {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return;
  }
  const walk = (value: unknown, depth: number): void => {
    if (depth > 64 || value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && isHarSecretName(key)) secrets.add(item);
      walk(item, depth + 1);
    }
  };
  walk(root, 0);
}

/** A request body as an endpoint writes it. */
export type HarBody =
  string | { readonly form: Readonly<Record<string, string>> } | { readonly json: unknown };

/** Template text (or a body), and what was dropped and placed. */
export interface Rewritten<T> {
  readonly value: T;
  /** Dropped secrets: "token", "u (a secret's value)". */
  readonly dropped: readonly string[];
  /** Placeholders put in, by the name of the field they replaced. */
  readonly placed: readonly string[];
}

type Verdict = { readonly keep: true } | { readonly drop: string } | { readonly template: string };

/** What happens to one field. */
function judge(name: string, value: string, rules: FieldRules): Verdict {
  const use = rules.uses.get(value);
  if (use !== undefined) return { template: use };
  if (rules.keepSecrets) return { keep: true };
  if (rules.credentialsFromEnv && isCredentialField(name) && value !== '')
    return { template: `{{$env ${envName(name)}}}` };
  if (isHarSecretName(name) || isCredentialValue(value)) return { drop: name };
  if (rules.secretValues.has(value)) return { drop: `${name} (a secret's value)` };
  return { keep: true };
}

/** "user[password]" → "USER_PASSWORD": an environment variable name. */
export function envName(field: string): string {
  const name = field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(name) ? name : `HAR_${name}`;
}

/** A query string ("?a=1&token=x") as template text, without its secrets. */
export function rewriteQuery(search: string, rules: FieldRules): Rewritten<string> {
  if (search === '') return { value: '', dropped: [], placed: [] };
  const dropped: string[] = [];
  const placed: string[] = [];
  const kept: string[] = [];
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [rawName = '', ...rest] = pair.split('=');
    const name = decodeLoosely(rawName);
    const verdict = judge(name, decodeLoosely(rest.join('=')), rules);
    if ('drop' in verdict) dropped.push(verdict.drop);
    else if ('template' in verdict) {
      placed.push(name);
      kept.push(`${escapeTemplate(rawName)}=${verdict.template}`);
    } else kept.push(escapeTemplate(pair));
  }
  return { value: kept.length === 0 ? '' : `?${kept.join('&')}`, dropped, placed };
}

/**
 * A url path with recorded segments a response gave replaced by their placeholders; `shown` is
 * the path for a name, as recorded but with such a segment as "{orderId}".
 */
export function rewritePath(
  path: string,
  rules: FieldRules,
): Rewritten<string> & { readonly shown: string } {
  const placed: string[] = [];
  const value: string[] = [];
  const shown: string[] = [];
  for (const segment of path.split('/')) {
    const use = segment === '' ? undefined : rules.uses.get(decodeLoosely(segment));
    value.push(use ?? escapeTemplate(segment));
    shown.push(use === undefined ? segment : `{${use.slice(2, -2)}}`);
    if (use !== undefined) placed.push('path');
  }
  return { value: value.join('/'), dropped: [], placed, shown: shown.join('/') };
}

/** A request body: JSON or form fields judged one by one; other bodies kept as they are. */
export function rewriteBody(body: string, mimeType: string, rules: FieldRules): Rewritten<HarBody> {
  if (/x-www-form-urlencoded/i.test(mimeType)) return rewriteForm(body, rules);
  const unchanged = { value: escapeTemplate(body), dropped: [], placed: [] };
  if (!/json/i.test(mimeType) && !/^\s*[[{]/.test(body)) return unchanged;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return unchanged;
  }
  const dropped: string[] = [];
  const placed: string[] = [];
  const json = rewriteJson(parsed, undefined, rules, dropped, placed);
  if (placed.length > 0) return { value: { json: toTemplate(json) }, dropped, placed };
  if (dropped.length > 0) return { value: escapeTemplate(JSON.stringify(json)), dropped, placed };
  return unchanged;
}

/** A form body: a `form:` mapping when a placeholder is in it (and no name repeats), else text. */
function rewriteForm(body: string, rules: FieldRules): Rewritten<HarBody> {
  const query = rewriteQuery(body, rules);
  const text = query.value.replace(/^\?/, '');
  if (query.placed.length === 0) return { ...query, value: text };
  const form: Record<string, string> = {};
  for (const pair of body.split('&')) {
    const [rawName = '', ...rest] = pair.split('=');
    const name = escapeTemplate(decodeLoosely(rawName));
    const value = decodeLoosely(rest.join('='));
    const verdict = judge(decodeLoosely(rawName), value, rules);
    if ('drop' in verdict) continue;
    if (Object.hasOwn(form, name)) return { ...query, value: text };
    define(form, name, 'template' in verdict ? verdict.template : escapeTemplate(value));
  }
  return { ...query, value: { form } };
}

/** A placeholder inside a rewritten JSON value (recorded strings are escaped, these are not). */
class Placed {
  constructor(readonly text: string) {}
}

/** A JSON value with fields judged; a value a response gave (a string, or a number) is Placed. */
function rewriteJson(
  value: unknown,
  key: string | undefined,
  rules: FieldRules,
  dropped: string[],
  placed: string[],
): unknown {
  if (Array.isArray(value))
    return value.map((item) => rewriteJson(item, key, rules, dropped, placed));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      const nested = typeof item === 'object' && item !== null;
      const verdict = judge(name, nested ? '' : leafText(item), rules);
      if ('drop' in verdict) {
        dropped.push(verdict.drop);
        continue;
      }
      let rewritten: unknown;
      if ('template' in verdict && !nested) {
        placed.push(name);
        rewritten = new Placed(verdict.template);
      } else rewritten = rewriteJson(item, name, rules, dropped, placed);
      define(out, name, rewritten);
    }
    return out;
  }
  const use = typeof value === 'string' ? rules.uses.get(value) : undefined;
  if (use === undefined) return value;
  placed.push(key ?? 'item');
  return new Placed(use);
}

/** A JSON leaf as the text a response or an echo would hold. */
function leafText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The body mapping: recorded strings (and keys) escaped, placeholders as they are. */
function toTemplate(value: unknown): unknown {
  if (value instanceof Placed) return value.text;
  if (typeof value === 'string') return escapeTemplate(value);
  if (Array.isArray(value)) return value.map(toTemplate);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value))
    define(out, escapeTemplate(name), toTemplate(item));
  return out;
}

/** Sets a key as own data, "__proto__" included. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** decodeURIComponent with "+" as a space, returning the input when it is malformed. */
export function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
