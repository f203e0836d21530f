/**
 * Live metric outputs (docs/outputs.md): `outputs:` lists them, each either as `--out` writes one
 * (`prometheus-rw=URL`, `otlp=URL`, `influxdb=URL`, `json=FILE`) or as a mapping with the
 * receiver's options; `output_period` is how often they flush.
 */
import { basicFromUserinfo } from '../grammar/url-userinfo.js';
import * as z from 'zod';
import { OUTPUT_KINDS } from '../../model/plan/output-plan.js';
import { absoluteUrl, duration, headerMap, nonEmpty } from './fields.js';
import { k6OutputHint } from './k6-spellings.js';

const KINDS_TEXT = 'prometheus-rw=URL, otlp=URL, influxdb=URL or json=FILE';

/**
 * The string form as JSON Schema: zod's input side of the preprocess below is the mapping alone,
 * so json-schema.ts adds this beside it for editors and for BARRAGE_OUTPUTS.
 */
export const OUTPUT_TEXT_JSON_SCHEMA = {
  type: 'string',
  pattern: `^(${OUTPUT_KINDS.join('|')})=.+`,
} as const;

/** An output in its mapping form. */
function outputMapping() {
  return z
    .strictObject(
      {
        type: z.enum(OUTPUT_KINDS, { error: `an output type: ${OUTPUT_KINDS.join(', ')}` }),
        url: absoluteUrl('the receiver', ['http', 'https']).optional(),
        file: nonEmpty('the NDJSON file of a json output').optional(),
        token: nonEmpty(
          'sent as Authorization: Bearer (Token for influxdb); use ${NAME}',
        ).optional(),
        username: nonEmpty('basic authentication user').optional(),
        password: nonEmpty('basic authentication password; use ${NAME}').optional(),
        headers: headerMap('requests to the receiver').optional(),
        trend_as: z
          .enum(['native', 'stats'], { error: 'native or stats (how trends are sent)' })
          .optional()
          .describe(
            'prometheus-rw: trends as native histograms (default) or as gauges of min, max, avg and percentiles',
          ),
      },
      {
        error:
          'an output mapping: { type, url or file, token, username, password, headers, trend_as }',
      },
    )
    .superRefine((output, ctx) => {
      const fileKind = output.type === 'json';
      const [needed, other] = fileKind ? (['file', 'url'] as const) : (['url', 'file'] as const);
      if (output[needed] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [needed],
          message: fileKind ? 'a file (json output)' : `a receiver URL (${output.type} output)`,
          input: undefined,
          params: { code: 'invalid_value' },
        });
      if (output[other] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [other],
          message: `no ${other} (${output.type} takes a ${needed})`,
          input: output[other],
          params: { code: 'invalid_value' },
        });
      if (output.url !== undefined && URL.canParse(output.url)) {
        if (!basicFromUserinfo(new URL(output.url)).ok)
          ctx.addIssue({
            code: 'custom',
            path: ['url'],
            message: 'a URL whose user info is percent-encoded (no malformed %-escape)',
            input: output.url,
            params: { code: 'invalid_value' },
          });
      }
      if (output.type === 'influxdb' && output.url !== undefined) influxUrl(output.url, ctx);
    });
}

/**
 * An influxdb URL writes: its path ends in `/write` (InfluxDB 1.x, VictoriaMetrics, either behind
 * a prefix such as VictoriaMetrics cluster's `/insert/0/influx/write`) or `/api/v2/write`
 * (InfluxDB 2.x), and its `precision`, if any, is the `ms` barrage's timestamps have.
 */
function influxUrl(text: string, ctx: z.RefinementCtx): void {
  if (!URL.canParse(text)) return;
  const url = new URL(text);
  if (!url.pathname.endsWith('/write'))
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      message:
        'a write URL whose path ends in /write (InfluxDB 1.x with ?db=NAME, VictoriaMetrics) or /api/v2/write (InfluxDB 2.x with ?org=O&bucket=B)',
      input: url.pathname,
      params: { code: 'invalid_value' },
    });
  const precision = url.searchParams.get('precision');
  if (precision !== null && precision !== 'ms')
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      message: 'precision=ms or no precision (barrage sends millisecond timestamps)',
      input: `precision=${precision}`,
      params: { code: 'invalid_value' },
    });
}

/** `kind=target`, as --out takes it → the mapping form; a mapping as it is. */
function fromText(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  const equals = value.indexOf('=');
  const kind = value.slice(0, equals);
  if (equals <= 0 || !(OUTPUT_KINDS as readonly string[]).includes(kind)) {
    const hint = k6OutputHint(value);
    ctx.addIssue({
      code: 'custom',
      message: `an output such as ${KINDS_TEXT}, or a mapping with type`,
      input: value,
      params: { code: 'invalid_value', ...(hint === undefined ? {} : { hint }) },
    });
    return z.NEVER;
  }
  const target = value.slice(equals + 1);
  return kind === 'json' ? { type: kind, file: target } : { type: kind, url: target };
}

/** The `outputs` key. */
export function outputsSchema() {
  return z.array(z.preprocess(fromText, z.lazy(outputMapping)), {
    error: `a list of outputs (${KINDS_TEXT})`,
  });
}

/** The `output_period` key. */
export const outputPeriod = () => duration('how often outputs flush');
