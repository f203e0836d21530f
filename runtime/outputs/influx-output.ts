/**
 * `influxdb=URL`: the run's figures as InfluxDB line protocol (docs/outputs.md, InfluxDB), POSTed
 * each flush to the user's write URL (InfluxDB 1.x `/write?db=…`, 2.x `/api/v2/write?org=…&bucket=…`,
 * VictoriaMetrics `/write`) with `precision=ms`. Like the JSON stream it sends what each period
 * added: one line per series with samples in the period, measured by the registry's metric name
 * (as k6 names its measurements), tagged with the series' tags (testid and segment among them),
 * stamped with the flush's time:
 *
 *   http_req_duration,endpoint=home,method=GET,…,testid=… count=12i,max=…,mean=…,p95=… 1764000000000
 *
 *   counter  value: the sum added in the period
 *   rate     count: samples, trues: true ones, rate: their share
 *   trend    count and min, max, mean, p50, p90, p95, p99 of the period's samples, in its unit
 *   gauge    value now, min and max over the run
 *
 * `count` and `trues` are integers, the rest floats, so a field keeps one type in every period.
 * A value that is not finite has no line protocol form: its field is left out.
 *
 * The package's ES module entry holds the whole client; naming only Point lets the bundle keep
 * Point and what its module runs at load (node:buffer, node:zlib), not the client's HTTP transport.
 */
import { Point } from '@influxdata/influxdb-client';
import type { OutputPlan } from '../../model/plan/output-plan.js';
import { summarizeHistogram } from '../metrics/histogram.js';
import type { Point as SeriesPoint } from './flush-window.js';
import type { Flush, OutputSink } from './output-sink.js';
import { PostedSink } from './post-payload.js';

/** The sink of an influxdb output; its URL gets `precision=ms` unless it names it already. */
export function openInfluxOutput(output: OutputPlan): OutputSink {
  const url = new URL(output.target);
  if (!url.searchParams.has('precision')) url.searchParams.set('precision', 'ms');
  const receiver = {
    url: url.href,
    protocol: { 'content-type': 'text/plain; charset=utf-8' },
    own: output.headers,
  };
  return new PostedSink('influxdb', output.target, receiver, (flush) => {
    const lines = encodeLines(flush);
    return lines.length === 0 ? undefined : { body: lines.join('\n'), samples: lines.length };
  });
}

/** The line of every series with samples in the flush's period. */
export function encodeLines(flush: Flush): string[] {
  const lines: string[] = [];
  for (const point of flush.points) {
    const line = influxPoint(point)?.timestamp(flush.timeMs).toLineProtocol();
    if (line !== undefined) lines.push(line);
  }
  return lines;
}

/** A series' point with its period's fields; undefined when the period added nothing. */
function influxPoint(point: SeriesPoint): Point | undefined {
  const { series, delta } = point;
  const out = new Point(series.metric);
  for (const [name, value] of Object.entries(series.tags)) out.tag(name, value);
  switch (series.kind) {
    case 'gauge':
      return floats(out, { value: series.value, min: series.min, max: series.max });
    case 'counter':
      return delta.count === 0 ? undefined : floats(out, { value: delta.count });
    case 'rate':
      return delta.count === 0
        ? undefined
        : floats(out.intField('count', delta.count).intField('trues', delta.trues), {
            rate: delta.trues / delta.count,
          });
    case 'trend': {
      const stats = delta.histogram === undefined ? undefined : summarizeHistogram(delta.histogram);
      return stats === undefined
        ? undefined
        : floats(out.intField('count', delta.count), { ...stats });
    }
  }
}

/** Adds float fields, leaving out those line protocol cannot hold (NaN, ±Infinity). */
function floats(point: Point, fields: Readonly<Record<string, number>>): Point {
  for (const [name, value] of Object.entries(fields))
    if (Number.isFinite(value)) point.floatField(name, value);
  return point;
}
