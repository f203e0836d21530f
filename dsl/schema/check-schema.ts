/**
 * `expect: { status: … }` and `checks:` (docs/configuration.md, "Checks and expected statuses").
 * A check is one subject of the response and one predicate on it, in one mapping:
 *
 *   { name: ok, status: [200, 2xx] }                 status in the set
 *   { name: n, json: $.path [, equals | matches | lt | lte | gt | gte] }   (none: exists)
 *   { name: n, header: Name [, equals | matches | contains] }              (none: exists)
 *   { name: n, css: selector [, attr: name] [, equals | matches | contains] }
 *   { name: n, body: { contains: text } | { matches: pattern } }
 *   { name: n, duration: { below: 300ms } }
 *
 * The mapping's keys are checked as a whole (checkRules): exactly one subject, only predicates
 * its subject takes, at most one of them, so each problem is named by its key.
 */
import * as z from 'zod';
import { parseStatusEntry, STATUS_ENTRY, type StatusSet } from '../../model/plan/status-set.js';
import { duration, nonEmpty } from './fields.js';
import { cssSelector, jsonPath, regexPattern } from './pattern-fields.js';
import { grpcStatusList } from './grpc-schema.js';

/** A status, a class or a range, or a list of them → the set of statuses (status-set.ts). */
export function statusList(what: string) {
  const text = `${STATUS_ENTRY}, or a list of them (${what})`;
  const entry = z.union([z.int(), z.string()], { error: text });
  return z
    .union([entry, z.array(entry, { error: text }).min(1, { error: text })], { error: text })
    .transform((value, ctx): StatusSet => {
      const entries = Array.isArray(value) ? value : [value];
      const set = entries.flatMap((e, i) => {
        const range = parseStatusEntry(e);
        if (typeof range !== 'string') return [range];
        ctx.addIssue({
          code: 'custom',
          message: range,
          input: e,
          ...(Array.isArray(value) ? { path: [i] } : {}),
          params: { code: 'invalid_value' },
        });
        return [];
      });
      return set;
    })
    .meta({ description: text });
}

/** `expect`: the statuses that are a success. */
export function expectSchema() {
  return z
    .strictObject(
      {
        status: statusList('statuses that are a success')
          .optional()
          .describe(
            'Statuses that are a success, others fail as unexpected_status: 200, "2xx", "200-299", or a list',
          ),
        grpc_status: grpcStatusList()
          .optional()
          .describe(
            'gRPC status codes that are a success (gRPC endpoints; default OK): names or numbers',
          ),
      },
      {
        error:
          'a mapping { status: [200, 404] } (statuses that are a success) or { grpc_status: [OK, NOT_FOUND] }',
      },
    )
    .describe('Statuses that are a success (default: any status below 400)');
}

/** The parts of a response a check can read, and the predicates each takes at the top level. */
const SUBJECTS: Readonly<Record<string, readonly string[]>> = {
  status: [],
  json: ['equals', 'matches', 'lt', 'lte', 'gt', 'gte'],
  header: ['equals', 'matches', 'contains'],
  css: ['attr', 'equals', 'matches', 'contains'],
  body: [],
  duration: [],
};
const PREDICATES = ['equals', 'matches', 'contains', 'lt', 'lte', 'gt', 'gte'] as const;
const FORMS =
  'one subject: status, json, header, css, body or duration (see docs/configuration.md, Checks)';

const number = (what: string) =>
  z.number({ error: `a number (${what})` }).refine(Number.isFinite, { error: `a finite number` });

