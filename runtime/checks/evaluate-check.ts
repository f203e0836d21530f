/**
 * One check on one response (model/plan/check-plan.ts): read its subject the way extractors read
 * theirs (runtime/vars/extract.ts, sharing the parsed body), then test its predicate.
 *
 *   subject    value                                           missing when
 *   status     the final response's status                    never
 *   json       the first value at the path (JSON types kept)   not JSON, nothing found, null
 *   header     the header's text                              no such header
 *   css        the first element's trimmed text, or its attr  no element, no such attribute
 *   body       the kept body as text ("" when empty)           never
 *   duration   the request's service time, ms                 never
 *
 * A missing subject fails every predicate. `equals` on json compares JSON values (1070 equals
 * 1070, not "1070"); elsewhere text. A text with placeholders (`equals: '{{email}}'`) is rendered
 * for each response from the virtual user's variables and compared as text, as frame matches do. `matches` and `contains` read a json value as its text (a
 * string as is, anything else as JSON). lt, lte, gt, gte need a JSON number (or the duration).
 * The target writes the response: a body that cannot be read (past the HTML bounds, nested too
 * deep for jsonpath-plus) fails the check, never the run.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckPlan, CheckPredicate } from '../../model/plan/check-plan.js';
import { inStatusSet } from '../../model/plan/status-set.js';
import {
  compiledPattern,
  cssValue,
  firstJsonValue,
  headerValue,
  jsonText,
  type ParsedBody,
  type RawHeaders,
} from '../vars/extract.js';

/** What a check reads of a response. */
export interface CheckedResponse {
  readonly status: number;
  readonly headers: RawHeaders;
  readonly body: ParsedBody;
  /** Service time, ms. */
  readonly durationMs: number;
}

/**
 * True when the check passes on the response; `expected` is an equalsText or containsText
 * check's text rendered for this response (undefined: a variable has no value, and it fails).
 */
export function evaluateCheck(
  check: CheckPlan,
  response: CheckedResponse,
  expected?: string,
): boolean {
  try {
    return holds(check.predicate, subjectOf(check, response), expected);
  } catch {
    return false;
  }
}

/** True when a check reads the response body (json, body, css), not only its status or headers. */
export function checksReadBody(checks: readonly CheckPlan[]): boolean {
  return checks.some(
    (c) => c.subject.from === 'json' || c.subject.from === 'body' || c.subject.from === 'css',
  );
}

/** The subject's value; undefined when it is missing. */
function subjectOf(check: CheckPlan, response: CheckedResponse): unknown {
  const subject = check.subject;
  switch (subject.from) {
    case 'status':
      return response.status;
    case 'duration':
      return response.durationMs;
    case 'body':
      return response.body.text ?? '';
    case 'header':
      return headerValue(response.headers, subject.header);
    case 'css':
      return cssValue(response.body, subject.selector, subject.attr);
    case 'json': {
      const json = response.body.json;
      const found = json === undefined ? undefined : firstJsonValue(json, subject.evaluatorPath);
      return found === null ? undefined : found;
    }
  }
}

function holds(predicate: CheckPredicate, value: unknown, expected: string | undefined): boolean {
  if (value === undefined) return false;
  switch (predicate.op) {
    case 'exists':
      return true;
    case 'in':
      return typeof value === 'number' && inStatusSet(predicate.statuses, value);
    case 'equals':
      return isDeepStrictEqual(value, predicate.value);
    case 'matches': {
      const text = jsonText(value);
      return text !== undefined && compiledPattern(predicate.pattern).test(text);
    }
    case 'contains':
      return jsonText(value)?.includes(predicate.text) ?? false;
    // Variables are text: {{id}} equals the id 42 as it equals "42".
    case 'equalsText':
      return (
        expected !== undefined &&
        (typeof value === 'string'
          ? value === expected
          : (typeof value === 'number' || typeof value === 'boolean') &&
            jsonText(value) === expected)
      );
    case 'containsText':
      return expected !== undefined && (jsonText(value)?.includes(expected) ?? false);
    case 'lt':
      return typeof value === 'number' && value < predicate.value;
    case 'lte':
      return typeof value === 'number' && value <= predicate.value;
    case 'gt':
      return typeof value === 'number' && value > predicate.value;
    case 'gte':
      return typeof value === 'number' && value >= predicate.value;
  }
}
