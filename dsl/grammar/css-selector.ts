/**
 * CSS selectors of `css` extractors, compiled before any traffic by css-select itself (css-what
 * parses them), the compiler the run uses: what it refuses is reported with its reason, e.g.
 * invalid CSS selector "input[": Expected name, found end of input. A selector of only white
 * space is refused too (css-select would accept it and match nothing).
 */
import { compile } from 'css-select';
import type { GrammarError } from './grammar-error.js';
import { quoteInput } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** Checks that a selector compiles; returns it unchanged when it does. */
export function parseCssSelector(selector: string): Result<string, GrammarError> {
  const fail = (reason: string): Result<string, GrammarError> =>
    err({
      message: `invalid CSS selector ${quoteInput(selector, 0)}: ${reason}`,
      part: 'selector',
      position: 0,
    });
  if (selector.trim() === '') return fail('it is empty');
  try {
    compile(selector);
    return ok(selector);
  } catch (error) {
    // css-what ends "Expected name, found " with the rest of the selector, empty at its end.
    const reason = error instanceof Error ? error.message : String(error);
    return fail(reason.endsWith('found ') ? `${reason}the end of the selector` : reason);
  }
}
