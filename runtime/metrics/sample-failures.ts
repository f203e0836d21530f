/**
 * The reports' sample failures (docs/reports.md, Sample failures): the first SAMPLES_PER_KEY failed
 * requests of each endpoint and error kind, MAX_SAMPLES in all, as records (exchange-record.ts).
 * A shard keeps them as its requests fail; merges keep, in time order, the first SAMPLES_PER_KEY of
 * each endpoint name and kind and the first MAX_SAMPLES in all, so threads, segments and `merge`
 * keep them alike. Asking costs a lookup only for a failed request, and nothing once all are kept.
 */
import { ERROR_KIND_INDEX, ERROR_KINDS, type ErrorKind } from '../../model/errors/error-kinds.js';
import { byCodePoint } from './endpoint-figures.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';

/** Records kept per endpoint and error kind. */
export const SAMPLES_PER_KEY = 3;
/** Records kept in all. */
export const MAX_SAMPLES = 50;

/** One shard's sample failures. */
export class SampleFailures {
  readonly #records: ExchangeRecord[] = [];
  /** Records kept by endpoint index × kinds + kind index. */
  readonly #counts = new Map<number, number>();

  /** True when a failure of `endpoint` with `kind` would be kept. */
  wants(endpoint: number, kind: ErrorKind): boolean {
    if (this.#records.length >= MAX_SAMPLES) return false;
    return (this.#counts.get(keyOf(endpoint, kind)) ?? 0) < SAMPLES_PER_KEY;
  }

  /** Keeps the record of a failure wants() took. */
  keep(endpoint: number, kind: ErrorKind, record: ExchangeRecord): void {
    const key = keyOf(endpoint, kind);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    this.#records.push(record);
  }

  /** The records kept, in time order; undefined when none was. */
  snapshot(): readonly ExchangeRecord[] | undefined {
    return this.#records.length === 0 ? undefined : [...this.#records].sort(byTime);
  }
}

function keyOf(endpoint: number, kind: ErrorKind): number {
  return endpoint * ERROR_KINDS.length + (ERROR_KIND_INDEX.get(kind) ?? 0);
}

/**
 * Several shards' sample failures as one list: in time order, the first SAMPLES_PER_KEY of each
 * endpoint and error kind, MAX_SAMPLES at most; undefined when none has any.
 */
export function mergeSampleFailures(
  lists: readonly (readonly ExchangeRecord[] | undefined)[],
): readonly ExchangeRecord[] | undefined {
  const all = lists.flatMap((list) => list ?? []).sort(byTime);
  if (all.length === 0) return undefined;
  const counts = new Map<string, number>();
  const kept: ExchangeRecord[] = [];
  for (const record of all) {
    if (kept.length >= MAX_SAMPLES) break;
    const key = `${record.endpoint}\n${record.error_kind ?? ''}`;
    const count = counts.get(key) ?? 0;
    if (count >= SAMPLES_PER_KEY) continue;
    counts.set(key, count + 1);
    kept.push(record);
  }
  return kept;
}

/** Time order; records of one instant by endpoint, kind, user and url, so any merge order agrees. */
function byTime(a: ExchangeRecord, b: ExchangeRecord): number {
  return (
    byCodePoint(a.time, b.time) ||
    byCodePoint(a.endpoint, b.endpoint) ||
    byCodePoint(a.error_kind ?? '', b.error_kind ?? '') ||
    (a.vu ?? 0) - (b.vu ?? 0) ||
    byCodePoint(a.url, b.url)
  );
}
