/**
 * The dashboard's LLM line (docs/llm.md): time to first token p50 and p95 so far, and output
 * tokens per second of the run so far, when the run has LLM endpoints and one of their requests
 * ended. Read from the live snapshot's run figures, once a frame.
 */
import { summarizeEncoded } from '../../runtime/metrics/histogram.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { Section } from './screen-sections.js';
import { fit, span } from './styled-line.js';

/** What the line shows. */
export interface LlmLive {
  readonly ttftP50Ms: number | undefined;
  readonly ttftP95Ms: number | undefined;
  readonly outputTokens: number;
  readonly outputPerSecond: number;
}

/** The live LLM figures of a snapshot; undefined before an LLM request ended. */
export function llmLive(snapshot: ShardSnapshot | undefined): LlmLive | undefined {
  const tokens = snapshot?.llmOutputTokens;
  if (snapshot === undefined || tokens === undefined) return undefined;
  const ttft = summarizeEncoded(snapshot.llmFirstToken ?? '');
  const seconds = snapshot.elapsedMs / 1000;
  return {
    ttftP50Ms: ttft?.p50,
    ttftP95Ms: ttft?.p95,
    outputTokens: tokens,
    outputPerSecond: seconds > 0 ? tokens / seconds : 0,
  };
}

const ms = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(2));

/** The section of one line: `LLM  TTFT p50 38.94 ms  p95 71.42 ms  ·  35 output tokens, 71.9/s`. */
export function llmSection(live: LlmLive, width: number): Section {
  const text = `TTFT p50 ${ms(live.ttftP50Ms)} ms  p95 ${ms(live.ttftP95Ms)} ms  ·  ${live.outputTokens} output tokens, ${live.outputPerSecond.toFixed(1)}/s`;
  return {
    priority: 1,
    head: [[span('LLM', 'bold')]],
    body: () => [[span(fit(text, width))]],
    size: 1,
  };
}
