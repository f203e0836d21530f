/** An endpoint's `llm:`: an LLM inference API's token layout and goodput SLOs (docs/llm.md). */
import * as z from 'zod';
import { duration, nonEmpty } from './fields.js';
import { singularSteps } from '../../model/json-path/singular-path.js';
import { LLM_APIS } from '../../model/plan/llm-plan.js';

const API_ERROR = `one of ${LLM_APIS.join(', ')}`;

/** A singular JSONPath (names and indices only): read from every event of a stream. */
function singularPath(what: string) {
  return z
    .string({ error: `a JSONPath of names and indices such as $.usage.prompt_tokens (${what})` })
    .superRefine((value, ctx) => {
      const steps = singularSteps(value);
      if (typeof steps === 'string')
        ctx.addIssue({
          code: 'custom',
          message: `${steps} (${what})`,
          input: value,
          params: { code: 'invalid_jsonpath' },
        });
    });
}

/** Goodput's SLOs: a request is good when it meets every one given. */
function goodputSchema() {
  return z
    .strictObject(
      {
        ttft: duration('time to first token SLO').optional(),
        tpot: duration('time per output token SLO').optional(),
        e2e: duration('end-to-end latency SLO').optional(),
      },
      { error: 'goodput SLOs: { ttft, tpot, e2e }, durations such as 500ms' },
    )
    .refine((slo) => Object.values(slo).some((v) => v !== undefined), {
      error: 'at least one of ttft, tpot, e2e',
    })
    .describe('Service-level objectives: llm_goodput is the share of requests that meet them all');
}

const FORMS = `${API_ERROR}, or { api, output, input_tokens, output_tokens, end, goodput }`;

/** An issue of a union's branch, as zod 4 lists them by branch. */
interface BranchIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A mapping's own problem, under its key (`goodput.ttft: a duration…`), else the forms `llm:`
 * takes: a mapping can only be the layout, so what is wrong inside it is what to say.
 */
function unionError(issue: { readonly input?: unknown; readonly errors?: unknown }): string {
  if (typeof issue.input !== 'object' || issue.input === null) return FORMS;
  const branches = (issue.errors ?? []) as readonly (readonly BranchIssue[])[];
  const inner = branches[1]?.[0];
  if (inner === undefined) return FORMS;
  const key = inner.path.map(String).join('.');
  return key === '' ? inner.message : `${key}: ${inner.message}`;
}

/** `llm:` as a preset's name, or a layout of paths (over a preset, or alone). */
export function llmSchema() {
  const api = z.enum(LLM_APIS, { error: API_ERROR });
  return z
    .union(
      [
        api,
        z.strictObject({
          api: api.optional().describe('The preset layout the paths below override'),
          output: singularPath('where an event carries output text').optional(),
          input_tokens: singularPath('where the usage counts input tokens').optional(),
          output_tokens: singularPath('where the usage counts output tokens').optional(),
          end: nonEmpty('the data or event name that ends the stream').optional(),
          goodput: goodputSchema().optional(),
        }),
      ],
      { error: unionError },
    )
    .describe(
      'An LLM inference endpoint: its tokens timed and counted (llm_* metrics), with or without stream: sse (docs/llm.md)',
    );
}
