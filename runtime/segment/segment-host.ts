/**
 * Main-thread side of a segment that runs in a worker thread: starts it and relays go, stop and
 * hard stop; segment-link.ts reads what it sends.
 */
import { Worker } from 'node:worker_threads';
import { PROTOCOL_VERSION, type HostToSegment, type SegmentStart } from './protocol.js';
import { SegmentLink, type SegmentEvents } from './segment-link.js';
import type { SegmentSpec } from '../split/segment-spec.js';

/**
 * The worker's entry: the built file next to this one (dist/ is flat: scripts/bundle.mjs). When this module itself runs from the
 * TypeScript sources (the test suite, through tsx), the worker still loads the built entry:
 * loader hooks such as tsx's do not reach worker threads, and `npm test` builds first.
 */
const ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/segment-entry.js', import.meta.url)
  : new URL('./segment-entry.js', import.meta.url);

/** One running segment thread. */
export class SegmentHost extends SegmentLink {
  readonly #worker: Worker;

  constructor(spec: SegmentSpec, snapshotEveryMs: number, events: SegmentEvents) {
    const start: SegmentStart = { version: PROTOCOL_VERSION, spec, snapshotEveryMs };
    const worker = new Worker(ENTRY, { workerData: start });
    super(worker, `segment thread ${spec.thread + 1} of ${spec.threads}`, events);
    this.#worker = worker;
  }

  /** Sends a control message. */
  send(message: HostToSegment): void {
    this.#worker.postMessage(message);
  }
}
