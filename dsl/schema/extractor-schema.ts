/** `extract`: variables read from a response (or a WebSocket frame), each by one extractor. */
import * as z from 'zod';
import { nonEmpty } from './fields.js';
import { cssSelector, jsonPath, regexPattern } from './pattern-fields.js';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const EXTRACTOR_FORMS =
  'a JSONPath such as $.access_token, or one of { json: <path>, pick: first | random | all }, { header: <name> }, { regex: <pattern> }, { css: <selector>, attr: <name> (optional) }';

/**
 * Where an extracted value comes from: a JSONPath string, `{ json: path }`, `{ header: name }`,
 * `{ regex: pattern }` or `{ css: selector, attr?: name }`. A mapping that fits none gets the list
 * of forms, and `attr` without `css` is named as such.
 */
export function extractorSchema() {
  return z.union(
    [
      jsonPath(),
      z.strictObject({
        json: jsonPath(),
        pick: z
          .enum(['first', 'random', 'all'], {
            error: 'first (the default), random (one of the values found) or all (a JSON list)',
          })
          .optional(),
      }),
      z.strictObject({ header: nonEmpty('response header name') }),
      z.strictObject({ regex: regexPattern() }),
      z.strictObject({
        css: cssSelector(),
        attr: nonEmpty('attribute of the element css selects').optional(),
      }),
    ],
    {
      error: (issue) =>
        isObject(issue.input) && 'attr' in issue.input && !('css' in issue.input)
          ? '{ css: <selector>, attr: <name> }: attr reads an attribute of the element a css selector finds, so it needs css'
          : EXTRACTOR_FORMS,
    },
  );
}

/** A mapping of variable names to extractors (their schema built at the first one parsed). */
export function extractMap() {
  return z.record(
    z.string().regex(VARIABLE_NAME, { error: 'a variable name (letters, digits, _ . -)' }),
    z.lazy(extractorSchema),
    { error: 'a mapping of variable names to extractors' },
  );
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