/** One check, its keys as written; checkRules() holds the rules between them. */
function checkSchema() {
  return z
    .strictObject(
      {
        name: nonEmpty('check name, counted under it in the checks metric'),
        status: statusList('statuses the check passes on').optional(),
        json: jsonPath().optional(),
        header: nonEmpty('response header name').optional(),
        css: cssSelector().optional(),
        attr: nonEmpty('attribute of the element css selects').optional(),
        body: z
          .strictObject(
            {
              contains: z.string({ error: 'text the body must contain' }).optional(),
              matches: regexPattern().optional(),
            },
            { error: '{ contains: <text> } or { matches: <pattern> }' },
          )
          .optional(),
        duration: z
          .strictObject(
            { below: duration('the longest service time that passes') },
            { error: '{ below: <duration> }, such as { below: 300ms }' },
          )
          .optional(),
        equals: z.json().optional(),
        matches: regexPattern().optional(),
        contains: z.string({ error: 'text it must contain' }).optional(),
        lt: number('less than').optional(),
        lte: number('at most').optional(),
        gt: number('more than').optional(),
        gte: number('at least').optional(),
      },
      { error: `a check: a mapping with a name and ${FORMS}` },
    )
    .superRefine((check, ctx) => {
      for (const issue of checkRules(check)) ctx.addIssue({ code: 'custom', ...issue });
    });
}

/** A check as written (the schema's output). */
export type CheckConfig = z.output<ReturnType<typeof checkSchema>>;

/** An issue of one check: where (a key of it) and what was expected. */
interface CheckIssue {
  readonly path: (string | number)[];
  readonly message: string;
  readonly input: unknown;
  readonly params: { readonly code: 'invalid_value'; readonly hint?: string };
}

/** Exactly one subject; only the predicates that subject takes; at most one predicate. */
function checkRules(check: CheckConfig): CheckIssue[] {
  const keys = Object.keys(check).filter((k) => check[k as keyof CheckConfig] !== undefined);
  const subjects = keys.filter((k) => Object.hasOwn(SUBJECTS, k));
  const issue = (key: string, message: string, hint?: string): CheckIssue => ({
    path: [key],
    message,
    input: check[key as keyof CheckConfig],
    params: { code: 'invalid_value', ...(hint === undefined ? {} : { hint }) },
  });
  if (subjects.length === 0) return [issue('name', FORMS, `check "${check.name}" reads nothing`)];
  if (subjects.length > 1) return [issue(subjects[1]!, `${FORMS}, not ${subjects.join(' and ')}`)];
  const subject = subjects[0]!;
  const allowed = SUBJECTS[subject]!;
  const out: CheckIssue[] = [];
  for (const key of keys) {
    if (key === 'name' || key === subject) continue;
    if (key === 'attr' && subject !== 'css')
      out.push(issue(key, 'attr only beside css (it reads an attribute of the element css finds)'));
    else if (!allowed.includes(key))
      out.push(
        issue(
          key,
          allowed.length === 0
            ? `nothing beside ${subject} (a ${subject} check holds its predicate)`
            : `a predicate a ${subject} check takes: ${allowed.join(', ')}`,
        ),
      );
  }
  const predicates = keys.filter((k) => (PREDICATES as readonly string[]).includes(k));
  if (predicates.length > 1 && out.length === 0)
    out.push(issue(predicates[1]!, `one predicate per check, not ${predicates.join(' and ')}`));
  if (subject === 'body' && Object.keys(check.body ?? {}).length !== 1)
    out.push(issue('body', '{ contains: <text> } or { matches: <pattern> }: one of them'));
  const equals = check.equals;
  if (subject !== 'json' && equals !== undefined && (equals === null || typeof equals === 'object'))
    out.push(issue('equals', `text (a ${subject} check compares the ${subject}'s text)`));
  return out;
}

/**
 * `checks`: named checks of one endpoint's response, each name once. A check's schema is built
 * when the first check is parsed.
 */
export const checksSchema = z
  .array(z.lazy(checkSchema), {
    error: `a list of checks, each a mapping with a name and ${FORMS}`,
  })
  .superRefine((checks, ctx) => {
    const seen = new Map<string, number>();
    checks.forEach((check, i) => {
      const first = seen.get(check.name);
      if (first === undefined) seen.set(check.name, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `a name no other check of this endpoint has (also checks[${first}])`,
          input: check.name,
          params: { code: 'invalid_value' },
        });
    });
  })
  .describe(
    'Named assertions on the response, counted in the checks metric: { name, status | json | header | css | body | duration, predicate }',
  );
