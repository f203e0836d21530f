/**
 * A flush as OpenTelemetry metrics (docs/outputs.md, OpenTelemetry): the plain object of one
 * ExportMetricsServiceRequest, in the field names of the vendored definitions (proto/), which
 * otlp-output.ts encodes. Everything is cumulative since the run began (start_time_unix_nano = the
 * run's start, time_unix_nano = the flush), so a lost request loses nothing the next one does not
 * carry again.
 *
 *   ResourceMetrics   resource: service.name = "barrage", barrage.testid, barrage.segment
 *   └ ScopeMetrics    scope: name "barrage"
 *     └ Metric        one per name; a data point per series, its other tags as attributes
 *
 *   counter   Sum (monotonic, cumulative)  barrage_<m>, bytes barrage_<m>_bytes  unit "1" | "By"
 *   rate      two such Sums                barrage_<m> (true samples), barrage_<m>_samples (all)
 *   gauge     Gauge                        barrage_<m>
 *   trend     ExponentialHistogram         barrage_<m>_seconds in s (unit ms), else barrage_<m>
 *
 * Names are Prometheus' without `_total`, which the collector's Prometheus exporters add back, so
 * one dashboard reads both outputs. Built-in counters and gauges are integers (as_int); custom ones
 * may be fractional (as_double).
 */
import {
  isBuiltinMetric,
  type MetricUnit,
  type Tags,
} from '../../model/metrics/metric-registry.js';
import { exponentialBuckets } from './exponential-buckets.js';
import type { Point } from './flush-window.js';
import { TREND_SCALE } from './metric-series.js';
import type { Flush } from './output-sink.js';

/** A 64-bit integer as protobufjs writes it exactly (a Long's fields): epoch nanoseconds. */
export interface Fixed64 {
  readonly low: number;
  readonly high: number;
  readonly unsigned: true;
}

/** An attribute: every tag is a string. */
export interface KeyValue {
  readonly key: string;
  readonly value: { readonly stringValue: string };
}

/** A Sum's or a Gauge's data point. */
export interface NumberDataPoint {
  readonly attributes: readonly KeyValue[];
  readonly startTimeUnixNano?: Fixed64;
  readonly timeUnixNano: Fixed64;
  readonly asInt?: number;
  readonly asDouble?: number;
}

/** An exponential histogram's data point (OpenTelemetry's bucket numbering). */
export interface ExponentialHistogramDataPoint {
  readonly attributes: readonly KeyValue[];
  readonly startTimeUnixNano: Fixed64;
  readonly timeUnixNano: Fixed64;
  readonly count: number;
  readonly sum: number;
  readonly scale: number;
  readonly zeroCount: number;
  readonly positive: { readonly offset: number; readonly bucketCounts: readonly number[] };
  readonly min: number;
  readonly max: number;
}

/** A metric: its name, unit and one kind of data. */
export interface OtlpMetric {
  readonly name: string;
  readonly description: string;
  readonly unit: string;
  readonly sum?: {
    readonly dataPoints: NumberDataPoint[];
    readonly aggregationTemporality: number;
    readonly isMonotonic: true;
  };
  readonly gauge?: { readonly dataPoints: NumberDataPoint[] };
  readonly exponentialHistogram?: {
    readonly dataPoints: ExponentialHistogramDataPoint[];
    readonly aggregationTemporality: number;
  };
}

/** The request, and the data points it carries. */
export interface OtlpRequest {
  readonly request: {
    readonly resourceMetrics: readonly {
      readonly resource: { readonly attributes: readonly KeyValue[] };
      readonly scopeMetrics: readonly {
        readonly scope: { readonly name: string };
        readonly metrics: readonly OtlpMetric[];
      }[];
    }[];
  };
  readonly dataPoints: number;
}

/**
 * The tags that name the run, also as resource attributes (they stay on the data points too, so
 * one dashboard reads `testid` from Prometheus and from a collector alike).
 */
const RESOURCE_TAGS: Readonly<Record<string, string>> = {
  testid: 'barrage.testid',
  segment: 'barrage.segment',
};

/** What barrage's units are in UCUM, as OpenTelemetry writes units (ms trends are sent in s). */
const UCUM: Readonly<Record<MetricUnit, string>> = {
  ms: 's',
  bytes: 'By',
  count: '1',
  ratio: '1',
  none: '1',
};

/** A trend's recorded values per second: µs of a millisecond trend (TREND_SCALE × 1000). */
const MS_TREND_DIVISOR = TREND_SCALE * 1000;

/** The times every data point of a flush carries. */
interface Times {
  readonly start: Fixed64;
  readonly now: Fixed64;
}

/**
 * The request of a flush; `cumulative` is AGGREGATION_TEMPORALITY_CUMULATIVE as the definitions
 * number it.
 */
