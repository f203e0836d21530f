/**
 * Worker-thread entry of a segment: runs runSegment for the spec it was started with, sends a
 * cumulative snapshot every tick and its outcome at the end, and obeys stop / hard-stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../deps.js';
import type { HostToSegment, SegmentStart, SegmentToHost } from './protocol.js';
import { runSegment } from './run-segment.js';

const port = parentPort;
if (port === null) throw new Error('segment-entry runs only in a worker thread');
const start = workerData as SegmentStart;
const stop = new AbortController();
const hardStop = new AbortController();
const send = (message: SegmentToHost): void => port.postMessage(message);

port.on('message', (message: HostToSegment) => {
  if (message.type === 'stop') stop.abort();
  else hardStop.abort();
});

try {
  const outcome = await runSegment(start.spec, systemClock, {
    stop: stop.signal,
    hardStop: hardStop.signal,
    onSnapshot: (snapshot) => send({ type: 'snapshot', snapshot }),
    snapshotEveryMs: start.snapshotEveryMs,
  });
  send({ type: 'done', outcome });
} catch (error) {
  // A bug in the segment: the host reports it and the run fails with what was collected.
  send({
    type: 'failed',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
} finally {
  port.close();
}
