/**
 * The metrics shard of one segment. Workers call record*() once per event; snapshot() turns what
 * was recorded so far into a ShardSnapshot (cumulative, plain data) for live views and the end.
 *
 * Hot path (recordRequest): no allocation. Counters are plain fields; status codes go to a
 * Float64Array indexed by status (≈ 3 ns a count, measured, against ≈ 15 ns for a Map); the
 * counter index of the latency is computed once and shared by the run, endpoint and second
 * histograms (≈ 20 ns a value instead of ≈ 100 ns through recordValue()). Measured (bench/
 * metrics.bench.ts): 45–55 ns a recordRequest() call (closed model), 53–68 ns (open model, one
 * more histogram); no garbage collection over 5 million calls.
 *
 * Per-second figures go to the second of each completion (second-series.ts), whose memory grows
 * by one small bucket a second, never per request.
 *
 * Definitions: service latency = endUs − startUs; intended latency = endUs − intendedUs (open
 * model, when the permit had an intended time); waiting (time to first byte) = headersUs − sendUs
 * of the last hop, for requests that got headers; elapsedMs = elapsedUs / 1000 as passed to
 * snapshot() (run-segment passes the time after in-flight requests finished). The waiting value
 * shares the latency's path: its index is computed once for the run's and the endpoint's
 * histograms, each created on the first value.
 *
 * A WebSocket session is one request of its endpoint (spec §1.3: a permit is one request through
 * the protocol client): it counts in requests, successes, failures, error kinds, status codes
 * (the handshake's: 101, or the refusal's) and the per-second series. Its duration goes to its
 * endpoint's latency histogram but not to the run's, which stays HTTP service time; the
 * WebSocket histograms and counters are kept for the run and for each endpoint.
 */
import { MAX_ENDPOINTS_BY_SECOND } from './endpoint-seconds.js';
import type { SegmentRef } from '../../model/plan/plan.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { CachedHistogram, clampMicros, indexOfMicros } from './histogram.js';
import { CheckCounts } from './check-counts.js';
import type { AuthSnapshot, ShardSnapshot } from './snapshot.js';
import {
  FIGURE,
  SECOND_SLOT_OF_COUNTER,
  SECOND_SLOT_OF_TREND,
} from '../../model/metrics/metric-figures.js';
import type { MetricKind, Tags } from '../../model/metrics/metric-registry.js';
import type { StreamKind } from '../../model/plan/endpoint-plan.js';
import { CustomSeries } from './custom-series.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { FigureSet } from './figure-set.js';
import { SampleFailures } from './sample-failures.js';
import { ActiveSpanTracker } from './active-span.js';
import { SecondSeries, type SecondBucket } from './second-series.js';
import { WsFigures } from './ws-figures.js';
import { EndpointFigures, errorCounts, statusCounts } from './endpoint-figures.js';

/** Distinct causes of unsent requests kept apart (a feeder of typos must not grow the report). */
export const MAX_CAUSES = 50;

/** What a Recorder needs to know about its shard. */
export interface RecorderOptions {
  readonly endpointCount: number;
  readonly segment: SegmentRef;
  /** Wall-clock time dispatch began, epoch ms. */
  readonly startedAt: number;
  /** True when permits have intended times (a rate is set): the intended histogram is kept. */
  readonly openModel: boolean;
}

/** Token fetch counters, created on the first fetch. */
class AuthFigures {
  fetches = 0;
  failures = 0;
  readonly latency = new CachedHistogram();
}

/** No tags: a check counted by its name only. */
const NO_TAGS: Tags = Object.freeze({});
/** A session that moved no bytes besides its messages'. */
const NO_BYTES = Object.freeze({ bytesIn: 0, bytesOut: 0 });

/** The figures of each kind of stream: time to its first piece, the gaps, the pieces. */
const STREAM_FIGURES = {
  sse: {
    first: FIGURE.sse_time_to_first_event,
    gap: FIGURE.sse_event_gap,
    count: FIGURE.sse_events,
  },
  chunks: {
    first: FIGURE.stream_time_to_first_chunk,
    gap: FIGURE.stream_chunk_gap,
    count: FIGURE.stream_chunks,
  },
} as const satisfies Record<StreamKind, Readonly<Record<'first' | 'gap' | 'count', number>>>;

/** The recorder's `endpoint` argument for a figure of the run alone (a run trend or counter). */
export const RUN_ONLY = -1;

