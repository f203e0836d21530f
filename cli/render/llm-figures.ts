/**
 * The LLM section of the reports (docs/reports.md, LLM endpoints), in one shape for the text,
 * Markdown and HTML reports: the llm_* trends as rows, the tokens, output tokens per second of
 * the run (output tokens / its duration, benchmark_serving's "output token throughput") and
 * goodput with its good requests per second. Absent when no request of an LLM endpoint ended.
 */
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import { formatMs, formatShare } from './report-figures.js';

/** One timing row: its label, its summary (undefined when it got no sample). */
export type LlmRow = readonly [label: string, summary: LatencySummary | undefined];

/** What the section shows. */
export interface LlmSection {
  readonly rows: readonly LlmRow[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Each request's output tokens per second (LLMPerf's request output throughput). */
  readonly perRequest: LatencySummary | undefined;
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
    perRequest: llm.request_output_tokens_per_sec,
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

/** The head of the table of scenarios side by side (a level of a sweep each). */
export const BY_SCENARIO_HEAD = [
  'scenario',
  'req/s',
  'TTFT p50 ms',
  'ITL p50 ms',
  'TPOT p50 ms',
  'E2E p50 ms',
  'output tokens/s',
  'goodput',
];

/**
 * The LLM figures of each scenario that had LLM requests, side by side (a concurrency or rate
 * sweep as a scenario per level, docs/llm.md); undefined with fewer than two such scenarios.
 */
export function llmByScenario(r: RunResult): string[][] | undefined {
  const rows = Object.entries(r.scenarios ?? {}).flatMap(([name, s]) => {
    const section = llmSection(s);
    if (section === undefined) return [];
    const p50 = (i: number): string => formatMs(section.rows[i]![1]?.p50);
    const good = section.goodput;
    return [
      [
        name,
        s.requests_per_sec.toFixed(2),
        p50(0),
        p50(1),
        p50(2),
        p50(3),
        formatPerSecond(section.outputPerSecond),
        good === undefined ? 'n/a' : formatShare(good.count, good.total),
      ],
    ];
  });
  return rows.length < 2 ? undefined : rows;
}
