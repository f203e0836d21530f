/**
 * The values one recorded response offers to later requests, each with the most specific
 * extractor that reads it back from the same response (docs/configuration.md, Extractors):
 *
 * | Where                                   | Extractor                                  |
 * |-----------------------------------------|--------------------------------------------|
 * | a JSON leaf (string, or number ≥ 1000)  | its JSONPath: `$.order.id`, `$[1].id`      |
 * | a response header (Location, ETag…)     | `{ header: Name }`                         |
 * | an HTML input's value, a meta's content | `{ css: 'input[name="_csrf"]', attr: value }` |
 * | a Set-Cookie value                      | none: the cookie jar sends it back         |
 *
 * An extractor is given only when it reads back exactly this value from the recorded response
 * (the first header of that name; the first element the selector finds), so a replay reads the
 * value in the same place. Values shorter than MIN_VALUE_LENGTH, booleans and small numbers are
 * not offered: they are too likely to be equal by chance. The HTML is parsed with htmlparser2
 * and searched with css-select, as the run's css extractors do; bodies past MAX_BODY are not read.
 */
import { selectAll, selectOne } from 'css-select';
import { parseDocument } from 'htmlparser2';
import type { HarEntry } from './har-schema.js';

/** How an endpoint reads a value back: a JSONPath, a header, or a CSS selector's attribute. */
export type HarExtractor =
  string | { readonly header: string } | { readonly css: string; readonly attr: string };

/** A value a response offers. */
export interface Offered {
  readonly value: string;
  /** A variable name for it: the JSON key, the field's or header's name. */
  readonly name: string;
  /** Where, for the YAML comment: "JSON $.orderId", "header Location", "cookie sid". */
  readonly where: string;
  /** Undefined for a cookie (the jar sends it back) or when nothing reads it back exactly. */
  readonly extractor: HarExtractor | undefined;
}

/** Shortest value offered: shorter ones are equal by chance too often. */
export const MIN_VALUE_LENGTH = 4;
/** Largest body searched for values (the run's extractors read the first 1 MiB too). */
const MAX_BODY = 1024 * 1024;
/** Most JSON leaves read from one response. */
const MAX_LEAVES = 10_000;
/** Response headers that describe the response, never a value a client sends back. */
const PLAIN_HEADERS = new Set([
  'date',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'server',
  'vary',
  'cache-control',
  'expires',
  'age',
  'last-modified',
  'pragma',
  'accept-ranges',
  'x-powered-by',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'content-security-policy',
  'referrer-policy',
  'permissions-policy',
]);

/** True for a value long and varied enough to be told apart from others. */
export function isDistinctive(value: string): boolean {
  if (value.length < MIN_VALUE_LENGTH) return false;
  return !/^(?:true|false|null|undefined)$/i.test(value);
}

/** Every value the entry's response offers, in the order found (headers, cookies, body). */
export function offeredValues(entry: HarEntry): Offered[] {
  const offered: Offered[] = [];
  const firstHeader = new Map<string, string>();
  for (const { name, value } of entry.response.headers) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') {
      for (const line of value.split('\n')) offered.push(...cookieValue(line));
      continue;
    }
    if (PLAIN_HEADERS.has(lower) || lower.startsWith('access-control-')) continue;
    if (!firstHeader.has(lower)) firstHeader.set(lower, value);
    if (firstHeader.get(lower) !== value || !isDistinctive(value.trim())) continue;
    offered.push({
      value: value.trim(),
      name: lower,
      where: `header ${name}`,
      extractor: { header: name },
    });
  }
  const body = responseBody(entry);
  if (body === undefined) return offered;
  const type = entry.response.content?.mimeType ?? '';
  if (/json/i.test(type) || /^\s*[[{]/.test(body)) offered.push(...jsonValues(body));
  else if (/html/i.test(type)) offered.push(...htmlValues(body));
  return offered;
}

/** The response body as text, when the recording kept it and it is small enough. */
export function responseBody(entry: HarEntry): string | undefined {
  const content = entry.response.content;
  if (content?.text === undefined || content.text === '' || content.text.length > MAX_BODY * 2)
    return undefined;
  const text =
    content.encoding === 'base64'
      ? Buffer.from(content.text, 'base64').toString('utf8')
      : content.text;
  return text.length > MAX_BODY ? undefined : text;
}

/** "sid=abc; Path=/" → the cookie's value, with no extractor. */
function cookieValue(line: string): Offered[] {
  const pair = line.split(';')[0] ?? '';
  const at = pair.indexOf('=');
  if (at < 0) return [];
  const name = pair.slice(0, at).trim();
  const value = pair.slice(at + 1).trim();
  return isDistinctive(value)
    ? [{ value, name, where: `cookie ${name}`, extractor: undefined }]
    : [];
}

/** JSON leaves: strings, and numbers of four digits or more, each with its JSONPath. */
function jsonValues(body: string): Offered[] {
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return [];
  }
  const found: Offered[] = [];
  const walk = (value: unknown, path: string, name: string, depth: number): void => {
    if (found.length >= MAX_LEAVES || depth > 64) return;
    if (Array.isArray(value))
      value.forEach((item, i) => walk(item, `${path}[${i}]`, name, depth + 1));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        walk(item, `${path}${jsonPathKey(key)}`, key, depth + 1);
    } else if (
      typeof value === 'string' ||
      (typeof value === 'number' && Number.isInteger(value))
    ) {
      const text = String(value);
      if (typeof value === 'number' && Math.abs(value) < 1000) return;
      if (isDistinctive(text))
        found.push({ value: text, name, where: `JSON ${path}`, extractor: path });
    }
  };
  walk(root, '$', 'value', 0);
  return found;
}

/** ".name" for a plain key, "['a-b']" otherwise (RFC 9535 member names). */
function jsonPathKey(key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `.${key}`;
  return `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** Input values (hidden fields: CSRF tokens, form ids) and meta contents (csrf-token). */
function htmlValues(body: string): Offered[] {
  const document = parseDocument(body);
  const found: Offered[] = [];
  const fields: [string, string, string][] = [
    ['input', 'name', 'value'],
    ['meta', 'name', 'content'],
    ['meta', 'property', 'content'],
  ];
  for (const [tag, key, attr] of fields) {
    for (const element of selectAll(`${tag}[${key}][${attr}]`, document.children)) {
      const name = attribute(element, key) ?? '';
      const value = attribute(element, attr) ?? '';
      if (!isDistinctive(value) || /["\\\n]/.test(name)) continue;
      const css = `${tag}[${key}="${name}"]`;
      const first = selectOne(css, document.children);
      const exact = first !== null && attribute(first, attr) === value;
      found.push({
        value,
        name,
        where: `HTML ${css}`,
        extractor: exact ? { css, attr } : undefined,
      });
    }
  }
  return found;
}

/** An element's attribute (htmlparser2 lower-cases names), undefined for other nodes. */
function attribute(node: object, name: string): string | undefined {
  const attribs = (node as { attribs?: Record<string, string> }).attribs;
  return attribs !== undefined && Object.hasOwn(attribs, name) ? attribs[name] : undefined;
}
