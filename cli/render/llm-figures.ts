/**
 * The LLM section of the reports (docs/reports.md, LLM endpoints), in one shape for the text,
 * Markdown and HTML reports: the llm_* trends as rows, the tokens, output tokens per second of
 * the run (output tokens / its duration, benchmark_serving's "output token throughput") and
 * goodput with its good requests per second. Absent when no request of an LLM endpoint ended.
 */
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';

/** One timing row: its label, its summary (undefined when it got no sample). */
export type LlmRow = readonly [label: string, summary: LatencySummary | undefined];

/** What the section shows. */
export interface LlmSection {
  readonly rows: readonly LlmRow[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Output tokens per second of the run; undefined for a run of no duration. */
  readonly outputPerSecond: number | undefined;
  /** Requests that met the SLOs, of all, and good ones per second; undefined without SLOs. */
  readonly goodput:
    | { readonly count: number; readonly total: number; readonly perSecond: number | undefined }
    | undefined;
}

/** The section of a run's result; undefined when it had no LLM request. */
export function llmSection(r: RunResult): LlmSection | undefined {
  const llm = r.llm;
  if (llm === undefined) return undefined;
  const seconds = r.duration_ms / 1000;
  const perSecond = (n: number): number | undefined => (seconds > 0 ? n / seconds : undefined);
  return {
    rows: [
      ['time to first token (TTFT)', llm.time_to_first_token_ms],
      ['inter-token latency (ITL)', llm.inter_token_latency_ms],
      ['time per output token (TPOT)', llm.time_per_output_token_ms],
      ['end-to-end latency', llm.request_duration_ms],
    ],
    inputTokens: llm.input_tokens,
    outputTokens: llm.output_tokens,
    outputPerSecond: perSecond(llm.output_tokens),
    goodput:
      llm.goodput.total === 0
        ? undefined
        : {
            count: llm.goodput.count,
            total: llm.goodput.total,
            perSecond: perSecond(llm.goodput.count),
          },
  };
}

/** A rate per second with two decimals; `n/a` of a run of no duration. */
export function formatPerSecond(value: number | undefined): string {
  return value === undefined ? 'n/a' : value.toFixed(2);
}