/** Records one shard's requests, sessions, checks and token fetches; snapshots them on demand. */
export class Recorder {
  readonly #segment: SegmentRef;
  readonly #startedAt: number;
  readonly #openModel: boolean;
  readonly #endpoints: EndpointFigures[];
  /** Names and tags of endpoints added while running (TypeScript scenarios); else undefined. */
  #names: string[] | undefined;
  #tags: Tags[] | undefined;
  readonly #latency = new CachedHistogram();
  readonly #intended = new CachedHistogram();
  /** The figure families' figures of the run (its endpoints' summed, and its own). */
  readonly #figures = new FigureSet();
  #vusMax = 0;
  /** Active virtual users by second: the most sampled in it. */
  readonly #vus = new Map<number, number>();
  #iterations = 0;
  #requests = 0;
  #successes = 0;
  #failures = 0;
  #late = 0;
  #dropped = 0;
  #retries = 0;
  #redirects = 0;
  #bytesDecoded = 0;
  readonly #unsent = new Map<string, number>();
  readonly #iterationErrors = new Map<string, number>();
  #bytesIn = 0;
  #bytesOut = 0;
  #interrupted = false;
  #ws: WsFigures | undefined;
  #auth: AuthFigures | undefined;
  #checks: CheckCounts | undefined;
  /** Checks by name and tags, by their canonical key; and by the tags objects met, by name. */
  readonly #seconds = new SecondSeries();
  readonly #active = new ActiveSpanTracker();
  readonly #custom = new CustomSeries();
  readonly #samples = new SampleFailures();
  #foldedNames = 0;

  constructor(options: RecorderOptions) {
    this.#segment = options.segment;
    this.#startedAt = options.startedAt;
    this.#openModel = options.openModel;
    this.#endpoints = Array.from({ length: options.endpointCount }, () => new EndpointFigures());
  }

  /**
   * One request on the wire (an attempt, or a redirect's hop) that got a response or an error;
   * times in µs since dispatch start. `intendedUs` (-1: none) is the logical request's intended
   * time, given with its final exchange; `waitingUs` its time to first byte, -1 when no headers
   * came; `step` tells a retry's or a redirect hop's (endpoint-figures.ts RETRY_STEP, REDIRECT_STEP).
   */
  recordRequest(
    endpoint: number,
    status: number,
    kind: ErrorKind | undefined,
    startUs: number,
    endUs: number,
    intendedUs: number,
    bytesIn: number,
    bytesOut: number,
    waitingUs = -1,
    step = 0,
  ): void {
    const figures = this.#endpoints[endpoint]!;
    const bucket = this.#seconds.at(endUs);
    this.#count(figures, bucket, kind);
    this.#active.within(startUs, endUs);
    if (status > 0) figures.countStatus(status);
    this.#bytesIn += bytesIn;
    this.#bytesOut += bytesOut;
    bucket.bytesIn += bytesIn;
    const value = clampMicros(endUs - startUs);
    const index = indexOfMicros(value);
    this.#latency.record(index, value);
    figures.recordOutcome(status, kind, index, value, step);
    if (endpoint < MAX_ENDPOINTS_BY_SECOND)
      figures.seconds.record(endUs, value, kind !== undefined);
    bucket.live!.record(index, value);
    if (this.#openModel && intendedUs >= 0) this.#intended.recordMicros(endUs - intendedUs);
    if (waitingUs >= 0) {
      const waiting = clampMicros(waitingUs);
      const at = indexOfMicros(waiting);
      this.#figures.trendAt(FIGURE.http_req_waiting, at, waiting);
      figures.figures.trendAt(FIGURE.http_req_waiting, at, waiting);
    }
  }

  /**
   * A sample of a trend of the figure families (model/metrics/metric-figures.ts: `figure` is
   * FIGURE.<metric>), µs: of `endpoint` and of the run, or of the run alone (RUN_ONLY). `endUs`
   * (µs since dispatch start, of the request's end) counts it in that second too, for a trend
   * kept second by second (FigureSpec.perSecond); -1: not counted by second.
   */
  recordTrend(figure: number, endpoint: number, us: number, endUs = -1): void {
    const value = clampMicros(us);
    const index = indexOfMicros(value);
    this.#figures.trendAt(figure, index, value);
    if (endpoint !== RUN_ONLY) this.#endpoints[endpoint]!.figures.trendAt(figure, index, value);
    if (endUs >= 0) this.#countSecond(SECOND_SLOT_OF_TREND[figure]!, endUs, 1);
  }

  /**
   * Adds `n` to a counter of the figure families: of `endpoint` and the run, or the run alone;
   * and to the second of `endUs` for a counter kept second by second (-1: not by second).
   */
  recordCount(figure: number, endpoint: number, n = 1, endUs = -1): void {
    this.#figures.count(figure, n);
    if (endpoint !== RUN_ONLY) this.#endpoints[endpoint]!.figures.count(figure, n);
    if (endUs >= 0) this.#countSecond(SECOND_SLOT_OF_COUNTER[figure]!, endUs, n);
  }

  #countSecond(slot: number, endUs: number, n: number): void {
    if (slot >= 0) this.#seconds.count(slot, endUs, n);
  }

