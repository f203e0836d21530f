/**
 * Server-Sent Events figures of a run or an endpoint (sse_time_to_first_event, sse_event_gap,
 * sse_events): made on a stream's first event, so an endpoint that is no stream costs nothing.
 */
import { CachedHistogram } from './histogram.js';
import type { EndpointSnapshot } from './snapshot.js';

/** The snapshot fields of event streams, on the run and on each endpoint. */
export type SseFields = Pick<EndpointSnapshot, 'sseFirstEvent' | 'sseEventGap' | 'sseEvents'>;

/** Events of streams, their first's times and the gaps between them. */
export class SseFigures {
  readonly #firstEvent = new CachedHistogram();
  readonly #gap = new CachedHistogram();
  #events = 0;

  /** One event: the first of its stream when `firstUs` >= 0, else `gapUs` after the one before. */
  record(firstUs: number, gapUs: number): void {
    this.#events++;
    if (firstUs >= 0) this.#firstEvent.recordMicros(firstUs);
    else this.#gap.recordMicros(gapUs);
  }

  /** The snapshot fields (histograms "" when empty: a stream of one event has no gap). */
  fields(): SseFields {
    return {
      sseFirstEvent: this.#firstEvent.encode(),
      sseEventGap: this.#gap.encode(),
      sseEvents: this.#events,
    };
  }
}

/** The fields of figures that may not exist (no stream event yet): none then. */
export function sseFields(figures: SseFigures | undefined): SseFields | Record<string, never> {
  return figures === undefined ? {} : figures.fields();
}
