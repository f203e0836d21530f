/**
 * An endpoint's requests by second of the run, for the HTML report's per-endpoint charts: in each
 * second (a completion counted in floor(endUs / 1e6), as second-series.ts counts the run's), its
 * requests, failures and the sum of their service times (µs; mean = latencyUs / requests). Three
 * numbers a second, summed when shards merge: no histogram per endpoint and second, whose memory
 * a run of many endpoints could not afford. Seconds without a request of the endpoint are absent.
 * A recorder keeps them for its first MAX_ENDPOINTS_BY_SECOND endpoints only (a HAR import may
 * bring hundreds; the report charts the eight most requested).
 *
 * Hot path: a completion in the same second as the previous one adds to the open second; a new
 * second (about once a second) closes it into the list. Completions arrive in clock order, so a
 * second met again after a later one (a late completion) is added to its entry, found by a search.
 */
import type { EndpointSecond } from './snapshot.js';

/** The endpoints (by index) whose seconds a recorder keeps: a bound on memory and snapshot size. */
export const MAX_ENDPOINTS_BY_SECOND = 32;

/** One endpoint's seconds. */
export class EndpointSeconds {
  /** Closed seconds, never changed in place (a late completion replaces its entry): shared by snapshots. */
  readonly #closed: EndpointSecond[] = [];
  #second = -1;
  #requests = 0;
  #failures = 0;
  #latencyUs = 0;

  /** A completion at `endUs` (µs since dispatch start) that took `us`. */
  record(endUs: number, us: number, failed: boolean): void {
    const second = endUs > 0 ? Math.floor(endUs / 1e6) : 0;
    if (second !== this.#second) this.#enter(second);
    this.#requests++;
    if (failed) this.#failures++;
    this.#latencyUs += us;
  }

  /** The seconds so far, oldest first; undefined when none had a request. */
  snapshot(): EndpointSecond[] | undefined {
    const all = this.#requests > 0 ? add([...this.#closed], this.#open()) : [...this.#closed];
    return all.length === 0 ? undefined : all.sort((a, b) => a.second - b.second);
  }

  #open(): EndpointSecond {
    return {
      second: this.#second,
      requests: this.#requests,
      failures: this.#failures,
      latencyUs: this.#latencyUs,
    };
  }

  #enter(second: number): void {
    if (this.#requests > 0) add(this.#closed, this.#open());
    this.#second = second;
    this.#requests = 0;
    this.#failures = 0;
    this.#latencyUs = 0;
  }
}

/** Adds `s` to its second's entry in `list` (a new entry replacing it), or appends it. */
function add(list: EndpointSecond[], s: EndpointSecond): EndpointSecond[] {
  const at = list.findLastIndex((e) => e.second === s.second);
  if (at < 0) list.push(s);
  else list[at] = sumOf(list[at]!, s);
  return list;
}

function sumOf(a: EndpointSecond, b: EndpointSecond): EndpointSecond {
  return {
    second: a.second,
    requests: a.requests + b.requests,
    failures: a.failures + b.failures,
    latencyUs: a.latencyUs + b.latencyUs,
  };
}

/** Several endpoints' (or shards') seconds summed by second; undefined when none has any. */
export function mergeEndpointSeconds(
  all: readonly (readonly EndpointSecond[] | undefined)[],
): EndpointSecond[] | undefined {
  const bySecond = new Map<number, EndpointSecond>();
  for (const list of all)
    for (const s of list ?? []) {
      const known = bySecond.get(s.second);
      bySecond.set(s.second, known === undefined ? s : sumOf(known, s));
    }
  return bySecond.size === 0
    ? undefined
    : [...bySecond.values()].sort((a, b) => a.second - b.second);
}

/** An endpoint's `seconds` field: absent when it had no request. */
export function secondsOf(seconds: EndpointSecond[] | undefined): { seconds?: EndpointSecond[] } {
  return seconds === undefined ? {} : { seconds };
}
