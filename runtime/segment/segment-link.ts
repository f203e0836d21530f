/**
 * The main side of a segment that runs elsewhere (a worker thread or a child process): reads its
 * messages (protocol.ts), keeps its latest snapshot and live state, and resolves with its outcome.
 * A segment that dies without an outcome is reported as lost: the run fails, with the figures its
 * last snapshot carried. Subclasses start the segment and carry control messages to it.
 */
import type { RunFailure, RunFailureCode } from '../../model/errors/run-failure.js';
import type { EventEmitter } from 'node:events';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { LiveState } from './live-state.js';
import type { HostToSegment, SegmentToHost } from './protocol.js';
import type { SegmentOutcome } from './run-segment.js';

/** What a segment's messages are relayed to. */
export interface SegmentEvents {
  readonly onSnapshot: () => void;
  /** A TypeScript scenario's error, once per distinct error (scripted segments only). */
  readonly onScriptError?: (text: string) => void;
  /** A line of a TypeScript scenario's console (rate-limited by the segment). */
  readonly onConsole?: (line: string) => void;
  /** A record of the HTTP debug log. */
  readonly onHttpDebug?: (record: ExchangeRecord) => void;
}

/** How a segment ended: its outcome, or lost with the last snapshot it sent. */
export type LinkOutcome =
  SegmentOutcome | { readonly lost: RunFailure; readonly snapshot: ShardSnapshot | undefined };

/** One running segment, seen from the main thread. */
export abstract class SegmentLink {
  #latest: ShardSnapshot | undefined;
  #live: LiveState | undefined;
  #setup: unknown;
  /** Resolves when the segment is ready to dispatch (or is lost before that). */
  readonly ready: Promise<void>;
  readonly outcome: Promise<LinkOutcome>;

  /** `channel` emits the segment's messages, `error` and `exit`; `name` says which one it is. */
  constructor(channel: EventEmitter, name: string, events: SegmentEvents) {
    let onReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (onReady = resolve));
    this.outcome = new Promise((resolve) => {
      let settled = false;
      const lost = (why: string, code: RunFailureCode = 'segment_lost'): void => {
        onReady();
        if (settled) return;
        settled = true;
        resolve({ lost: { code, message: `${name} was lost: ${why}` }, snapshot: this.#latest });
      };
      channel.on('message', (message: SegmentToHost) => {
        switch (message.type) {
          case 'ready':
            this.#setup = message.setup;
            onReady();
            break;
          case 'snapshot':
            this.#latest = message.snapshot;
            this.#live = message.live;
            events.onSnapshot();
            break;
          case 'script-error':
            events.onScriptError?.(message.text);
            break;
          case 'console':
            events.onConsole?.(message.line);
            break;
          case 'http-debug':
            events.onHttpDebug?.(message.record);
            break;
          case 'done':
            settled = true;
            this.#latest = message.outcome.snapshot;
            resolve(message.outcome);
            break;
          case 'failed':
            lost(message.failure.message, message.failure.code);
        }
      });
      channel.on('error', (error: Error) => lost(error.message));
      channel.on('exit', (code: number | null, signal?: NodeJS.Signals | null) =>
        lost(signal == null ? `exited with code ${code}` : `killed by ${signal}`),
      );
    });
  }

  /** The most recent cumulative snapshot, if any arrived. */
  get latest(): ShardSnapshot | undefined {
    return this.#latest;
  }

  /** The live state sent with the most recent snapshot, if any arrived. */
  get live(): LiveState | undefined {
    return this.#live;
  }

  /** setup()'s data, when this segment ran a scenario's setup() (the first scripted segment). */
  get setup(): unknown {
    return this.#setup;
  }

  /** Sends a control message. */
  abstract send(message: HostToSegment): void;
}
