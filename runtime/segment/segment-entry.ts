/**
 * Worker-thread entry of a segment: runs runSegment for the spec it was started with, sends a
 * cumulative snapshot every tick and its outcome at the end, and obeys stop / hard-stop.
 */
import { segmentError } from './segment-error.js';
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../schedule/clock.js';
import type { HostToSegment, SegmentStart, SegmentToHost } from './protocol.js';
import { runSegment } from './run-segment.js';

const port = parentPort;
if (port === null) throw new Error('segment-entry runs only in a worker thread');
const start = workerData as SegmentStart;
const stop = new AbortController();
const hardStop = new AbortController();
const send = (message: SegmentToHost): void => port.postMessage(message);
let go: () => void = () => undefined;
const started = new Promise<void>((resolve) => (go = resolve));

port.on('message', (message: HostToSegment) => {
  if (message.type === 'go') go();
  else if (message.type === 'stop') {
    stop.abort();
    go();
  } else if (message.type === 'hard-stop') hardStop.abort();
});
send({ type: 'ready' });

try {
  const outcome = await runSegment(start.spec, systemClock, {
    stop: stop.signal,
    hardStop: hardStop.signal,
    onSnapshot: (snapshot, live) => send({ type: 'snapshot', snapshot, live }),
    snapshotEveryMs: start.snapshotEveryMs,
    ready: () => started,
    onHttpDebug: (record) => send({ type: 'http-debug', record }),
  });
  send({ type: 'done', outcome });
} catch (error) {
  // A bug in the segment: the host reports it and the run fails with what was collected.
  send({ type: 'failed', failure: segmentError(error) });
} finally {
  port.close();
}