  /** A sample of a rate of the figure families (true or false), of `endpoint` and the run. */
  recordRate(figure: number, endpoint: number, hit: boolean): void {
    this.#figures.rate(figure, hit);
    if (endpoint !== RUN_ONLY) this.#endpoints[endpoint]!.figures.rate(figure, hit);
  }

  /**
   * A request never sent (missing variable, invalid request, a url not allowed), by its kind and
   * where it came from (`{{user}} in endpoint login, body`): counted apart, never as a request.
   * The first MAX_CAUSES distinct causes are kept; later ones are counted together by kind.
   */
  recordUnsent(kind: ErrorKind, where: string): void {
    let cause = `${kind}: ${where}`;
    if (!this.#unsent.has(cause) && this.#unsent.size >= MAX_CAUSES)
      cause = `${kind}: (other causes)`;
    this.#unsent.set(cause, (this.#unsent.get(cause) ?? 0) + 1);
  }

  /** An iteration of a TypeScript scenario that failed (not a request). */
  recordIterationFailed(kind: ErrorKind): void {
    this.#iterationErrors.set(kind, (this.#iterationErrors.get(kind) ?? 0) + 1);
  }

  /**
   * Adds an endpoint discovered while running (a TypeScript scenario's request name and its own
   * tags); returns its index. Snapshots then carry the names and tags, since each segment
   * discovers them in its own order.
   */
  addEndpoint(name: string, tags: Tags = {}): number {
    (this.#names ??= []).push(name);
    (this.#tags ??= []).push(tags);
    this.#endpoints.push(new EndpointFigures());
    return this.#endpoints.length - 1;
  }

  /** A permit taken. */
  recordIteration(): void {
    this.#iterations++;
  }

  /**
   * A request of an endpoint opened a connection: µs of its TCP connect and of its TLS handshake
   * (-1: not TLS). Called only then, so a kept-alive connection costs the request path nothing.
   */
  recordConnection(endpoint: number, connectUs: number, tlsUs: number): void {
    this.recordTrend(FIGURE.http_req_connecting, endpoint, connectUs);
    if (tlsUs >= 0) this.recordTrend(FIGURE.http_req_tls_handshaking, endpoint, tlsUs);
  }

  /** A response of an endpoint came over a connection speaking `protocol` (a bit). */
  recordProtocol(endpoint: number, protocol: number): void {
    this.#endpoints[endpoint]!.protocols |= protocol;
  }

  /**
   * An event (sse) or a chunk (chunks) of an endpoint's stream: the stream's first when
   * `firstUs` >= 0 (µs from the send), else `gapUs` after the one before it.
   */
  recordStreamPiece(endpoint: number, kind: StreamKind, firstUs: number, gapUs: number): void {
    const stream = STREAM_FIGURES[kind];
    if (firstUs >= 0) this.recordTrend(stream.first, endpoint, firstUs);
    else this.recordTrend(stream.gap, endpoint, gapUs);
    this.recordCount(stream.count, endpoint);
  }

  /** A virtual user allocated (a worker started: it runs until its scenario ends). */
  recordVuStarted(): void {
    this.#vusMax++;
  }

  /** `active` virtual users running an iteration at `atUs` (the segment samples once a second). */
  sampleVus(atUs: number, active: number): void {
    const second = Math.max(0, Math.floor(atUs / 1e6));
    const prior = this.#vus.get(second);
    if (prior === undefined || active > prior) this.#vus.set(second, active);
  }

  /** A permit handed out after its intended time. */
  recordLate(): void {
    this.#late++;
  }

  /** Permits dropped after waiting longer than the timeout (default one). */
  recordDropped(count = 1): void {
    this.#dropped += count;
  }

  /** A redirect hop followed (one more request the target saw). */
  recordRedirect(): void {
    this.#redirects++;
  }

  /** A compressed response body decoded to `bytes`. */
  recordDecoded(bytes: number): void {
    this.#bytesDecoded += bytes;
  }

  /** An attempt that will be retried (not counted as a request). */
  recordRetry(): void {
    this.#retries++;
  }

  /**
   * A session of an endpoint (WebSocket, Socket.IO: docs/socketio.md), counted as one request of it
   * by outcome: `status` is its handshake's (0 when none came), `us` its duration, `bytes` what it
   * moved that its messages did not count; returns its duration's histogram index and value.
   */
  recordSession(
    endpoint: number,
    outcome: { readonly status: number; readonly kind: ErrorKind | undefined },
    us: number,
    endUs: number,
    bytes: { readonly bytesIn: number; readonly bytesOut: number } = NO_BYTES,
  ): [number, number] {
    const { status, kind } = outcome;
    const figures = this.#endpoints[endpoint]!;
    this.#count(figures, this.#seconds.at(endUs), kind);
    this.#active.within(endUs - us, endUs);
    if (status > 0) figures.countStatus(status);
    this.#bytesIn += bytes.bytesIn;
    this.#bytesOut += bytes.bytesOut;
    const value = clampMicros(us);
    const index = indexOfMicros(value);
    figures.recordOutcome(status, kind, index, value);
    return [index, value];
  }

  /**
   * A WebSocket session of an endpoint, counted as one request of it: `status` is the handshake's
   * (101, a refusal's status, 0 without a response), `connectUs` the handshake time (-1: never
   * opened), times in µs since dispatch start.
   */
  recordWsSession(
    endpoint: number,
    status: number,
    kind: ErrorKind | undefined,
    connectUs: number,
    startUs: number,
    endUs: number,
  ): void {
    const [index, value] = this.recordSession(endpoint, { status, kind }, endUs - startUs, endUs);
    const ok = kind === undefined;
    (this.#ws ??= new WsFigures()).addSession(ok, connectUs, index, value);
    (this.#endpoints[endpoint]!.ws ??= new WsFigures()).addSession(ok, connectUs, index, value);
  }

  /** A WebSocket message (a data frame) of an endpoint, sent (true) or received, and its size. */
  recordWsMessage(endpoint: number, sent: boolean, bytes: number): void {
    (this.#ws ??= new WsFigures()).addMessage(sent);
    (this.#endpoints[endpoint]!.ws ??= new WsFigures()).addMessage(sent);
    if (sent) this.#bytesOut += bytes;
    else this.#bytesIn += bytes;
  }

  /** A WebSocket round trip of an endpoint (message sent → its response), in µs. */
  recordWsRtt(endpoint: number, us: number): void {
    const value = clampMicros(us);
    const index = indexOfMicros(value);
    (this.#ws ??= new WsFigures()).rtt.record(index, value);
    (this.#endpoints[endpoint]!.ws ??= new WsFigures()).rtt.record(index, value);
  }

  /** Frames a WebSocket session's wait took (a reply, a receive). */
  recordWsTaken(endpoint: number, frames: number): void {
    (this.#ws ??= new WsFigures()).addTaken(frames, 0);
    (this.#endpoints[endpoint]!.ws ??= new WsFigures()).addTaken(frames, 0);
  }

  /** A listen step over: the frames it took in `us` of listening. */
  recordWsListen(endpoint: number, frames: number, us: number): void {
    (this.#ws ??= new WsFigures()).addTaken(frames, us);
    (this.#endpoints[endpoint]!.ws ??= new WsFigures()).addTaken(frames, us);
  }

  /**
   * A WebSocket session failed at a step (`where`: "in endpoint chat, step 2 (receive)"). The
   * first MAX_CAUSES distinct causes are kept; later ones are counted together by kind.
   */
  recordWsStepFailure(kind: ErrorKind, where: string): void {
    const failures = (this.#ws ??= new WsFigures()).stepFailures;
    let cause = `${kind} ${where}`;
    if (!failures.has(cause) && failures.size >= MAX_CAUSES) cause = `${kind} (other steps)`;
    failures.set(cause, (failures.get(cause) ?? 0) + 1);
  }

  /**
   * One check, of a TypeScript scenario or an endpoint's `checks` (allocates only for a name seen
   * the first time). Past MAX_NAMES names, a new one is counted under OTHER_NAME. With tags (an
   * endpoint's name, a scenario's group and call tags), it is also counted under its name and
   * tags, MAX_NAMES such series at most; the same tags object is looked up without a key.
   */
  recordCheck(name: string, pass: boolean, tags: Tags = NO_TAGS): void {
    (this.#checks ??= new CheckCounts()).add(name, pass, tags === NO_TAGS ? undefined : tags);
  }

  /**
   * A sample of a custom metric (a scenario's add(), an endpoint's extractor) with its tags, at
   * `atUs` µs since dispatch start (a gauge keeps the latest value across merges by it).
   */
  recordCustom(name: string, kind: MetricKind, value: number, tags: Tags, atUs: number): void {
    this.#custom.add(name, kind, value, tags, this.#startedAt + atUs / 1000);
  }

  /** A value an endpoint's extractor read for a custom metric that is not a sample of it. */
  recordCustomRejected(name: string, kind: MetricKind): void {
    this.#custom.reject(name, kind);
  }

  /** Distinct request names counted under OTHER_NAME so far (the reports warn). */
  recordFoldedNames(count: number): void {
    this.#foldedNames = count;
  }

  /** A token fetch of the auth provider and how long it took, in µs. */
  recordAuthFetch(ok: boolean, us: number): void {
    const auth = (this.#auth ??= new AuthFigures());
    auth.fetches++;
    if (!ok) auth.failures++;
    auth.latency.recordMicros(us);
  }

  /**
   * True when a failed request of `endpoint` with `kind` would be kept as a sample failure
   * (sample-failures.ts); asked for failed requests only.
   */
  wantsSample(endpoint: number, kind: ErrorKind): boolean {
    return this.#samples.wants(endpoint, kind);
  }

  /** Keeps the record of a failure wantsSample() took. */
  keepSample(endpoint: number, kind: ErrorKind, record: ExchangeRecord): void {
    this.#samples.keep(endpoint, kind, record);
  }

  /** The run was cut short (SIGINT/SIGTERM). */
  markInterrupted(): void {
    this.#interrupted = true;
  }

  /** Everything recorded so far; seconds before floor(elapsedUs / 1e6) are final. */
  snapshot(elapsedUs: number): ShardSnapshot {
    return {
      version: 1,
      segments: [this.#segment],
      startedAt: this.#startedAt,
      elapsedMs: elapsedUs / 1000,
      ...this.#active.snapshot(),
      iterations: this.#iterations,
      requests: this.#requests,
      successes: this.#successes,
      failures: this.#failures,
      late: this.#late,
      dropped: this.#dropped,
      retries: this.#retries,
      redirects: this.#redirects,
      bytesDecoded: this.#bytesDecoded,
      bytesIn: this.#bytesIn,
      bytesOut: this.#bytesOut,
      statusCodes: statusCounts(this.#endpoints),
      errors: errorCounts(this.#endpoints),
      unsent: Object.fromEntries(this.#unsent),
      iterationErrors: Object.fromEntries(this.#iterationErrors),
      latency: this.#latency.encode(),
      intended: this.#openModel ? this.#intended.encode() : '',
      ...this.#figures.fields('run'),
      vusMax: this.#vusMax,
      ...(this.#vus.size === 0
        ? {}
        : {
            vus: [...this.#vus]
              .sort(([a], [b]) => a - b)
              .map(([second, active]) => ({ second, active })),
          }),
      endpoints: this.#endpoints.map((e) => e.snapshot()),
      ...(this.#names === undefined
        ? {}
        : { endpointNames: [...this.#names], endpointTags: [...this.#tags!] }),
      series: this.#seconds.snapshot(Math.floor(elapsedUs / 1e6)),
      ws: this.#ws === undefined ? undefined : this.#ws.snapshot(),
      checks: this.#checks?.snapshot(),
      auth: this.#auth === undefined ? undefined : authSnapshot(this.#auth),
      interrupted: this.#interrupted,
      ...this.#customSnapshot(),
    };
  }

  #customSnapshot(): Pick<ShardSnapshot, 'custom' | 'foldedNames' | 'sampleFailures'> {
    const custom = this.#custom.snapshot();
    const samples = this.#samples.snapshot();
    return {
      ...(custom === undefined ? {} : { custom }),
      ...(this.#foldedNames === 0 ? {} : { foldedNames: this.#foldedNames }),
      ...(samples === undefined ? {} : { sampleFailures: samples }),
    };
  }

  #count(figures: EndpointFigures, bucket: SecondBucket, kind: ErrorKind | undefined): void {
    this.#requests++;
    figures.requests++;
    bucket.requests++;
    if (kind === undefined) {
      this.#successes++;
      return;
    }
    this.#failures++;
    figures.fail(kind);
    bucket.failures++;
  }
}

function authSnapshot(auth: AuthFigures): AuthSnapshot {
  return { fetches: auth.fetches, failures: auth.failures, latency: auth.latency.encode() };
}
