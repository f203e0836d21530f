/**
 * A compiled placeholder template (dsl/grammar/placeholder.ts builds it): literal text and
 * placeholders in order. Plain data, so it crosses threads and processes unchanged.
 */

/** A built-in function placeholder. `env` exists only before compile-plan resolves it. */
export type BuiltinPart =
  | { readonly fn: 'uuid' }
  | { readonly fn: 'timestamp' }
  | { readonly fn: 'isoTimestamp' }
  | { readonly fn: 'randomInt'; readonly min: number; readonly max: number }
  /** `length` characters of [A-Za-z0-9], drawn from the virtual user's seeded random. */
  | { readonly fn: 'randomString'; readonly length: number }
  /** One item of the JSON list a variable holds (a scalar is its own one item). */
  | { readonly fn: 'randomItem'; readonly list: string }
  | { readonly fn: 'env'; readonly name: string };

/**
 * How a variable's value is written where its placeholder sits, fixed at compile time:
 *   raw         as is (headers, text bodies, WebSocket messages, and {{$raw name}} anywhere)
 *   uri         encodeURIComponent (a url's path and query)
 *   form        application/x-www-form-urlencoded, as URLSearchParams writes it (query:, form:)
 *   json        JSON-escaped, inside a JSON string (text mixed with placeholders in a JSON body)
 *   json-value  a whole JSON value: a typed variable's JSON text, else a JSON string
 */
export type Encoding = 'raw' | 'uri' | 'form' | 'json' | 'json-value';

/**
 * A variable from the store. The parser leaves `encoding` unset for {{name}} (compile sets it from
 * where the placeholder sits) and sets 'raw' for {{$raw name}}; unset at run time means raw.
 */
export interface VariablePart {
  readonly var: string;
  readonly encoding?: Encoding;
}

/** One piece of a template: literal text, a variable from the store, or a built-in. */
export type TemplatePart = string | VariablePart | BuiltinPart;

/** A parsed template; a template without placeholders is a single string part (or none). */
export type Template = readonly TemplatePart[];

/** Names of the {{name}} variables a template reads, each once, in order of first use. */
export function templateVariables(t: Template): string[] {
  const names = new Set<string>();
  for (const part of t) {
    if (typeof part === 'string') continue;
    if ('var' in part) names.add(part.var);
    else if (part.fn === 'randomItem') names.add(part.list);
  }
  return [...names];
}
