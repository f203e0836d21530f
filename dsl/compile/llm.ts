/** An endpoint's `llm:` (validated) → its LlmPlan (docs/llm.md). */
import type { Config } from '../schema/config-schema.js';
import { compileLlm, isLlmFault, type LlmPlan } from '../../model/plan/llm-plan.js';

type LlmConfig = NonNullable<Config['endpoints']>[number]['llm'];

/** The plan of an endpoint's `llm:`; undefined without one. */
export function llmPlan(llm: LlmConfig): LlmPlan | undefined {
  if (llm === undefined) return undefined;
  const options = typeof llm === 'string' ? { api: llm } : llm;
  const goodput = typeof llm === 'string' ? undefined : llm.goodput;
  const compiled = compileLlm({
    api: options.api,
    output: 'output' in options ? options.output : undefined,
    inputTokens: 'input_tokens' in options ? options.input_tokens : undefined,
    outputTokens: 'output_tokens' in options ? options.output_tokens : undefined,
    end: 'end' in options ? options.end : undefined,
    goodput:
      goodput === undefined
        ? undefined
        : { ttftMs: goodput.ttft, tpotMs: goodput.tpot, e2eMs: goodput.e2e },
  });
  // Validation checked every path and that an output is given.
  if (isLlmFault(compiled)) throw new Error(`bug: llm: ${compiled.key}: ${compiled.problem}`);
  return compiled;
}
