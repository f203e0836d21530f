/**
 * An LLM endpoint's request is over: its figures as vLLM's benchmark_serving and GenAI-Perf define
 * them (docs/llm.md). Times run from the final exchange's send, less the connection it opened, as
 * http_req_waiting and sse_time_to_first_event:
 *   TTFT  = first output-bearing event − send
 *   E2E   = end marker (else the response's end) − send
 *   TPOT  = (E2E − TTFT) / (output tokens − 1), of a request with two output tokens or more
 *   output tokens = the usage's count, else the output-bearing events
 *   output tokens/s of the request = output tokens / E2E (LLMPerf's request output throughput)
 *   good  = every SLO given is met (TPOT taken as 0 with one token, as benchmark_serving does)
 * A failed request records none of them, but is not good.
 */
import type { LlmPlan } from '../../model/plan/llm-plan.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import type { Recorder } from '../metrics/recorder.js';
import type { InFlight } from './in-flight.js';

/** Records a request of an LLM endpoint: its figures when `ok`, its goodput either way. */
export function recordLlm(flight: InFlight, plan: LlmPlan, ok: boolean, recorder: Recorder): void {
  const slo = plan.goodput;
  if (!ok) {
    if (slo !== undefined) recorder.recordRate(FIGURE.llm_goodput, flight.index, false);
    return;
  }
  const { vu, llm } = flight;
  const exchange = vu.exchange;
  if (!exchange.streamed) llm.whole(exchange.body() ?? '');
  const endUs = llm.endUs >= 0 ? llm.endUs : flight.endUs;
  const e2eUs = Math.max(0, endUs - flight.sendUs - setUpUs(flight));
  const ttftUs = firstTokenUs(flight);
  const tokens = llm.outputTokens >= 0 ? llm.outputTokens : llm.outputs;
  const tpotUs = ttftUs >= 0 && tokens > 1 ? Math.round((e2eUs - ttftUs) / (tokens - 1)) : -1;
  const at = flight.index;
  // The request and its tokens count in the second it ended, as its request does.
  recorder.recordTrend(FIGURE.llm_request_duration, at, e2eUs, flight.endUs);
  if (ttftUs >= 0) recorder.recordTrend(FIGURE.llm_time_to_first_token, at, ttftUs);
  if (tpotUs >= 0) recorder.recordTrend(FIGURE.llm_time_per_output_token, at, tpotUs);
  // tokens/s × 1000, as the trend keeps values of unit none (a custom trend's convention).
  if (tokens > 0 && e2eUs > 0)
    recorder.recordTrend(FIGURE.llm_request_output_throughput, at, (tokens * 1e9) / e2eUs);
  if (llm.inputTokens >= 0) recorder.recordCount(FIGURE.llm_input_tokens, at, llm.inputTokens);
  recorder.recordCount(FIGURE.llm_output_tokens, at, tokens, flight.endUs);
  if (slo === undefined) return;
  const good =
    within(ttftUs, slo.ttftMs) &&
    within(Math.max(0, tpotUs), slo.tpotMs) &&
    within(e2eUs, slo.e2eMs);
  recorder.recordRate(FIGURE.llm_goodput, at, good);
}

/** The connection set-up of the final exchange (0 on a kept-alive connection), µs. */
function setUpUs(flight: InFlight): number {
  return Math.max(0, flight.vu.connectUs) + Math.max(0, flight.vu.tlsUs);
}

/** The final exchange's time to its first output-bearing event, µs; -1 when none came. */
export function firstTokenUs(flight: InFlight): number {
  const first = flight.llm.firstUs;
  return first < 0 ? -1 : Math.max(0, first - flight.sendUs - setUpUs(flight));
}

/** True when there is no SLO, or the figure (µs; -1: not measured) meets it. */
function within(us: number, sloMs: number | undefined): boolean {
  return sloMs === undefined || (us >= 0 && us <= sloMs * 1000);
}
