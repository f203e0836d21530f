/**
 * A Socket.IO endpoint's session as the runtime walks it (docs/socketio.md): where it connects
 * (namespace, engine path, transports, the auth payload and the handshake query) and its steps,
 * each event's data and each match compiled, text templated.
 */
import type { ExtractorPlan } from './endpoint-plan.js';
import type { Template } from './template.js';
import type { FrameMatchPlan } from './ws-session-plan.js';

/** An Engine.IO transport the client may use, in the order it tries them. */
export type SocketioTransport = 'websocket' | 'polling';

/**
 * One step of a session. A match reads the event's first argument (an ack's first argument) as
 * JSON, as a WebSocket match reads a frame's text.
 */
export type SocketioStepPlan =
  | {
      readonly kind: 'emit';
      readonly event: string;
      /** The event's argument as JSON text (placeholders JSON-encoded); undefined: none. */
      readonly data: Template | undefined;
      /** The acknowledgement awaited; undefined when the emit asks for none. */
      readonly ack: FrameMatchPlan | undefined;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | {
      readonly kind: 'receive';
      readonly event: string;
      readonly match: FrameMatchPlan;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | {
      readonly kind: 'listen';
      readonly durationMs: number;
      /** The event listened for; undefined: every event. */
      readonly event: string | undefined;
      readonly match: FrameMatchPlan;
    }
  | { readonly kind: 'pause'; readonly durationMs: number };

/** The Socket.IO part of an endpoint with a `socketio:` key. */
export interface SocketioPlan {
  /** The namespace joined, starting with "/". */
  readonly namespace: string;
  /** The Engine.IO path on the server ("/socket.io"). */
  readonly path: string;
  readonly transports: readonly SocketioTransport[];
  /** The auth payload (the handshake's `auth`) as JSON text of a mapping; undefined: none. */
  readonly auth: Template | undefined;
  /** Handshake query parameters, each value templated. */
  readonly query: readonly { readonly name: string; readonly value: Template }[];
  readonly steps: readonly SocketioStepPlan[];
}

/** How a step is named in reports: "step 2 (receive welcome)", 1-based. */
export function socketioStepLabel(steps: readonly SocketioStepPlan[], index: number): string {
  const step = steps[index]!;
  const event = step.kind === 'pause' ? undefined : step.event;
  return `step ${index + 1} (${step.kind}${event === undefined ? '' : ` ${event}`})`;
}
