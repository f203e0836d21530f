/**
 * Main-thread side of a segment that runs in a worker thread: starts it, relays stop and hard
 * stop, keeps its latest snapshot, and resolves with its outcome. A thread that dies without an
 * outcome is reported as lost: the run fails, with the figures its last snapshot carried.
 */
import { Worker } from 'node:worker_threads';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { LiveState } from './live-state.js';
import {
  PROTOCOL_VERSION,
  type HostToSegment,
  type SegmentStart,
  type SegmentToHost,
} from './protocol.js';
import type { SegmentOutcome } from './run-segment.js';
import type { SegmentSpec } from './segment-spec.js';

/**
 * The worker's entry: the built file next to this one. When this module itself runs from the
 * TypeScript sources (the test suite, through tsx), the worker still loads the built entry:
 * loader hooks such as tsx's do not reach worker threads, and `npm test` builds first.
 */
const ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/runtime/segment/segment-entry.js', import.meta.url)
  : new URL('./segment-entry.js', import.meta.url);

/** One running segment thread. */
export class SegmentHost {
  readonly #worker: Worker;
  #latest: ShardSnapshot | undefined;
  #live: LiveState | undefined;
  /** Resolves when the thread is ready to dispatch (or is lost before that). */
  readonly ready: Promise<void>;
  readonly outcome: Promise<
    SegmentOutcome | { readonly lost: string; readonly snapshot: ShardSnapshot | undefined }
  >;

  constructor(spec: SegmentSpec, snapshotEveryMs: number, onSnapshot: () => void) {
    const start: SegmentStart = { version: PROTOCOL_VERSION, spec, snapshotEveryMs };
    this.#worker = new Worker(ENTRY, { workerData: start });
    let onReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (onReady = resolve));
    this.outcome = new Promise((resolve) => {
      let settled = false;
      const lost = (why: string): void => {
        onReady();
        if (settled) return;
        settled = true;
        resolve({
          lost: `segment thread ${spec.thread + 1} of ${spec.threads} was lost: ${why}`,
          snapshot: this.#latest,
        });
      };
      this.#worker.on('message', (message: SegmentToHost) => {
        if (message.type === 'ready') onReady();
        else if (message.type === 'snapshot') {
          this.#latest = message.snapshot;
          this.#live = message.live;
          onSnapshot();
        } else if (message.type === 'done') {
          settled = true;
          this.#latest = message.outcome.snapshot;
          resolve(message.outcome);
        } else if (message.type === 'failed') lost(message.message);
      });
      this.#worker.on('error', (error) => lost(error.message));
      this.#worker.on('exit', (code) => lost(`exited with code ${code}`));
    });
  }

  /** The live state sent with the most recent snapshot, if any arrived. */
  get live(): LiveState | undefined {
    return this.#live;
  }

  /** The most recent cumulative snapshot, if any arrived. */
  get latest(): ShardSnapshot | undefined {
    return this.#latest;
  }

  /** Sends a control message. */
  send(message: HostToSegment): void {
    this.#worker.postMessage(message);
  }
}