export function otlpRequest(flush: Flush, cumulative: number): OtlpRequest {
  const metrics = new Map<string, OtlpMetric>();
  const times = { start: fixed64Nanos(flush.startedAt), now: fixed64Nanos(flush.timeMs) };
  let dataPoints = 0;
  let runTags: Tags = {};
  for (const point of flush.points) {
    runTags = point.series.tags;
    dataPoints += addPoint(metrics, point, times, cumulative);
  }
  const resource = [
    attribute('service.name', 'barrage'),
    ...Object.entries(RESOURCE_TAGS).flatMap(([tag, key]) =>
      runTags[tag] === undefined ? [] : [attribute(key, runTags[tag])],
    ),
  ];
  return {
    request: {
      resourceMetrics: [
        {
          resource: { attributes: resource },
          scopeMetrics: [{ scope: { name: 'barrage' }, metrics: [...metrics.values()] }],
        },
      ],
    },
    dataPoints,
  };
}

/** Adds a point's data points to their metrics; returns how many it added. */
function addPoint(
  metrics: Map<string, OtlpMetric>,
  point: Point,
  times: Times,
  cumulative: number,
): number {
  const { series, total } = point;
  const name = `barrage_${series.metric}`;
  const attributes = pointAttributes(series.tags);
  const number = (value: number, integer: boolean): NumberDataPoint => ({
    attributes,
    startTimeUnixNano: times.start,
    timeUnixNano: times.now,
    ...(integer ? { asInt: value } : { asDouble: value }),
  });
  const sum = (metric: string, description: string, unit: string) =>
    metricOf(metrics, metric, description, unit, () => ({
      sum: { dataPoints: [], aggregationTemporality: cumulative, isMonotonic: true },
    })).sum!.dataPoints;
  const integer = isBuiltinMetric(series.metric);
  switch (series.kind) {
    case 'counter': {
      const bytes = series.unit === 'bytes' ? '_bytes' : '';
      sum(`${name}${bytes}`, series.description, UCUM[series.unit]).push(
        number(total.count, integer),
      );
      return 1;
    }
    case 'rate':
      sum(name, `${series.description} (true samples)`, '1').push(number(total.trues, true));
      sum(`${name}_samples`, `${series.description} (all samples)`, '1').push(
        number(total.count, true),
      );
      return 2;
    case 'gauge':
      metricOf(metrics, name, series.description, UCUM[series.unit], () => ({
        gauge: { dataPoints: [] },
      })).gauge!.dataPoints.push({
        attributes,
        timeUnixNano: times.now,
        ...(integer ? { asInt: series.value } : { asDouble: series.value }),
      });
      return 1;
    case 'trend': {
      const histogram = total.histogram;
      if (histogram === undefined || histogram.totalCount === 0) return 0;
      const ms = series.unit === 'ms';
      const divisor = ms ? MS_TREND_DIVISOR : TREND_SCALE;
      const buckets = exponentialBuckets(histogram, divisor);
      const first = buckets.buckets[0]?.index ?? 0;
      const last = buckets.buckets[buckets.buckets.length - 1]?.index ?? first - 1;
      const bucketCounts = new Array<number>(last - first + 1).fill(0);
      for (const bucket of buckets.buckets) bucketCounts[bucket.index - first] = bucket.count;
      metricOf(
        metrics,
        ms ? `${name}_seconds` : name,
        series.description,
        UCUM[series.unit],
        () => ({
          exponentialHistogram: { dataPoints: [], aggregationTemporality: cumulative },
        }),
      ).exponentialHistogram!.dataPoints.push({
        attributes,
        startTimeUnixNano: times.start,
        timeUnixNano: times.now,
        count: buckets.count,
        sum: buckets.sum,
        scale: buckets.schema,
        zeroCount: buckets.zeroCount,
        // Prometheus' bucket i is OpenTelemetry's i − 1 (exponential-buckets.ts).
        positive: { offset: first - 1, bucketCounts },
        min: histogram.getValueAtPercentile(0) / divisor,
        max: histogram.getValueAtPercentile(100) / divisor,
      });
      return 1;
    }
  }
}

/** The metric of `name`, made with `data` the first time. */
function metricOf(
  metrics: Map<string, OtlpMetric>,
  name: string,
  description: string,
  unit: string,
  data: () => Pick<OtlpMetric, 'sum' | 'gauge' | 'exponentialHistogram'>,
): OtlpMetric {
  let metric = metrics.get(name);
  if (metric === undefined) {
    metric = { name, description, unit, ...data() };
    metrics.set(name, metric);
  }
  return metric;
}

/** A series' tags. */
function pointAttributes(tags: Tags): KeyValue[] {
  return Object.entries(tags).map(([key, value]) => attribute(key, value));
}

function attribute(key: string, value: string): KeyValue {
  return { key, value: { stringValue: value } };
}

/** Epoch ms as exact epoch ns: a double holds ns since 1970 only to within 256 ns. */
export function fixed64Nanos(ms: number): Fixed64 {
  const whole = Math.floor(ms);
  const ns = BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6));
  return { low: Number(ns & 0xffff_ffffn), high: Number(ns >> 32n), unsigned: true };
}
