/**
 * Regular expressions of `regex` extractors, compiled before any traffic. The grammar is
 * ECMAScript's (V8 parses it; no flags), so there is no parser here: a pattern V8 refuses is
 * reported with V8's reason, e.g. invalid regular expression "(": Unterminated group.
 */
import type { GrammarError } from './grammar-error.js';
import { quoteInput } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** Checks that a pattern compiles; returns it unchanged when it does. */
export function parseRegexPattern(pattern: string): Result<string, GrammarError> {
  try {
    new RegExp(pattern);
    return ok(pattern);
  } catch (error) {
    // "Invalid regular expression: /(/: Unterminated group" → "Unterminated group".
    const reason = (error as Error).message.replace(
      /^Invalid regular expression: \/.*\/\w*: /s,
      '',
    );
    return err({
      message: `invalid regular expression ${quoteInput(pattern, 0)}: ${reason}`,
      part: 'pattern',
      position: 0,
    });
  }
}
