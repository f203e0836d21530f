/**
 * The whole configuration (DESIGN.md §4) as one zod schema: the single source of the Config type,
 * its defaults, and barrage.schema.json. Cross-field rules live in refinements.ts.
 *
 * Built in parts, on first use: building zod schemas is most of what loading this costs (about
 * 30 ms for the whole tree), and a configuration uses few of its parts. An element of a list or a
 * mapping (an endpoint, a check, an extractor, a scenario…) is a `z.lazy`, built when the first
 * one is parsed. A top-level key whose value is a mapping (`auth`, `retry`…) is a `z.lazy` too,
 * and configSchemaFor() leaves it out of the parse when the configuration does not set it: zod
 * reads every key's schema when it parses an object, which would build it.
 */
import * as z from 'zod';
import { authSchema } from './auth-schema.js';
import { expectSchema } from './check-schema.js';
import { endpointSchema } from './endpoint-schema.js';
import { flowSchema } from './flow-schema.js';
import { feederSchema } from './feeder-schema.js';
import {
  absoluteUrl,
  body,
  duration,
  flag,
  headerMap,
  httpMethod,
  nonEmpty,
  positiveInt,
  positiveNumber,
  template,
  userTags,
} from './fields.js';
import { patternSchema } from './pattern-schema.js';
import { proxySchema } from './proxy-schema.js';
import { scenariosSchema } from './scenarios-schema.js';
import { reportSchema } from './report-schema.js';
import { outputPeriod, outputsSchema } from './outputs-schema.js';
import { httpDebugSchema } from './http-debug-schema.js';
import { retrySchema } from './retry-schema.js';
import { tlsSchema } from './tls-schema.js';
import { thresholdSchema } from './threshold-schema.js';
import { metricsSchema } from './metrics-schema.js';
import { checkThresholds } from './configured-thresholds.js';
import { ENV_NAME } from '../grammar/placeholder.js';

const segment = z
  .string({ error: 'a segment i/n such as 2/4 (1 ≤ i ≤ n)' })
  .regex(/^[1-9]\d*\/[1-9]\d*$/, { error: 'a segment i/n such as 2/4 (1 ≤ i ≤ n)' })
  .transform((text, ctx) => {
    const [index, count] = text.split('/').map(Number) as [number, number];
    if (index > count || count > 1024) {
      ctx.addIssue({
        code: 'custom',
        message: 'a segment i/n with 1 ≤ i ≤ n ≤ 1024',
        input: text,
        params: { code: 'invalid_value' },
      });
      return z.NEVER;
    }
    return { index, count };
  });

const startAt = z
  .string({ error: 'an ISO 8601 time with a zone, such as 2026-05-01T12:00:00Z' })
  .refine((text) => /(Z|[+-]\d\d:?\d\d)$/i.test(text) && Number.isFinite(Date.parse(text)), {
    error: 'an ISO 8601 time with a zone, such as 2026-05-01T12:00:00Z',
  })
  .transform((text) => Date.parse(text));

/**
 * Most endpoints a configuration may list (the HAR's included). Each endpoint keeps a latency
 * histogram in every thread and in the report: measured at the cap, a run stays near 250 MB on one
 * thread and 650 MB on eight, the most `threads: auto` picks (docs/configuration.md#limits).
 */
export const MAX_ENDPOINTS = 500;

