/**
 * Fields read by extractors and checks: JSONPaths, regular expressions and CSS selectors, each
 * checked by its grammar or compiler. Each is built when called: the schemas that hold them are
 * built only when a configuration uses them (config-schema.ts).
 */
import * as z from 'zod';
import { parseCssSelector } from '../grammar/css-selector.js';
import { parseJsonPath } from '../grammar/json-path.js';
import { parseRegexPattern } from '../grammar/regex-pattern.js';

/** A JSONPath, checked by the grammar (filter and script expressions refused). */
export function jsonPath() {
  return z.string({ error: 'a JSONPath such as $.access_token' }).superRefine((value, ctx) => {
    const parsed = parseJsonPath(value);
    if (!parsed.ok)
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.message,
        input: value,
        params: { code: 'invalid_jsonpath' },
      });
  });
}

/** A regular expression, checked by compiling it. */
export function regexPattern() {
  return z
    .string({ error: 'a regular expression such as value="([^"]+)"' })
    .superRefine((value, ctx) => {
      const parsed = parseRegexPattern(value);
      if (!parsed.ok)
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.message,
          input: value,
          params: { code: 'invalid_regex' },
        });
    });
}

/** A CSS selector, checked by compiling it (css-select loaded first: loadCssSelectors). */
export function cssSelector() {
  return z
    .string({ error: 'a CSS selector such as input[name=_csrf]' })
    .superRefine((value, ctx) => {
      const parsed = parseCssSelector(value);
      if (!parsed.ok)
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.message,
          input: value,
          params: { code: 'invalid_selector' },
        });
    });
}
