/**
 * Parent side of a scripted segment, which runs in a child process (DESIGN.md §9: an isolate out
 * of memory can abort its whole process, so it must not be ours). Same protocol as the worker
 * threads (protocol.ts), over IPC with structured clone: the SegmentStart goes as the first
 * message, then ready/go, snapshots, script errors and the outcome. The child is started with
 * --no-node-snapshot, which isolated-vm needs on Node ≥ 20. A child that exits without an outcome
 * (killed, aborted by V8 out of memory) is reported as lost, with its last snapshot. The child
 * runs a scenario's code, so it must not outlive this process: kill() ends it when this process
 * exits (execute.ts), and it ends itself when this process is gone (child-entry.ts). It is
 * started with only the part of barrage's environment it needs (child-env.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION, type HostToSegment } from './protocol.js';
import { SegmentLink, type SegmentEvents } from './segment-link.js';
import type { SegmentSpec } from '../split/segment-spec.js';
import { DATA_FD, splitSharedData } from './shared-data-transfer.js';
import { childEnvironment } from './child-env.js';

/**
 * The child's entry: the built file, next to this one in the flat dist/ (tests run sources through
 * tsx; `npm test` builds first).
 */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/child-entry.js', import.meta.url)
    : new URL('./child-entry.js', import.meta.url),
);

/**
 * The spec with the feeder table on ordinary buffers: IPC cannot carry a SharedArrayBuffer (V8's
 * serializer refuses it across processes), so each child gets its own copy of the table.
 */
function unshared(spec: SegmentSpec): SegmentSpec {
  const feeder = spec.plan.feeder;
  if (feeder === undefined) return spec;
  const { records } = feeder;
  const copy = {
    ...records,
    bytes: new Uint8Array(records.bytes),
    ends: new Uint32Array(records.ends),
    kinds: records.kinds === undefined ? undefined : new Uint8Array(records.kinds),
  };
  return { ...spec, plan: { ...spec.plan, feeder: { ...feeder, records: copy } } };
}

/** One running segment child process. */
export class ChildHost extends SegmentLink {
  readonly #child: ChildProcess;

  constructor(
    spec: SegmentSpec,
    snapshotEveryMs: number,
    events: SegmentEvents,
    execPath: string | undefined,
    env: Readonly<Record<string, string | undefined>>,
  ) {
    const split = splitSharedData(unshared(spec));
    const child = fork(ENTRY, [], {
      ...(execPath === undefined ? {} : { execPath }),
      env: childEnvironment(env),
      // --no-node-snapshot: isolated-vm needs it on Node ≥ 20. --single-threaded: V8 compiles and
      // collects garbage on the segment's own thread. A segment is sized to one core, and V8's
      // background threads only competed with it: on one core, 10 % more scripted requests/s and
      // a third lower p99 (docs/scenarios.md#performance). The child sets one more V8 flag itself
      // (child-entry.ts).
      execArgv: ['--no-node-snapshot', '--single-threaded'],
      serialization: 'advanced',
      // fd 4 (DATA_FD): the shared data's bytes, when the scenario opens data files.
      stdio: [
        'ignore',
        'inherit',
        'inherit',
        'ipc',
        ...(split.bytes.length > 0 ? ['pipe' as const] : []),
      ],
    });
    super(
      child,
      `scripted segment ${spec.thread + 1} of ${spec.threads} (a child process)`,
      events,
    );
    this.#child = child;
    for (const part of split.parts) this.send(part);
    const start = { version: PROTOCOL_VERSION, spec: split.spec, snapshotEveryMs } as const;
    this.send({ type: 'start', start });
    const pipe = child.stdio[DATA_FD];
    if (pipe !== null && pipe !== undefined && 'write' in pipe) {
      // A child that dies before reading it all closes the pipe: its exit reports the segment.
      pipe.on('error', () => undefined);
      for (const bytes of split.bytes) pipe.write(bytes);
      pipe.end();
    }
  }

  /** Kills the child at once (SIGKILL), unless it has exited. */
  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null)
      this.#child.kill('SIGKILL');
  }

  /** Sends a control message (ignored once the child is gone). */
  send(message: HostToSegment): void {
    if (this.#child.connected) this.#child.send(message);
  }
}
