/**
 * An endpoint's `metrics:` (docs/configuration.md, Custom metrics): after its final response, each
 * extractor's value is one sample of its metric, tagged with the run's and the endpoint's tags,
 * `endpoint`, `method` and the response's `status` (the scenario is the recorder's). A value is a
 * sample when it reads as one of the kind:
 *   rate     true or false, "true" or "false", or a number (non-zero is true)
 *   others   a number, or a text that is one ("12.5"); a trend's from 0 to MAX_TREND_VALUE
 * Anything else (nothing found, another text, an object) is counted as rejected, and the reports
 * warn. The target writes the body: a throw while reading it rejects the value, never the run.
 */
import type { EndpointMetricPlan } from '../../model/plan/endpoint-plan.js';
import type { MetricKind } from '../../model/metrics/metric-registry.js';
import { isTrendValue } from '../metrics/custom-histogram.js';
import type { Recorder } from '../metrics/recorder.js';
import { extractedValue, ParsedBody, type RawHeaders } from './extract.js';

/** Records each metric's sample of a response; `atUs` µs since dispatch start. */
export function recordEndpointMetrics(
  metrics: readonly EndpointMetricPlan[],
  body: string | ParsedBody | undefined,
  headers: RawHeaders,
  status: number,
  recorder: Recorder,
  atUs: number,
): void {
  const parsed = body instanceof ParsedBody ? body : new ParsedBody(body);
  for (const metric of metrics) {
    const name = metric.extractor.variable;
    let value: number | undefined;
    try {
      value = sampleOf(metric.kind, extractedValue(metric.extractor, parsed, headers));
    } catch {
      value = undefined;
    }
    if (value === undefined) recorder.recordCustomRejected(name, metric.kind);
    else
      recorder.recordCustom(
        name,
        metric.kind,
        value,
        { ...metric.tags, status: String(status) },
        atUs,
      );
  }
}

/** The sample a found value is for a metric of `kind`; undefined when it is none. */
export function sampleOf(kind: MetricKind, found: unknown): number | undefined {
  if (kind === 'rate') {
    if (found === true || found === 'true') return 1;
    if (found === false || found === 'false') return 0;
  }
  const n =
    typeof found === 'number'
      ? found
      : typeof found === 'string' && found.trim() !== ''
        ? Number(found)
        : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (kind === 'rate') return n !== 0 ? 1 : 0;
  return kind === 'trend' && !isTrendValue(n) ? undefined : n;
}
