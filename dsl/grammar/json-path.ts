/**
 * JSONPath expressions of extractors, checked before any traffic: RFC 9535 syntax exactly (its
 * BNF is above the reader in model/json-path/json-path-syntax.ts), minus what the evaluator cannot do as
 * the RFC does. jsonpath-plus evaluates them, with `eval: false`, from the spelling
 * model/json-path/json-path-query.ts gives each query, which is what the Plan carries. Refused, with a
 * message saying what to write instead:
 *
 * - anything RFC 9535 refuses: `$.1`, `$['a'` , `$[01]`, `$[-0]`, `$.a-b` (write `$['a-b']`),
 *   jsonpath-plus's own operators (`^`, `~`, `@string()`, `` `key ``), `$ ` (trailing blank)…;
 * - filter selectors `[?…]`: jsonpath-plus evaluates them with eval only;
 * - the few names jsonpath-plus's tokenizer would cut or read as a function (json-path-query.ts).
 */
import { compileJsonPath } from '../../model/json-path/json-path-query.js';
import { grammarError, type GrammarError } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** Checks an RFC 9535 JSONPath; returns the text jsonpath-plus evaluates to the RFC's answer. */
export function parseJsonPath(path: string): Result<string, GrammarError> {
  const compiled = compileJsonPath(path);
  if (compiled.ok) return ok(compiled.path);
  const { problem, part, position } = compiled.failure;
  return err(grammarError({ grammar: 'JSONPath', input: path, part, position, problem }));
}

/** The evaluator's text of a JSONPath validation accepted (the schema's refinement). */
export function evaluatorJsonPath(path: string): string {
  const compiled = compileJsonPath(path);
  if (!compiled.ok) throw new Error(`bug: JSONPath ${JSON.stringify(path)} passed validation`);
  return compiled.path;
}
