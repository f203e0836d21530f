/**
 * An LLM inference endpoint (docs/llm.md): which events of its stream carry output tokens, where
 * its usage (input and output token counts) is, what ends the stream, and the SLOs of goodput.
 * A preset names the layout of a known API; a custom layout gives the paths itself. The paths are
 * singular JSONPath queries (model/json-path/singular-path.ts), compiled to steps.
 */
import { singularSteps, type PathStep } from '../json-path/singular-path.js';

/** The APIs barrage knows the stream and response layout of. */
export const LLM_APIS = ['openai-chat', 'openai-completions', 'anthropic-messages'] as const;

/** One of LLM_APIS. */
export type LlmApi = (typeof LLM_APIS)[number];

/** A layout as the user writes it: RFC 9535 queries, and the end marker. */
export interface LlmLayout {
  /** Where an event's (or a response's) output text is: a non-empty string there is output. */
  readonly output: string;
  /** Where input (prompt) token counts are, tried in order on each event or response. */
  readonly inputTokens: readonly string[];
  /** Where output (completion) token counts are, tried in order. */
  readonly outputTokens: readonly string[];
  /** An event whose data, or whose event name, is this ends the stream; undefined: its end. */
  readonly end: string | undefined;
}

/** The known APIs' layouts (their streamed events, and their whole responses). */
export const LLM_PRESETS: Readonly<Record<LlmApi, LlmLayout>> = Object.freeze({
  'openai-chat': {
    output: '$.choices[0].delta.content',
    inputTokens: ['$.usage.prompt_tokens'],
    outputTokens: ['$.usage.completion_tokens'],
    end: '[DONE]',
  },
  'openai-completions': {
    output: '$.choices[0].text',
    inputTokens: ['$.usage.prompt_tokens'],
    outputTokens: ['$.usage.completion_tokens'],
    end: '[DONE]',
  },
  'anthropic-messages': {
    output: '$.delta.text',
    inputTokens: ['$.usage.input_tokens', '$.message.usage.input_tokens'],
    outputTokens: ['$.usage.output_tokens'],
    end: 'message_stop',
  },
});

/** The output of a whole (not streamed) response, where it differs from a stream event's. */
export const LLM_WHOLE_OUTPUT: Readonly<Record<LlmApi, string>> = Object.freeze({
  'openai-chat': '$.choices[0].message.content',
  'openai-completions': '$.choices[0].text',
  'anthropic-messages': '$.content[0].text',
});

/** Service-level objectives of goodput, in ms; a request meets those given. */
export interface GoodputSlo {
  readonly ttftMs: number | undefined;
  readonly tpotMs: number | undefined;
  readonly e2eMs: number | undefined;
}

/** An LLM endpoint's layout, compiled. */
export interface LlmPlan {
  /** The preset the layout starts from; undefined for a layout of the user's own. */
  readonly api: LlmApi | undefined;
  /** The output of a streamed event. */
  readonly output: readonly PathStep[];
  /** The output of a whole response. */
  readonly wholeOutput: readonly PathStep[];
  readonly inputTokens: readonly (readonly PathStep[])[];
  readonly outputTokens: readonly (readonly PathStep[])[];
  readonly end: string | undefined;
  readonly goodput: GoodputSlo | undefined;
}

/** What the user gave: a preset, paths of their own over it (or alone), and goodput SLOs. */
export interface LlmOptions {
  readonly api: LlmApi | undefined;
  readonly output: string | undefined;
  readonly inputTokens: string | undefined;
  readonly outputTokens: string | undefined;
  readonly end: string | undefined;
  readonly goodput: GoodputSlo | undefined;
}

/** A path the options give that is no singular query: the key and why. */
export interface LlmPathFault {
  readonly key: 'output' | 'input_tokens' | 'output_tokens';
  readonly query: string;
  readonly problem: string;
}

/** The options compiled, or the first path that cannot be read. */
export function compileLlm(options: LlmOptions): LlmPlan | LlmPathFault {
  const preset = options.api === undefined ? undefined : LLM_PRESETS[options.api];
  const output = options.output ?? preset?.output;
  if (output === undefined)
    return { key: 'output', query: '', problem: 'output is needed without api' };
  const whole =
    options.output ?? (options.api === undefined ? output : LLM_WHOLE_OUTPUT[options.api]);
  const given: [LlmPathFault['key'], readonly string[]][] = [
    ['output', [output, whole]],
    [
      'input_tokens',
      options.inputTokens === undefined ? (preset?.inputTokens ?? []) : [options.inputTokens],
    ],
    [
      'output_tokens',
      options.outputTokens === undefined ? (preset?.outputTokens ?? []) : [options.outputTokens],
    ],
  ];
  const compiled: (readonly PathStep[])[][] = [];
  for (const [key, queries] of given) {
    const steps: (readonly PathStep[])[] = [];
    for (const query of queries) {
      const read = singularSteps(query);
      if (typeof read === 'string') return { key, query, problem: read };
      steps.push(read);
    }
    compiled.push(steps);
  }
  const [outputs, inputTokens, outputTokens] = compiled as [
    (readonly PathStep[])[],
    (readonly PathStep[])[],
    (readonly PathStep[])[],
  ];
  return {
    api: options.api,
    output: outputs[0]!,
    wholeOutput: outputs[1]!,
    inputTokens,
    outputTokens,
    end: options.end ?? preset?.end,
    goodput: options.goodput,
  };
}

/** True when `compiled` is a fault, not a plan. */
export function isLlmFault(compiled: LlmPlan | LlmPathFault): compiled is LlmPathFault {
  return 'problem' in compiled;
}
