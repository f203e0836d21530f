/**
 * Drives the live outputs of a run (docs/outputs.md): every period it turns the latest merged
 * snapshot into series (metric-series.ts), their points since the last flush (flush-window.ts),
 * and each sink's payload, which joins that sink's queue. Each sink sends one payload at a time,
 * each send bounded by SEND_TIMEOUT_MS. The load never waits for a receiver:
 *
 *   queue full (MAX_QUEUED payloads)   the oldest payload is dropped, its samples counted
 *   a send refused, failed or late     the payload is lost, counted; the first one is a warning
 *   the run ends                       one last flush of the final snapshot, then at most
 *                                      FINAL_WAIT_MS for the queues to drain; what is left counts
 *                                      as dropped
 *
 * Cumulative receivers (Prometheus, OpenTelemetry) lose little with a payload, since the next one
 * carries the totals again; a lost payload of a delta receiver (InfluxDB, the JSON stream) is a
 * gap in its period.
 */
import type { CustomMetric, Tags } from '../../model/metrics/metric-registry.js';
import type { OutputKind } from '../../model/plan/output-plan.js';
import type { SampleTable } from '../metrics/sample-select.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { FlushWindow } from './flush-window.js';
import { metricSeries } from './metric-series.js';
import { thresholdSeries } from './threshold-series.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import type { OutputSink, Payload } from './output-sink.js';

/** Payloads a sink keeps waiting while one is sent. */
export const MAX_QUEUED = 4;
/** Longest a send may take. */
export const SEND_TIMEOUT_MS = 10_000;
/** Longest the end of the run waits for the outputs to drain. */
export const FINAL_WAIT_MS = 10_000;

/** What an output did over the run. */
export interface OutputStats {
  readonly kind: OutputKind;
  readonly target: string;
  /** Payloads sent and taken. */
  readonly sent: number;
  /** Payloads refused, failed or late, and the last reason. */
  readonly failed: number;
  readonly lastError: string | undefined;
  /** Samples sent and taken; samples lost (failed, dropped from a full queue, left at the end). */
  readonly samplesSent: number;
  readonly samplesLost: number;
}

/** What the runner needs of the run. */
export interface OutputRunnerDeps {
  /** Wall clock, epoch ms. */
  readonly wallMs: () => number;
  /** The names and tags samples carry (cli/endpoint-table.ts). */
  readonly table: (snapshot: ShardSnapshot) => SampleTable;
  readonly metrics: Readonly<Record<string, CustomMetric>>;
  /** The run's thresholds, sent as live series (threshold-series.ts). */
  readonly thresholds: readonly ThresholdSpec[];
  /** Tags every series carries besides its own (testid, segment). */
  readonly tags: Tags;
  /** A line for the user (a receiver's first failure). */
  readonly warn: (text: string) => void;
}

/** One sink and its queue. */
class Lane {
  readonly #sink: OutputSink;
  readonly #warn: (text: string) => void;
  readonly #queue: Payload[] = [];
  #sending: Promise<void> | undefined;
  #stop = new AbortController();
  #sent = 0;
  #failed = 0;
  #lastError: string | undefined;
  #samplesSent = 0;
  #samplesLost = 0;

  constructor(sink: OutputSink, warn: (text: string) => void) {
    this.#sink = sink;
    this.#warn = warn;
  }

  get sink(): OutputSink {
    return this.#sink;
  }

