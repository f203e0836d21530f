/**
 * What barrage verifies of an endpoint's response (docs/configuration.md, "Checks and expected
 * statuses"): which statuses are a success (`expect`), and named checks, each one subject of the
 * response and one predicate on it, counted in the `checks` metric.
 */
import type { StatusSet } from './status-set.js';
import type { Template } from './template.js';

/** The part of a response a check reads. */
export type CheckSubject =
  | { readonly from: 'status' }
  /** `path` as written (shown), `evaluatorPath` as jsonpath-plus reads it (json-path-query.ts). */
  | { readonly from: 'json'; readonly path: string; readonly evaluatorPath: string }
  /** `header` lower case. */
  | { readonly from: 'header'; readonly header: string }
  | { readonly from: 'body' }
  /** The first element's text, or its attribute `attr` (lower case). */
  | { readonly from: 'css'; readonly selector: string; readonly attr: string | undefined }
  /** The request's service time, in ms. */
  | { readonly from: 'duration' };

/**
 * What must hold of the subject. `exists`: it was found; `equals`: a JSON value (json) or text;
 * `equalsText`: text with placeholders, rendered for each response from the virtual user's
 * variables (a string equal to it, or a number or boolean whose JSON text it is: variables are
 * text); `matches`: a regular expression (no flags) finds a match in its text; `contains`: its
 * text holds a substring (`containsText`: one with placeholders); `in`: the status is in a set;
 * lt, lte, gt, gte: a number compared with `value`.
 */
export type CheckPredicate =
  | { readonly op: 'exists' }
  | { readonly op: 'equals'; readonly value: unknown }
  | { readonly op: 'equalsText'; readonly text: Template }
  | { readonly op: 'containsText'; readonly text: Template }
  | { readonly op: 'matches'; readonly pattern: string }
  | { readonly op: 'contains'; readonly text: string }
  | { readonly op: 'in'; readonly statuses: StatusSet }
  | { readonly op: 'lt' | 'lte' | 'gt' | 'gte'; readonly value: number };

/** One named check. */
export interface CheckPlan {
  readonly name: string;
  readonly subject: CheckSubject;
  readonly predicate: CheckPredicate;
}

/** An endpoint's expected statuses and checks; undefined on an endpoint that has neither. */
export interface VerifyPlan {
  /** Statuses that are a success; undefined: below 400 (the default rule). */
  readonly expect: StatusSet | undefined;
  readonly checks: readonly CheckPlan[];
  /** A failed check fails the request as `check_failed`. */
  readonly checksFailRequest: boolean;
}

/** The templates of an endpoint's checks (placeholders the virtual user's variables fill). */
export function checkTemplates(verify: VerifyPlan | undefined): Template[] {
  return (verify?.checks ?? []).flatMap((c) =>
    c.predicate.op === 'equalsText' || c.predicate.op === 'containsText' ? [c.predicate.text] : [],
  );
}
