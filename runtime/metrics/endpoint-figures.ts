/**
 * One endpoint's figures in a metrics shard (recorder.ts owns one per endpoint): requests,
 * failures by error kind, status codes, latency by outcome, the optional figures of WebSocket
 * sessions and protocols, and the figure families' (time to first byte, connection set-up,
 * streams: figure-set.ts). Counters are plain fields and typed arrays, on recordRequest()'s path:
 * nothing here allocates per request.
 */
import { EndpointSeconds, secondsOf } from './endpoint-seconds.js';
import { ERROR_KIND_INDEX, ERROR_KINDS, type ErrorKind } from '../../model/errors/error-kinds.js';
import { addEncoded, CachedHistogram } from './histogram.js';
import { MAX_OUTCOMES, OTHER_OUTCOME } from './name-bound.js';
import { FigureSet } from './figure-set.js';
import type { Counts, EndpointSnapshot, OutcomeSnapshot } from './snapshot.js';
import type { WsFigures } from './ws-figures.js';

/** Statuses counted in the array; others (HTTP allows 100–999) go to a Map. */
const STATUS_SLOTS = 1000;
const KINDS_SORTED: readonly ErrorKind[] = [...ERROR_KINDS].sort();

/** Error kind slots of an outcome's key: 0 for success, 1 + the kind's index for a failure. */
const KIND_SLOTS = ERROR_KINDS.length + 1;

/**
 * Which exchange of a logical request a response answered, as bits: RETRY_STEP for an attempt
 * after the first (a retry), REDIRECT_STEP for a redirect's hop. 0: the first attempt's request.
 */
export const RETRY_STEP = 1;
export const REDIRECT_STEP = 2;
/** Step values of an outcome's key. */
const STEPS = 4;

/** An endpoint's requests that ended with one status and error kind. */
class Outcome {
  requests = 0;
  readonly latency = new CachedHistogram();

  constructor(
    readonly status: number,
    readonly slot: number,
    readonly step: number,
  ) {}

  snapshot(): OutcomeSnapshot {
    const error = this.slot === 0 ? undefined : ERROR_KINDS[this.slot - 1];
    return {
      status: this.status,
      ...(error === undefined ? {} : { error }),
      ...((this.step & RETRY_STEP) === 0 ? {} : { retry: true }),
      ...((this.step & REDIRECT_STEP) === 0 ? {} : { redirect: true }),
      requests: this.requests,
      latency: this.latency.encode(),
    };
  }
}

/**
 * One endpoint's counters. Its latencies are kept by outcome (status and error kind: the tags
 * that vary per request), each histogram made on the outcome's first response: an endpoint that
 * is never sent (setup only, a rare weight, a flow not picked yet) costs a few hundred bytes.
 * The endpoint's own histogram is their sum, built only when it has several.
 */
export class EndpointFigures {
  requests = 0;
  failures = 0;
  statuses: Float64Array | undefined;
  readonly errors = new Float64Array(ERROR_KINDS.length);
  otherStatuses: Map<number, number> | undefined;
  readonly #outcomes = new Map<number, Outcome>();
  /** The last outcome recorded: most requests of an endpoint end alike. */
  #last: Outcome | undefined;
  /** WebSocket figures of a ws:// endpoint, created on its first session. */
  ws: WsFigures | undefined;
  /** HTTP versions of its responses, as bits (runtime/http/http-protocol.ts). */
  protocols = 0;
  /** The figure families' figures of the endpoint. */
  readonly figures = new FigureSet();
  /** Its requests by second. */
  readonly seconds = new EndpointSeconds();

  fail(kind: ErrorKind): void {
    this.failures++;
    this.errors[ERROR_KIND_INDEX.get(kind) ?? ERROR_KIND_INDEX.get('other')!]!++;
  }

  /**
   * Records a clamped latency at its precomputed index, under the request's outcome: its status,
   * error kind and step (RETRY_STEP, REDIRECT_STEP).
   */
  recordOutcome(
    status: number,
    kind: ErrorKind | undefined,
    index: number,
    value: number,
    step = 0,
  ): void {
    const slot =
      kind === undefined ? 0 : (ERROR_KIND_INDEX.get(kind) ?? ERROR_KIND_INDEX.get('other')!) + 1;
    let outcome = this.#last;
    if (
      outcome === undefined ||
      outcome.status !== status ||
      outcome.slot !== slot ||
      outcome.step !== step
    ) {
      outcome = this.#outcome(status, slot, step);
      this.#last = outcome;
    }
    outcome.requests++;
    outcome.latency.record(index, value);
  }

  #outcome(status: number, slot: number, step: number): Outcome {
    const key = (status * KIND_SLOTS + slot) * STEPS + step;
    const known = this.#outcomes.get(key);
    if (known !== undefined) return known;
    if (this.#outcomes.size < MAX_OUTCOMES || status === OTHER_OUTCOME) {
      const outcome = new Outcome(status, slot, step);
      this.#outcomes.set(key, outcome);
      return outcome;
    }
    return this.#outcome(OTHER_OUTCOME, 0, 0);
  }

  countStatus(status: number): void {
    if (status < STATUS_SLOTS) (this.statuses ??= new Float64Array(STATUS_SLOTS))[status]!++;
    else {
      this.otherStatuses ??= new Map();
      this.otherStatuses.set(status, (this.otherStatuses.get(status) ?? 0) + 1);
    }
  }

  snapshot(): EndpointSnapshot {
    // Status, then error kind in code-point order, then step: as merges write them.
    const outcomes = [...this.#outcomes.values()]
      .sort(
        (a, b) =>
          a.status - b.status || byCodePoint(errorOf(a.slot), errorOf(b.slot)) || a.step - b.step,
      )
      .map((o) => o.snapshot());
    return {
      requests: this.requests,
      failures: this.failures,
      latency: addEncoded(outcomes.map((o) => o.latency)),
      statusCodes: statusCounts([this]),
      errors: errorCounts([this]),
      outcomes,
      ...(this.ws === undefined ? {} : { ws: this.ws.snapshot() }),
      ...this.figures.fields('endpoint'),
      ...(this.protocols === 0 ? {} : { protocols: this.protocols }),
      ...secondsOf(this.seconds.snapshot()),
    };
  }
}

/** An outcome slot's error kind, '' for a success. */
function errorOf(slot: number): string {
  return slot === 0 ? '' : ERROR_KINDS[slot - 1]!;
}

/** Orders strings by UTF-16 code units, as merges write keys. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Status code counts summed over endpoints, keys ascending. */
export function statusCounts(endpoints: readonly EndpointFigures[]): Counts {
  const sums = new Map<number, number>();
  for (const e of endpoints) {
    for (let status = 0; e.statuses !== undefined && status < STATUS_SLOTS; status++) {
      const n = e.statuses[status]!;
      if (n > 0) sums.set(status, (sums.get(status) ?? 0) + n);
    }
    for (const [status, n] of e.otherStatuses ?? []) sums.set(status, (sums.get(status) ?? 0) + n);
  }
  const out: Record<string, number> = {};
  for (const status of [...sums.keys()].sort((a, b) => a - b))
    out[String(status)] = sums.get(status)!;
  return out;
}

/** Error kind counts summed over endpoints, kinds in code-point order (as merges write them). */
export function errorCounts(endpoints: readonly EndpointFigures[]): Counts {
  const out: Record<string, number> = {};
  for (const kind of KINDS_SORTED) {
    const i = ERROR_KIND_INDEX.get(kind)!;
    let n = 0;
    for (const e of endpoints) n += e.errors[i]!;
    if (n > 0) out[kind] = n;
  }
  return out;
}
