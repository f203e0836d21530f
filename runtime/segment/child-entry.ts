/**
 * Child-process entry of a scripted segment (child-host.ts): gets its SegmentStart as the first
 * IPC message; the first segment runs the scenario's setup() and sends its data with `ready`;
 * on `go` it runs runSegment, sends snapshots, script errors and console lines; the first
 * segment then runs teardown(); it sends the outcome, and exits. Like
 * cli/bin.ts it is an entry point, so it may touch `process` (and so may its orphan-watch.ts).
 */
import { Worker } from 'node:worker_threads';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { systemClock } from '../schedule/clock.js';
import { runScenarioSetup, runScenarioTeardown } from './scenario-hooks.js';
import type { HostToSegment, SegmentStart, SegmentToHost } from './protocol.js';
import { runSegment } from './run-segment.js';
import { segmentError } from './segment-error.js';
import { SharedDataReceiver } from './shared-data-transfer.js';

const stop = new AbortController();
const hardStop = new AbortController();
let go: () => void = () => undefined;
const started = new Promise<void>((resolve) => (go = resolve));
let setupData: unknown;
const received = new SharedDataReceiver();

function send(message: SegmentToHost): void {
  if (process.connected) process.send?.(message);
}

/** Sends the last message, then exits once it is written. */
function finish(message: SegmentToHost): void {
  if (!process.connected) process.exit(1);
  process.send?.(message, () => process.exit(0));
}

async function begin(start: SegmentStart): Promise<void> {
  const { spec } = start;
  const script = spec.plan.script;
  const onConsole = (line: string): void => send({ type: 'console', line });
  const onHttpDebug = (record: ExchangeRecord): void => send({ type: 'http-debug', record });
  const hooks = { clock: systemClock, hardStop: hardStop.signal, onConsole, onHttpDebug };
  if (script !== undefined && spec.thread === 0) {
    const setup = await runScenarioSetup(spec.plan, script, hooks);
    if (!setup.ok)
      return finish({ type: 'failed', failure: { code: 'setup_failed', message: setup.message } });
    setupData = setup.data;
  }
  send({ type: 'ready', setup: setupData });
  const outcome = await runSegment(spec, systemClock, {
    stop: stop.signal,
    hardStop: hardStop.signal,
    onSnapshot: (snapshot, live) => send({ type: 'snapshot', snapshot, live }),
    snapshotEveryMs: start.snapshotEveryMs,
    ready: () => started,
    setupData: () => setupData,
    onScriptError: (text) => send({ type: 'script-error', text }),
    onConsole,
    onHttpDebug,
  });
  // After the load, stopped or not (a hard stop skips it): the first segment runs teardown().
  if (script !== undefined && spec.thread === 0) {
    const teardown = await runScenarioTeardown(spec.plan, script, hooks, setupData);
    if (!teardown.ok) send({ type: 'script-error', text: teardown.message });
  }
  finish({ type: 'done', outcome });
}

process.on('message', (message: HostToSegment) => {
  if (message.type === 'data') received.add(message);
  else if (message.type === 'start') {
    const start = { ...message.start, spec: received.complete(message.start.spec) };
    begin(start).catch((error: unknown) =>
      // A bug in the segment: the host reports it and the run fails with what was collected.
      finish({ type: 'failed', failure: segmentError(error) }),
    );
  } else if (message.type === 'go') {
    // The first segment's own data stays as it is; the others get the copy it sent.
    if (setupData === undefined) setupData = message.setup;
    go();
  } else if (message.type === 'stop') {
    stop.abort();
    go();
  } else hardStop.abort();
});
// The parent is gone: nobody will read the results.
process.on('disconnect', () => process.exit(1));
// The parent may be gone while this thread is busy, or without a word (orphan-watch.ts).
new Worker(new URL('./orphan-watch.js', import.meta.url), { workerData: process.ppid }).unref();
// Ctrl+C (and a terminal's hang-up) reaches the whole process group: the parent decides (stop,
// then hard stop) and tells this child over IPC, so the signal itself must not end it.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('SIGHUP', () => undefined);
