/**
 * Correlation: a value the server gave in one response (an order id, a CSRF token) and the
 * browser sent back in a later request must be read from the replay's own response, not sent as
 * recorded, or the server refuses it. Walking the kept entries in recorded order:
 *
 * 1. each request's values are looked up: url path segments, query values, header values (whole,
 *    or after an auth scheme; never Cookie: the cookie jar sends cookies), form fields and JSON
 *    leaves. A value is dynamic when an earlier kept response offered it (har-response-values.ts)
 *    and no request sent it before any response did (then the client made it up: a search term,
 *    a product chosen from a list);
 * 2. the latest response before the use that offers it with an extractor is its source (a token
 *    the server renews is read where it was last given); the source gets `extract:` and the use
 *    `{{name}}`;
 * 3. a dynamic value offered only without an extractor (a cookie's value repeated in a header)
 *    is found but not correlated: it is replayed as recorded, or dropped if it is a secret.
 *
 * One variable per distinct value, named after where it was found (`orderId`, `_csrf`,
 * `csrf-token`), made unique with `_2`, `_3`…
 */
import { decodeLoosely } from './har-fields.js';
import {
  isDistinctive,
  offeredValues,
  type HarExtractor,
  type Offered,
} from './har-response-values.js';
import type { HarEntry } from './har-schema.js';

/** One dynamic value: where it came from and whether it is read back in the replay. */
export interface DynamicValue {
  /** The variable that carries it (correlated values). */
  readonly name: string;
  /** log.entries index of the response it was read from (its latest before the first use). */
  readonly from: number;
  /** "JSON $.orderId", "header Location", "HTML input[name=\"_csrf\"]", "cookie sid". */
  readonly where: string;
  /** Requests that send it. */
  readonly uses: number;
  readonly correlated: boolean;
}

/** What correlation decided, by log.entries index. */
export interface Correlation {
  /** For each request: recorded value → its placeholder ("{{orderId}}"). */
  readonly uses: ReadonlyMap<number, ReadonlyMap<string, string>>;
  /** For each response: variable → the extractor that reads it. */
  readonly extracts: ReadonlyMap<number, ReadonlyMap<string, HarExtractor>>;
  readonly values: readonly DynamicValue[];
}

/** No correlation (weighted endpoints, or turned off). */
export const NO_CORRELATION: Correlation = { uses: new Map(), extracts: new Map(), values: [] };

/** An entry to correlate: its index, the entry, its parsed url. */
export interface Kept {
  readonly index: number;
  readonly entry: HarEntry;
  readonly url: URL;
}

interface Source {
  readonly entry: number;
  readonly offer: Offered;
}

interface Variable {
  readonly name: string;
  from: number;
  where: string;
  uses: number;
  correlated: boolean;
}

/** Correlates kept entries, in recorded order. */
export function correlate(kept: readonly Kept[]): Correlation {
  const offered = new Map<string, Source>();
  const clientFirst = new Set<string>();
  const variables = new Map<string, Variable>();
  const names = new Set<string>();
  const uses = new Map<number, Map<string, string>>();
  const extracts = new Map<number, Map<string, HarExtractor>>();
  for (const { index, entry, url } of kept) {
    const here = new Map<string, string>();
    for (const value of requestValues(entry, url)) {
      if (!isDistinctive(value) || here.has(value)) continue;
      const source = offered.get(value);
      if (source === undefined) {
        clientFirst.add(value);
        continue;
      }
      let variable = variables.get(value);
      if (variable === undefined) {
        variable = {
          name: uniqueName(source.offer.name, names),
          from: source.entry,
          where: source.offer.where,
          uses: 0,
          correlated: false,
        };
        variables.set(value, variable);
      }
      variable.uses++;
      const extractor = source.offer.extractor;
      if (extractor === undefined) {
        here.set(value, '');
        continue;
      }
      if (!variable.correlated)
        Object.assign(variable, { from: source.entry, where: source.offer.where });
      variable.correlated = true;
      here.set(value, `{{${variable.name}}}`);
      const at = extracts.get(source.entry) ?? new Map<string, HarExtractor>();
      at.set(variable.name, extractor);
      extracts.set(source.entry, at);
    }
    const placed = new Map([...here].filter(([, placeholder]) => placeholder !== ''));
    if (placed.size > 0) uses.set(index, placed);
    for (const offer of offeredValues(entry)) {
      if (clientFirst.has(offer.value)) continue;
      const before = offered.get(offer.value);
      const keepBefore =
        before !== undefined &&
        before.offer.extractor !== undefined &&
        (offer.extractor === undefined || before.entry === index);
      if (!keepBefore) offered.set(offer.value, { entry: index, offer });
    }
  }
  const values = [...variables.values()].map((v) => ({ ...v }));
  return { uses, extracts, values };
}

/** A variable name from where a value was found: letters, digits and "_", not a digit first. */
function uniqueName(found: string, taken: Set<string>): string {
  let base = found.replace(/[^A-Za-z0-9_]+/g, '_');
  if (/^_*$/.test(base)) base = 'value';
  else if (!/^[A-Za-z_]/.test(base)) base = `v_${base}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** The values a request sends, as the server reads them (decoded). */
function requestValues(entry: HarEntry, url: URL): string[] {
  const values: string[] = [];
  for (const segment of url.pathname.split('/'))
    if (segment !== '') values.push(decodeLoosely(segment));
  values.push(...pairValues(url.search.replace(/^\?/, '')));
  for (const { name, value } of entry.request.headers) {
    if (name.toLowerCase() === 'cookie' || name.startsWith(':')) continue;
    values.push(value.trim());
    const credential = /^\S+\s+(\S+)$/.exec(value.trim())?.[1];
    if (credential !== undefined) values.push(credential);
  }
  const post = entry.request.postData;
  const type = post?.mimeType ?? '';
  if (post?.params !== undefined && post.params.length > 0)
    values.push(...post.params.map((p) => p.value ?? ''));
  else if (post?.text !== undefined) {
    if (/x-www-form-urlencoded/i.test(type)) values.push(...pairValues(post.text));
    else if (/json/i.test(type) || /^\s*[[{]/.test(post.text))
      values.push(...jsonLeaves(post.text));
  }
  return values;
}

/** The decoded values of "a=1&b=2". */
function pairValues(text: string): string[] {
  if (text === '') return [];
  return text.split('&').map((pair) => decodeLoosely(pair.split('=').slice(1).join('=')));
}

/** The string and integer leaves of a JSON text, as text. */
function jsonLeaves(text: string): string[] {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return [];
  }
  const leaves: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) walk(item, depth + 1);
    else if (typeof value === 'string' || typeof value === 'number') leaves.push(String(value));
  };
  walk(root, 0);
  return leaves;
}
