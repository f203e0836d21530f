/**
 * The options every scenario call shares, read as the run allows them: its own tags (and group),
 * its timeout bounded by the run's, its redirects, and its expected statuses.
 */
import type { VerifyPlan } from '../../model/plan/check-plan.js';
import {
  BUILTIN_TAGS,
  isBuiltinTag,
  TAG_KEY,
  type Tags,
} from '../../model/metrics/metric-registry.js';
import type { StatusSet } from '../../model/plan/status-set.js';

/**
 * A call's own tags: its group (`group()` names, joined by " › ") and its `tags` option, whose
 * keys may not be barrage's own tags (a scenario's error, where the call is made).
 */
export function ownTags(args: {
  readonly group: string | undefined;
  readonly tags: Readonly<Record<string, string>> | undefined;
}): Tags {
  const tags: Record<string, string> = {};
  if (args.group !== undefined) tags.group = args.group;
  for (const [key, value] of Object.entries(args.tags ?? {})) {
    if (!TAG_KEY.test(key) || isBuiltinTag(key))
      throw new Error(
        `tags: "${key}" is not a tag key of yours (a letter or _, then letters, digits, _ . -; not one of barrage's own: ${BUILTIN_TAGS.join(', ')})`,
      );
    tags[key] = value;
  }
  return tags;
}

/**
 * A call's `timeout` option: the run's `timeout` bounds it (the scenario may shorten it, never
 * lengthen it); absent, not positive or not a number, the run's.
 */
export function capped(givenMs: number | undefined, runMs: number): number {
  return givenMs !== undefined && givenMs > 0 ? Math.min(givenMs, runMs) : runMs;
}

/** A scripted request's verification: its expected statuses, if any (checks are check()'s). */
export function verifyOf(expect: StatusSet | undefined): VerifyPlan | undefined {
  return expect === undefined ? undefined : { expect, checks: [], checksFailRequest: false };
}

/** A call's `redirects` option (an integer ≥ 0), else the run's max_redirects. */
export function redirectsOf(given: number | undefined, runDefault: number): number {
  return given !== undefined && Number.isSafeInteger(given) && given >= 0 ? given : runDefault;
}
