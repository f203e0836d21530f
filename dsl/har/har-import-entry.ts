/**
 * Worker-thread entry of a HAR import (har-import-thread.ts starts it): reads, converts and
 * (for `barrage har`) writes as YAML the recording its workerData names, and posts the result back. The main thread
 * stays free meanwhile, so Ctrl+C ends a minutes-long import of a 50 MiB recording at once
 * (bin.ts exits 130 on a signal nobody else handles). An entry point, like the segments'.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { importedHar, type HarJob } from './har-import-thread.js';

parentPort!.postMessage(importedHar(workerData as HarJob));
