/**
 * What an LLM endpoint's response says of its tokens (docs/llm.md): of a stream, its events that
 * carry output (the first times TTFT, each next one a gap of ITL, told to the listener at once),
 * the end marker, and the usage, read from the event that holds it (the last event that has a
 * count, not the stream's last event); of a whole response, its usage. One reader per virtual
 * user's request path, reset for each attempt.
 */
import { readSteps, type PathStep } from '../../model/json-path/singular-path.js';
import type { LlmPlan } from '../../model/plan/llm-plan.js';

/** Where the gaps between output-bearing events go (µs). */
export type TokenGap = (gapUs: number) => void;

/** One response's token figures. */
export class LlmReader {
  #plan: LlmPlan | undefined = undefined;
  /** When the first output-bearing event came (µs, the exchange's clock); -1 before it. */
  firstUs = -1;
  /** When the last one came; -1 before the first. */
  lastUs = -1;
  /** Output-bearing events (of a whole response: 1 when it has output). */
  outputs = 0;
  /** Token counts the usage gave; -1 when it gave none. */
  inputTokens = -1;
  outputTokens = -1;
  /** When the end marker came; -1 when it did not (the response's end stands for it). */
  endUs = -1;
  /** The data of the last event that held usage, what extractors and checks read; else undefined. */
  usageData: string | undefined = undefined;

  constructor(private readonly gap: TokenGap) {}

  /** Readies the reader for a response of an endpoint with `plan`. */
  reset(plan: LlmPlan): void {
    this.#plan = plan;
    this.firstUs = -1;
    this.lastUs = -1;
    this.outputs = 0;
    this.inputTokens = -1;
    this.outputTokens = -1;
    this.endUs = -1;
    this.usageData = undefined;
  }

  /** A stream's event (its name and data) came at `atUs`. */
  event(type: string, data: string, atUs: number): void {
    const plan = this.#plan!;
    if (this.endUs >= 0) return;
    if (plan.end !== undefined && (data === plan.end || type === plan.end)) {
      this.endUs = atUs;
      return;
    }
    const value = parsed(data);
    if (value === undefined) return;
    if (isOutput(readSteps(value, plan.output))) {
      if (this.lastUs >= 0) this.gap(atUs - this.lastUs);
      else this.firstUs = atUs;
      this.lastUs = atUs;
      this.outputs++;
    }
    if (this.#usage(value)) this.usageData = data;
  }

  /** A whole (not streamed) response's body. */
  whole(body: string): void {
    const value = parsed(body);
    if (value === undefined) return;
    if (isOutput(readSteps(value, this.#plan!.wholeOutput))) this.outputs = 1;
    this.#usage(value);
  }

  /** Reads the token counts a value holds; true when it held one. */
  #usage(value: unknown): boolean {
    const input = firstCount(value, this.#plan!.inputTokens);
    const output = firstCount(value, this.#plan!.outputTokens);
    if (input >= 0) this.inputTokens = input;
    if (output >= 0) this.outputTokens = output;
    return input >= 0 || output >= 0;
  }
}

/** A non-empty string is output (an empty delta, a role chunk's absent content is none). */
function isOutput(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

/** The first count (a non-negative integer) at one of the paths; -1 when none has one. */
function firstCount(value: unknown, paths: readonly (readonly PathStep[])[]): number {
  for (const path of paths) {
    const count = readSteps(value, path);
    if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) return count;
  }
  return -1;
}

/** Text parsed as JSON, undefined when it is not JSON (a `[DONE]`, a keep-alive). */
function parsed(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
