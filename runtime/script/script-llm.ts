/**
 * A scenario call's `llm` option (scenarios/barrage.d.ts, LlmOptions; docs/llm.md): a preset's
 * name, or `{ api, output, inputTokens, outputTokens, end, goodput: { ttft, tpot, e2e } }` (ms).
 * Anything else throws where the call was made, saying what it may be. Each distinct option is
 * compiled once: a scenario repeats its calls.
 */
import {
  compileLlm,
  isLlmFault,
  LLM_APIS,
  type GoodputSlo,
  type LlmApi,
  type LlmPlan,
} from '../../model/plan/llm-plan.js';

/** Options compiled, by their JSON text (a scenario has few distinct ones; bounded anyway). */
const compiled = new Map<string, LlmPlan>();
const MAX_COMPILED = 100;

const SHAPE = `'${LLM_APIS.join("', '")}' or { api, output, inputTokens, outputTokens, end, goodput }`;

/** The plan of a call's `llm` option; undefined without one. */
export function llmOf(given: unknown): LlmPlan | undefined {
  if (given === undefined || given === null) return undefined;
  const key = JSON.stringify(given);
  const known = compiled.get(key);
  if (known !== undefined) return known;
  const plan = compileGiven(given);
  if (compiled.size < MAX_COMPILED) compiled.set(key, plan);
  return plan;
}

function compileGiven(given: unknown): LlmPlan {
  const options = typeof given === 'string' ? { api: given } : given;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new Error(`llm: expected ${SHAPE}; got ${JSON.stringify(given)}`);
  const o = options as Record<string, unknown>;
  const api = o['api'];
  if (api !== undefined && !(LLM_APIS as readonly unknown[]).includes(api))
    throw new Error(`llm: api: expected one of ${LLM_APIS.join(', ')}; got ${JSON.stringify(api)}`);
  const plan = compileLlm({
    api: api as LlmApi | undefined,
    output: text(o, 'output'),
    inputTokens: text(o, 'inputTokens'),
    outputTokens: text(o, 'outputTokens'),
    end: text(o, 'end'),
    goodput: goodputOf(o['goodput']),
  });
  if (isLlmFault(plan)) {
    const where = plan.query === '' ? '' : ` ${JSON.stringify(plan.query)}`;
    throw new Error(`llm: ${plan.key}${where}: ${plan.problem}`);
  }
  return plan;
}

/** An option that must be a non-empty string when given. */
function text(o: Record<string, unknown>, key: string): string | undefined {
  const value = o[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw new Error(`llm: ${key}: expected a non-empty string; got ${JSON.stringify(value)}`);
  return value;
}

/** `goodput`: SLOs in ms, each a positive number when given. */
function goodputOf(given: unknown): GoodputSlo | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== 'object' || given === null)
    throw new Error(
      `llm: goodput: expected { ttft, tpot, e2e } in ms; got ${JSON.stringify(given)}`,
    );
  const g = given as Record<string, unknown>;
  const ms = (key: string): number | undefined => {
    const value = g[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !(value > 0))
      throw new Error(`llm: goodput.${key}: expected ms > 0; got ${JSON.stringify(value)}`);
    return value;
  };
  return { ttftMs: ms('ttft'), tpotMs: ms('tpot'), e2eMs: ms('e2e') };
}