  push(payload: Payload): void {
    this.#queue.push(payload);
    if (this.#queue.length > MAX_QUEUED) this.#samplesLost += this.#queue.shift()!.samples;
    this.#pump();
  }

  /** Resolves once the queue is empty, or `signal` gives up on it: what is left is lost. */
  async drain(signal: AbortSignal): Promise<void> {
    const given = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    while (this.#sending !== undefined && !signal.aborted)
      await Promise.race([this.#sending, given]);
    if (signal.aborted) this.#stop.abort();
    for (const left of this.#queue.splice(0)) this.#samplesLost += left.samples;
    await this.#sending;
    await this.#sink.close().catch((error: unknown) => this.#fail(error));
  }

  stats(): OutputStats {
    return {
      kind: this.#sink.kind,
      target: this.#sink.target,
      sent: this.#sent,
      failed: this.#failed,
      lastError: this.#lastError,
      samplesSent: this.#samplesSent,
      samplesLost: this.#samplesLost,
    };
  }

  #pump(): void {
    if (this.#sending !== undefined) return;
    const payload = this.#queue.shift();
    if (payload === undefined) return;
    const signal = AbortSignal.any([this.#stop.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]);
    this.#sending = this.#sink.send(payload, signal).then(
      () => {
        this.#sent++;
        this.#samplesSent += payload.samples;
      },
      (error: unknown) => {
        this.#samplesLost += payload.samples;
        this.#fail(
          this.#stop.signal.aborted
            ? 'still unanswered when the run stopped waiting for its outputs'
            : signal.aborted
              ? `no answer within ${SEND_TIMEOUT_MS / 1000} s`
              : error,
        );
      },
    );
    void this.#sending.then(() => {
      this.#sending = undefined;
      this.#pump();
    });
  }

  #fail(error: unknown): void {
    this.#failed++;
    this.#lastError = error instanceof Error ? error.message : String(error);
    if (this.#failed === 1)
      this.#warn(
        `output ${this.#sink.kind} ${this.#sink.target}: ${this.#lastError}; the run goes on, and the lost samples are counted`,
      );
  }
}

/** The live outputs of one run. */
export class OutputRunner {
  readonly #lanes: Lane[];
  readonly #deps: OutputRunnerDeps;
  readonly #window = new FlushWindow();
  readonly #timer: NodeJS.Timeout;
  #latest: ShardSnapshot | undefined;

  constructor(sinks: readonly OutputSink[], periodMs: number, deps: OutputRunnerDeps) {
    this.#lanes = sinks.map((sink) => new Lane(sink, deps.warn));
    this.#deps = deps;
    this.#timer = setInterval(() => this.#flush(), periodMs);
    // The run's end is awaited for other reasons; the flush timer alone keeps nothing alive.
    this.#timer.unref();
  }

  /** The latest merged snapshot of the run (every live tick). */
  update(snapshot: ShardSnapshot): void {
    this.#latest = snapshot;
  }

  /** Stops the period and flushes the run's final snapshot. */
  end(final: ShardSnapshot): void {
    clearInterval(this.#timer);
    this.#latest = final;
    this.#flush();
  }

  /**
   * Waits for the queues to drain, at most FINAL_WAIT_MS or until `stop` aborts (a second
   * Ctrl+C); returns what each output did.
   */
  async drain(stop: AbortSignal): Promise<OutputStats[]> {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(FINAL_WAIT_MS)]);
    await Promise.all(this.#lanes.map((lane) => lane.drain(signal)));
    return this.#lanes.map((lane) => lane.stats());
  }

  /** A flush of the latest snapshot: a failure to read it is a warning, never the run's end. */
  #flush(): void {
    try {
      this.#flushLatest();
    } catch (error) {
      this.#deps.warn(
        `outputs: a flush failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  #flushLatest(): void {
    const snapshot = this.#latest;
    if (snapshot === undefined) return;
    const extra = this.#deps.tags;
    const table = this.#deps.table(snapshot);
    const series = [
      ...metricSeries(snapshot, table, this.#deps.metrics),
      ...thresholdSeries(this.#deps.thresholds, snapshot, table),
    ].map((s) => ({ ...s, tags: { ...s.tags, ...extra } }));
    const flush = {
      points: this.#window.next(series),
      timeMs: this.#deps.wallMs(),
      startedAt: snapshot.startedAt,
    };
    for (const lane of this.#lanes) {
      const payload = lane.sink.encode(flush);
      if (payload !== undefined) lane.push(payload);
    }
  }
}