/** Workers of the top-level form when `concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 10;

/** The configuration file's shape, with defaults applied on parse. */
export const configSchema = z.strictObject(
  {
    target: absoluteUrl('base URL of the requests', ['http', 'https', 'ws', 'wss']).optional(),
    method: httpMethod()
      .default('GET')
      .describe('Method of the single-request form (no endpoints)'),
    headers: headerMap('headers sent with every request').default({}),
    body: z
      .lazy(body)
      .optional()
      .describe('Body of the single-request form; a mapping is sent as JSON'),
    concurrency: positiveInt('number of workers')
      .optional()
      .describe('Workers (virtual users); default 10'),
    duration: duration('length of the run')
      .optional()
      .describe('With requests, the first reached ends the run'),
    requests: positiveInt('total iterations').optional(),
    rate: positiveNumber('permits per second')
      .optional()
      .describe('Absent: workers loop as fast as they can'),
    timeout: duration('deadline of one request').prefault('10s'),
    stop_grace: duration('grace after a stop signal')
      .prefault('20s')
      .describe(
        'After the first SIGINT, SIGTERM or SIGHUP, how long in-flight work may take before every report is written from the figures so far and barrage exits (below Kubernetes’ 30 s default)',
      ),
    cookies: flag('a cookie jar per virtual user')
      .default(true)
      .describe('Each virtual user keeps the cookies it is sent, as a browser does'),
    max_redirects: positiveInt('redirects followed; 0 = none', 0)
      .default(10)
      .describe('Redirects a request follows before it fails as too_many_redirects'),
    expect: z
      .lazy(expectSchema)
      .optional()
      .describe(
        "Statuses that are a success for every HTTP request (an endpoint's own expect wins; default: any status below 400)",
      ),
    thresholds: z.array(thresholdSchema, { error: 'a list of threshold expressions' }).default([]),
    baseline: nonEmpty('result file of an earlier run')
      .optional()
      .describe(
        'A JSON or raw result of an earlier run: relative thresholds (< baseline * 1.10) read it, reports show it (docs/reports.md, Baselines)',
      ),
    metrics: metricsSchema,
    tags: userTags('every sample of the run').describe(
      'Tags on every sample of the run (docs/configuration.md, Tags); thresholds can filter on them',
    ),
    endpoints: z
      .array(z.lazy(endpointSchema), { error: 'a list of endpoints' })
      .min(1, { error: 'at least one endpoint' })
      .max(MAX_ENDPOINTS, { error: `at most ${MAX_ENDPOINTS} endpoints` })
      .optional(),
    flows: z
      .array(z.lazy(flowSchema), { error: 'a list of flows' })
      .min(1, { error: 'at least one flow' })
      .optional(),
    feeder: z.lazy(feederSchema).optional(),
    auth: z.lazy(authSchema).optional(),
    pattern: z.lazy(patternSchema).optional(),
    retry: z.lazy(retrySchema).optional(),
    scenario: nonEmpty('TypeScript scenario file').optional(),
    scenarios: scenariosSchema.optional(),
    allowed_hosts: z
      .array(nonEmpty('host name'), { error: 'a list of host names' })
      .optional()
      .describe('Hosts a scenario may reach besides the target'),
    scenario_env: z
      .array(
        z.string({ error: 'an environment variable name' }).regex(ENV_NAME, {
          error: 'an environment variable name (a letter or _, then letters, digits or _)',
        }),
        { error: 'a list of environment variable names' },
      )
      .optional()
      .describe('Environment variables a TypeScript scenario may read (env, __ENV)'),
    report: reportSchema.default({}),
    outputs: z
      .lazy(outputsSchema)
      .optional()
      .describe(
        'Live metric outputs (docs/outputs.md): prometheus-rw=URL, otlp=URL, influxdb=URL, json=FILE',
      ),
    output_period: outputPeriod().prefault('5s').describe('How often live outputs flush'),
    http_debug: z
      .lazy(httpDebugSchema)
      .optional()
      .describe(
        'Write the failed (or all) requests and responses as NDJSON, redacted and bounded (docs/configuration.md, HTTP debug log)',
      ),
    insecure: flag('skip TLS certificate verification').default(false),
    proxy: z
      .lazy(proxySchema)
      .optional()
      .describe(
        'Forward proxy of target requests: a URL, { url, no_proxy }, or false to ignore HTTPS_PROXY/HTTP_PROXY (docs/configuration.md, Proxies)',
      ),
    tls: z
      .lazy(tlsSchema)
      .optional()
      .describe(
        'CA bundle, client certificate, server name, lowest version (docs/configuration.md)',
      ),
    http2: flag('negotiate HTTP/2 by ALPN over TLS')
      .default(false)
      .describe('Offer h2 to https targets (HTTP/1.1 when the server offers no h2)'),
    seed: positiveInt('random seed', 0)
      .optional()
      .describe('Makes every random choice reproducible'),
    threads: z
      .union([positiveInt('worker threads'), z.literal('auto')], {
        error: 'a positive integer or auto (worker threads)',
      })
      .default('auto'),
    segment: segment.optional().describe('This process runs share i of n (distributed runs)'),
    start_at: startAt.optional().describe('Wall-clock instant at which dispatch begins'),
    user_agent: template('User-Agent header', true)
      .optional()
      .describe('Default barrage/<version>'),
  },
  { error: 'a mapping of configuration keys' },
);

/** The validated configuration, defaults applied, durations in milliseconds. */
export type Config = z.output<typeof configSchema>;

/** Top-level configuration keys, for environment variables and "did you mean". */
export const CONFIG_KEYS: readonly string[] = Object.keys(configSchema.shape);

type ConfigKey = keyof typeof configSchema.shape;

/**
 * The schema that parses this merged input: every key but the optional, lazily built ones it does
 * not set. Left out, such a key adds nothing to the output (it has no default), so the result is
 * the whole schema's; an unknown key is still refused, by the strict object.
 */
export function configSchemaFor(raw: Readonly<Record<string, unknown>>) {
  const shape = configSchema.shape;
  const mask: Partial<Record<ConfigKey, true>> = {};
  for (const key of Object.keys(shape) as ConfigKey[]) {
    const schema = shape[key];
    const lazy = schema instanceof z.ZodOptional && schema.def.innerType instanceof z.ZodLazy;
    if (!lazy || Object.hasOwn(raw, key)) mask[key] = true;
  }
  // Thresholds on declared metrics, checked even when other keys failed (every problem at once).
  return configSchema.pick(mask).superRefine(checkThresholds, { when: () => true });
}
