/**
 * A segment's side of the HTTP debug log (docs/configuration.md, HTTP debug log): the request
 * path asks it whether one more line fits its second (PerSecondBound, `per_second` a segment)
 * before it builds a record, and hands it the record to send to the one writer, the main
 * process's. What the bound refuses is counted; the count travels in the segment's snapshots
 * (`httpDebugDropped`), so the reports can say it.
 */
import type { HttpDebugPlan } from '../../model/plan/http-debug-plan.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { PerSecondBound } from './per-second-bound.js';

/** Where a segment's selected requests go. */
export class HttpDebugTap {
  /** Every request is written, not only the failed ones. */
  readonly all: boolean;
  /** Lines the bound refused. */
  dropped = 0;
  readonly #bound: PerSecondBound;

  constructor(
    plan: HttpDebugPlan,
    /** Sends an admitted record to the main process's writer. */
    readonly send: (record: ExchangeRecord) => void,
    private readonly nowMs: () => number,
  ) {
    this.all = plan.requests === 'all';
    this.#bound = new PerSecondBound(plan.perSecond);
  }

  /** True when one more line fits this second; false counts it dropped. */
  admit(): boolean {
    if (this.#bound.take(this.nowMs())) return true;
    this.dropped++;
    return false;
  }
}
