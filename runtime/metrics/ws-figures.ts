/**
 * The WebSocket counters and histograms of a metrics shard, kept once for the run and once for
 * each ws:// endpoint (recorder.ts records into both).
 */
import { CachedHistogram } from './histogram.js';
import type { WsSnapshot } from './snapshot.js';

/** Sessions, data frames and their times, in µs; created on the first WebSocket event. */
export class WsFigures {
  sessions = 0;
  failures = 0;
  msgsSent = 0;
  msgsReceived = 0;
  msgsTaken = 0;
  listenMsgs = 0;
  listenUs = 0;
  /** Failed sessions by cause and step (run-wide figures only). */
  readonly stepFailures = new Map<string, number>();
  readonly connecting = new CachedHistogram();
  readonly rtt = new CachedHistogram();
  readonly session = new CachedHistogram();

  /** One session: connectUs < 0 when it never opened; the duration at its histogram index. */
  addSession(ok: boolean, connectUs: number, index: number, sessionUs: number): void {
    this.sessions++;
    if (!ok) this.failures++;
    if (connectUs >= 0) this.connecting.recordMicros(connectUs);
    this.session.record(index, sessionUs);
  }

  /** A data frame sent (true) or received. */
  addMessage(sent: boolean): void {
    if (sent) this.msgsSent++;
    else this.msgsReceived++;
  }

  /** Frames a step took; `listenUs` > 0 when they were taken by a listen that long. */
  addTaken(frames: number, listenUs: number): void {
    this.msgsTaken += frames;
    if (listenUs <= 0) return;
    this.listenMsgs += frames;
    this.listenUs += listenUs;
  }

  /** The figures as plain data. */
  snapshot(): WsSnapshot {
    return {
      sessions: this.sessions,
      failures: this.failures,
      msgsSent: this.msgsSent,
      msgsReceived: this.msgsReceived,
      msgsTaken: this.msgsTaken,
      listenMsgs: this.listenMsgs,
      listenUs: this.listenUs,
      stepFailures: Object.fromEntries(this.stepFailures),
      connecting: this.connecting.encode(),
      rtt: this.rtt.encode(),
      session: this.session.encode(),
    };
  }
}
