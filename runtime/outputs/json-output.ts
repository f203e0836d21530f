/**
 * `json=FILE`: the run's figures as newline-delimited JSON (docs/outputs.md, JSON stream), one
 * object a line, appended each flush: a `Metric` line the first time a metric appears (its kind,
 * unit and description), then per series with samples in the period a `Point` line with what the
 * period added. The points' counts add up to the run's totals:
 *
 *   {"type":"Metric","metric":"http_req_duration","data":{"kind":"trend","unit":"ms","description":"…"}}
 *   {"type":"Point","metric":"http_req_duration","time":"2026-…Z","tags":{…},"data":{"count":12,"min":…,"p95":…}}
 *
 *   counter  data.count: the sum added in the period
 *   rate     data.count: samples, data.trues: true ones, data.rate: their share
 *   trend    data.count and min, max, mean, p50, p90, p95, p99 of the period's samples, in its unit
 *   gauge    data.value now, data.min and data.max over the run
 */
import { open, type FileHandle } from 'node:fs/promises';
import { summarizeHistogram } from '../metrics/histogram.js';
import type { Point } from './flush-window.js';
import type { Flush, OutputSink, Payload } from './output-sink.js';

/** Opens (truncating) the stream's file. */
export async function openJsonOutput(file: string, shownAs: string): Promise<OutputSink> {
  const handle = await open(file, 'w');
  return new JsonOutput(handle, shownAs);
}

class JsonOutput implements OutputSink {
  readonly kind = 'json';
  readonly target: string;
  readonly #file: FileHandle;
  readonly #declared = new Set<string>();

  constructor(file: FileHandle, target: string) {
    this.#file = file;
    this.target = target;
  }

  encode(flush: Flush): Payload | undefined {
    const time = new Date(flush.timeMs).toISOString();
    const lines: string[] = [];
    let samples = 0;
    for (const point of flush.points) {
      const data = pointData(point);
      if (data === undefined) continue;
      const { metric, kind, unit, description, tags } = point.series;
      if (!this.#declared.has(metric)) {
        this.#declared.add(metric);
        lines.push(JSON.stringify({ type: 'Metric', metric, data: { kind, unit, description } }));
      }
      lines.push(JSON.stringify({ type: 'Point', metric, time, tags, data }));
      samples++;
    }
    return lines.length === 0 ? undefined : { body: `${lines.join('\n')}\n`, samples };
  }

  async send(payload: Payload): Promise<void> {
    await this.#file.appendFile(payload.body);
  }

  async close(): Promise<void> {
    await this.#file.close();
  }
}

/** What a point's period added; undefined when nothing was (a gauge always has its value). */
function pointData(point: Point): Record<string, number> | undefined {
  const { series, delta } = point;
  switch (series.kind) {
    case 'gauge':
      return { value: series.value, min: series.min, max: series.max };
    case 'counter':
      return delta.count === 0 ? undefined : { count: delta.count };
    case 'rate':
      return delta.count === 0
        ? undefined
        : { count: delta.count, trues: delta.trues, rate: delta.trues / delta.count };
    case 'trend': {
      const stats = delta.histogram === undefined ? undefined : summarizeHistogram(delta.histogram);
      return stats === undefined ? undefined : { count: delta.count, ...stats };
    }
  }
}
