/**
 * A compiled placeholder template (dsl/grammar/placeholder.ts builds it): literal text and
 * placeholders in order. Plain data, so it crosses threads and processes unchanged.
 */

/** A built-in function placeholder. `env` exists only before compile-plan resolves it. */
export type BuiltinPart =
  | { readonly fn: 'uuid' }
  | { readonly fn: 'timestamp' }
  | { readonly fn: 'randomInt'; readonly min: number; readonly max: number }
  | { readonly fn: 'env'; readonly name: string };

/** One piece of a template: literal text, a variable from the store, or a built-in. */
export type TemplatePart = string | { readonly var: string } | BuiltinPart;

/** A parsed template; a template without placeholders is a single string part (or none). */
export type Template = readonly TemplatePart[];
