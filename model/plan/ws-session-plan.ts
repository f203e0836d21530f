/**
 * A WebSocket endpoint's session as the runtime walks it (docs/configuration.md, WebSocket
 * endpoints): its steps, each frame selector compiled, text templated.
 */
import type { ExtractorPlan } from './endpoint-plan.js';
import type { Template } from './template.js';

/** One WebSocket message: text (templated) or bytes. */
export type WsMessagePlan =
  | { readonly kind: 'text'; readonly text: Template }
  | { readonly kind: 'binary'; readonly bytes: Uint8Array };

/**
 * Which frame a step takes: the first (`any`), one whose text a regular expression finds a match
 * in, or one whose JSON holds a value at a path (`path` as written, `evaluatorPath` as
 * jsonpath-plus reads it) that exists, equals a value (a text value is a template, rendered when
 * the step begins) or whose text a regular expression matches.
 */
export type FrameMatchPlan =
  | { readonly kind: 'any' }
  | { readonly kind: 'regex'; readonly pattern: string }
  | {
      readonly kind: 'json';
      readonly path: string;
      readonly evaluatorPath: string;
      readonly test:
        | { readonly op: 'exists' }
        | { readonly op: 'equals'; readonly value: unknown }
        | { readonly op: 'equalsText'; readonly text: Template }
        | { readonly op: 'matches'; readonly pattern: string };
    };

/** One step of a session. */
export type WsStepPlan =
  | {
      readonly kind: 'send';
      readonly message: WsMessagePlan;
      /** The reply awaited; undefined when the step waits for none. */
      readonly reply: FrameMatchPlan | undefined;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | {
      readonly kind: 'receive';
      readonly match: FrameMatchPlan;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | { readonly kind: 'listen'; readonly durationMs: number; readonly match: FrameMatchPlan }
  | { readonly kind: 'pause'; readonly durationMs: number };

/** The WebSocket part of an endpoint whose url is ws:// or wss://. */
export interface WsPlan {
  readonly steps: readonly WsStepPlan[];
  readonly subprotocols: readonly string[];
}

/**
 * The steps `messages` is shorthand for: each message sent and answered by the first frame after
 * it, then `intervalMs` of pause (when above 0), the last one included.
 */
export function messageSteps(
  messages: readonly WsMessagePlan[],
  intervalMs: number,
  timeoutMs: number,
): WsStepPlan[] {
  return messages.flatMap((message): WsStepPlan[] => {
    const send: WsStepPlan = {
      kind: 'send',
      message,
      reply: { kind: 'any' },
      timeoutMs,
      extract: [],
    };
    return intervalMs > 0 ? [send, { kind: 'pause', durationMs: intervalMs }] : [send];
  });
}

/** How a step is named in reports: "step 2 (receive)", 1-based. */
export function stepLabel(steps: readonly WsStepPlan[], index: number): string {
  return `step ${index + 1} (${steps[index]!.kind})`;
}
