/**
 * JSONPath expressions for extractors, checked before any traffic.
 *
 *   path     := "$" segment*
 *   segment  := "." name | ".." name | "[" selector "]" | ".*" | "..*"
 *   selector := integer | "*" | quoted-name | integer? ":" integer? (":" integer)? | selector ("," selector)*
 *
 * Filter `[?(...)]` and script `[(...)]` selectors are refused: jsonpath-plus runs with
 * `eval: false` at run time and would only throw when traversal reaches them, mid-run. So are
 * jsonpath-plus's own operators, which are not in the grammar above and throw on some documents:
 * `^` (parent: at the root it throws), `~` (property names) and a segment starting with `@` (a
 * type selector such as `@string()`; `$.@` or `$['@id']` throws on every document). A key that
 * starts with `@` is read with jsonpath-plus's escape, a backquote: `$.`@id` or `$['`@id']`.
 */
import { JSONPath } from 'jsonpath-plus';
import type { GrammarError } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** Checks a JSONPath expression; returns it unchanged when it is safe and well formed. */
export function parseJsonPath(path: string): Result<string, GrammarError> {
  const fail = (message: string, position: number): Result<string, GrammarError> =>
    err({ message: `${message} in JSONPath "${path}"`, part: 'jsonpath', position });
  if (!path.startsWith('$')) return fail('a JSONPath must start with "$"', 0);
  const script = path.search(/\[\s*\??\s*\(/);
  if (script >= 0)
    return fail('filter and script expressions ([?(…)], [(…)]) are not allowed', script);
  const unbalanced = findUnbalancedBracket(path);
  if (unbalanced >= 0) return fail('unbalanced brackets', unbalanced);
  if (/\.$/.test(path) && !path.endsWith('..'))
    return fail('a path cannot end with "."', path.length - 1);
  if (path.endsWith('..')) return fail('a path cannot end with ".."', path.length - 2);
  const parts = JSONPath.toPathArray(path);
  if (parts.some((part) => part.startsWith('?') || part.startsWith('('))) {
    return fail('filter and script expressions are not allowed', 0);
  }
  const operator = parts.find((part) => part === '^' || part === '~' || part.startsWith('@'));
  if (operator !== undefined) {
    const at = Math.max(path.indexOf(operator[0]!), 0);
    return operator.startsWith('@')
      ? fail('a segment cannot start with "@" (to read a key such as @id, write $.`@id)', at)
      : fail(`the "${operator}" operator (parent, property name) is not allowed`, at);
  }
  return ok(path);
}

/** Index of the first bracket that does not pair up (quotes respected), or -1. */
function findUnbalancedBracket(path: string): number {
  let open = -1;
  let quote = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      if (open < 0) return i;
      quote = c;
    } else if (c === '[') {
      if (open >= 0) return i;
      open = i;
    } else if (c === ']') {
      if (open < 0) return i;
      open = -1;
    }
  }
  return quote !== '' || open >= 0 ? Math.max(open, 0) : -1;
}
