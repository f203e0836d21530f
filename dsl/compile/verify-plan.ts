/** An endpoint's `expect` (or the run's) and `checks` → the VerifyPlan the runtime reads. */
import { evaluatorJsonPath } from '../grammar/json-path.js';
import type { CheckPlan, CheckPredicate, VerifyPlan } from '../../model/plan/check-plan.js';
import type { StatusSet } from '../../model/plan/status-set.js';
import type { Template } from '../../model/plan/template.js';
import type { CheckConfig } from '../schema/check-schema.js';
import { isStatic } from '../grammar/placeholder.js';
import { resolveTemplate, type EnvResolver } from './resolve-template.js';

/** What verify() reads of an endpoint. */
export interface VerifiedEndpoint {
  readonly expect?: { readonly status?: StatusSet | undefined } | undefined;
  readonly checks?: readonly CheckConfig[] | undefined;
  readonly checks_fail_request?: boolean | undefined;
}

/**
 * The endpoint's expected statuses (its own `expect`, else the run's) and checks; undefined when
 * it has neither, so that such an endpoint pays nothing per request.
 */
export function compileVerify(
  endpoint: VerifiedEndpoint,
  runExpect: StatusSet | undefined,
  env: EnvResolver,
): VerifyPlan | undefined {
  const expect = endpoint.expect?.status ?? runExpect;
  const checks = (endpoint.checks ?? []).map((check, i) =>
    checkPlan(check, (text, key) => resolveTemplate(text, ['checks', i, key], env)),
  );
  if (expect === undefined && checks.length === 0) return undefined;
  return { expect, checks, checksFailRequest: endpoint.checks_fail_request ?? false };
}

/** A check's text with placeholders as a template (`key` is where it sits, for errors). */
type Templater = (text: string, key: string) => Template;

/** One check as the runtime reads it (header and attribute names lower case). */
function checkPlan(check: CheckConfig, template: Templater): CheckPlan {
  const { name } = check;
  if (check.status !== undefined)
    return { name, subject: { from: 'status' }, predicate: { op: 'in', statuses: check.status } };
  if (check.duration !== undefined)
    return {
      name,
      subject: { from: 'duration' },
      predicate: { op: 'lt', value: check.duration.below },
    };
  if (check.body !== undefined) {
    const { contains, matches } = check.body;
    const predicate: CheckPredicate =
      contains !== undefined
        ? textPredicate('contains', contains, template)
        : { op: 'matches', pattern: matches! };
    return { name, subject: { from: 'body' }, predicate };
  }
  if (check.json !== undefined)
    return {
      name,
      subject: { from: 'json', path: check.json, evaluatorPath: evaluatorJsonPath(check.json) },
      predicate: predicateOf(check, true, template),
    };
  if (check.header !== undefined)
    return {
      name,
      subject: { from: 'header', header: check.header.toLowerCase() },
      predicate: predicateOf(check, false, template),
    };
  return {
    name,
    subject: { from: 'css', selector: check.css!, attr: check.attr?.toLowerCase() },
    predicate: predicateOf(check, false, template),
  };
}

/**
 * `equals` or `contains` with a text: with placeholders, a template the virtual user's variables
 * fill for each response; else the text as it is.
 */
function textPredicate(
  op: 'equals' | 'contains',
  text: string,
  template: Templater,
): CheckPredicate {
  const parsed = template(text, op);
  if (isStatic(parsed)) return op === 'equals' ? { op, value: text } : { op, text };
  return { op: op === 'equals' ? 'equalsText' : 'containsText', text: parsed };
}

/** The predicate written beside a json, header or css subject; none: the subject exists. */
function predicateOf(check: CheckConfig, json: boolean, template: Templater): CheckPredicate {
  if (typeof check.equals === 'string') return textPredicate('equals', check.equals, template);
  if (check.equals !== undefined)
    // Header and element text is text: `equals: 5` compares with "5" (validation refused lists).
    return {
      op: 'equals',
      value: json || typeof check.equals === 'string' ? check.equals : JSON.stringify(check.equals),
    };
  if (check.matches !== undefined) return { op: 'matches', pattern: check.matches };
  if (check.contains !== undefined) return textPredicate('contains', check.contains, template);
  for (const op of ['lt', 'lte', 'gt', 'gte'] as const) {
    const value = check[op];
    if (value !== undefined) return { op, value };
  }
  return { op: 'exists' };
}
