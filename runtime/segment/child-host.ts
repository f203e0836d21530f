/**
 * Parent side of a scripted segment, which runs in a child process (DESIGN.md §9: an isolate out
 * of memory can abort its whole process, so it must not be ours). Same protocol as the worker
 * threads (protocol.ts), over IPC with structured clone: the SegmentStart goes as the first
 * message, then ready/go, snapshots, script errors and the outcome. The child is started with
 * --no-node-snapshot, which isolated-vm needs on Node ≥ 20. A child that exits without an outcome
 * (killed, aborted by V8 out of memory) is reported as lost, with its last snapshot.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { LiveState } from './live-state.js';
import { PROTOCOL_VERSION, type HostToSegment, type SegmentToHost } from './protocol.js';
import type { SegmentOutcome } from './run-segment.js';
import type { SegmentSpec } from './segment-spec.js';

/** The child's entry: the built file (tests run sources through tsx; `npm test` builds first). */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/runtime/segment/child-entry.js', import.meta.url)
    : new URL('./child-entry.js', import.meta.url),
);

/** What a child reports besides snapshots. */
export interface ChildEvents {
  readonly onSnapshot: () => void;
  readonly onScriptError: (text: string) => void;
}

/** One running segment child process. */
export class ChildHost {
  readonly #child: ChildProcess;
  #latest: ShardSnapshot | undefined;
  #live: LiveState | undefined;
  #setup: unknown;
  /** Resolves when the child is ready to dispatch (or is lost before that). */
  readonly ready: Promise<void>;
  readonly outcome: Promise<
    SegmentOutcome | { readonly lost: string; readonly snapshot: ShardSnapshot | undefined }
  >;

  constructor(
    spec: SegmentSpec,
    snapshotEveryMs: number,
    events: ChildEvents,
    execPath: string | undefined,
  ) {
    this.#child = fork(ENTRY, [], {
      ...(execPath === undefined ? {} : { execPath }),
      execArgv: ['--no-node-snapshot'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let onReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (onReady = resolve));
    this.outcome = new Promise((resolve) => {
      let settled = false;
      const lost = (why: string): void => {
        onReady();
        if (settled) return;
        settled = true;
        resolve({
          lost: `scripted segment ${spec.thread + 1} of ${spec.threads} (a child process) was lost: ${why}`,
          snapshot: this.#latest,
        });
      };
      this.#child.on('message', (message: SegmentToHost) => {
        if (message.type === 'ready') {
          this.#setup = message.setup;
          onReady();
        } else if (message.type === 'snapshot') {
          this.#latest = message.snapshot;
          this.#live = message.live;
          events.onSnapshot();
        } else if (message.type === 'script-error') events.onScriptError(message.text);
        else if (message.type === 'done') {
          settled = true;
          this.#latest = message.outcome.snapshot;
          resolve(message.outcome);
        } else lost(message.message);
      });
      this.#child.on('error', (error) => lost(error.message));
      this.#child.on('exit', (code, signal) =>
        lost(signal === null ? `exited with code ${code}` : `killed by ${signal}`),
      );
    });
    this.send({ type: 'start', start: { version: PROTOCOL_VERSION, spec, snapshotEveryMs } });
  }

  /** The live state sent with the most recent snapshot, if any arrived. */
  get live(): LiveState | undefined {
    return this.#live;
  }

  /** The most recent cumulative snapshot, if any arrived. */
  get latest(): ShardSnapshot | undefined {
    return this.#latest;
  }

  /** setup()'s data, when this child ran it (the first segment). */
  get setup(): unknown {
    return this.#setup;
  }

  /** Sends a control message (ignored once the child is gone). */
  send(message: HostToSegment): void {
    if (this.#child.connected) this.#child.send(message);
  }
}
