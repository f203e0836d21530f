/**
 * The dashboard's "latest errors": derived from the growth of the per-endpoint error counts
 * between two snapshots, so the request path records nothing extra. Each tick yields at most one
 * event per (endpoint, error kind) that grew, stamped with the tick's elapsed time:
 *
 *   count(e, k)    = errors[k] of endpoint e now − errors[k] of endpoint e at the previous tick
 *   statuses(e)    = status codes ≥ 400 of endpoint e that grew over the same tick (for the
 *                    http_4xx / http_5xx kinds, so a 503 storm reads as 503, not just http_5xx)
 *
 * The feed keeps the newest `capacity` events, newest first.
 */
import type { EndpointSnapshot, ShardSnapshot } from '../../runtime/metrics/snapshot.js';

/** Errors of one kind at one endpoint during one tick. */
export interface ErrorEvent {
  /** Elapsed run time of the tick, ms. */
  readonly atMs: number;
  readonly endpoint: string;
  readonly kind: string;
  /** Failing HTTP statuses that grew during the tick (HTTP kinds only), ascending. */
  readonly statuses: readonly number[];
  readonly count: number;
}

/** Newest errors first, from snapshot to snapshot. */
export class ErrorFeed {
  #previous: readonly EndpointSnapshot[] = [];
  #events: ErrorEvent[] = [];

  constructor(private readonly capacity = 50) {}

  /** The newest events, newest first. */
  get events(): readonly ErrorEvent[] {
    return this.#events;
  }

  /** Adds the errors that appeared since the previous snapshot, its endpoints named by index. */
  update(snapshot: ShardSnapshot, endpointNames: readonly string[]): void {
    const fresh: ErrorEvent[] = [];
    snapshot.endpoints.forEach((endpoint, i) => {
      const before = this.#previous[i];
      if (endpoint.failures === (before?.failures ?? 0)) return;
      const statuses = grownStatuses(endpoint, before);
      for (const [kind, count] of Object.entries(endpoint.errors)) {
        const delta = count - (before?.errors[kind] ?? 0);
        if (delta <= 0) continue;
        fresh.push({
          atMs: snapshot.elapsedMs,
          endpoint: endpointNames[i] ?? `#${i}`,
          kind,
          statuses: kind.startsWith('http_') ? statuses.filter((s) => sameClass(s, kind)) : [],
          count: delta,
        });
      }
    });
    this.#previous = snapshot.endpoints;
    if (fresh.length === 0) return;
    fresh.sort((a, b) => b.count - a.count);
    this.#events = [...fresh, ...this.#events].slice(0, this.capacity);
  }
}

/** Failing statuses (≥ 400) whose count grew. */
function grownStatuses(now: EndpointSnapshot, before: EndpointSnapshot | undefined): number[] {
  const grown: number[] = [];
  for (const [code, count] of Object.entries(now.statusCodes)) {
    const status = Number(code);
    if (status >= 400 && count > (before?.statusCodes[code] ?? 0)) grown.push(status);
  }
  return grown.sort((a, b) => a - b);
}

/** Whether a status belongs to an HTTP error kind (http_4xx: 400–499, http_5xx: ≥ 500). */
function sameClass(status: number, kind: string): boolean {
  return kind === 'http_5xx' ? status >= 500 : status < 500;
}
