/**
 * `outputs:` → the OutputsPlan: each receiver's URL and the headers its requests carry. Credentials
 * become an Authorization header: `token` as `Bearer` (`Token` for InfluxDB, as its v2 API reads
 * it), `username`/`password` or the URL's own userinfo as `Basic`; the URL keeps no userinfo, so
 * no report or message can show it. An OTLP URL without a path gets the signal's `/v1/metrics`,
 * as OTEL_EXPORTER_OTLP_ENDPOINT does.
 */
import { basicCredentials, basicFromUserinfo } from '../grammar/url-userinfo.js';
import type { Config } from '../schema/config-schema.js';
import type { OutputPlan, OutputsPlan } from '../../model/plan/output-plan.js';

type OutputConfig = NonNullable<Config['outputs']>[number];

/** The plan of the configuration's outputs. */
export function compileOutputs(config: Config): OutputsPlan {
  return {
    outputs: (config.outputs ?? []).map(compileOutput),
    periodMs: config.output_period,
  };
}

function compileOutput(output: OutputConfig): OutputPlan {
  const headers: Record<string, string> = { ...output.headers };
  let target = output.file ?? '';
  if (output.url !== undefined) {
    const url = new URL(output.url);
    // The schema refused a malformed escape (outputs-schema.ts).
    const basic = basicFromUserinfo(url);
    if (basic.ok && basic.value !== undefined) headers.Authorization = basic.value;
    url.username = '';
    url.password = '';
    if (output.type === 'otlp' && url.pathname === '/') url.pathname = '/v1/metrics';
    target = url.href;
  }
  if (output.username !== undefined || output.password !== undefined)
    headers.Authorization = basicCredentials(output.username ?? '', output.password ?? '');
  if (output.token !== undefined)
    headers.Authorization = `${output.type === 'influxdb' ? 'Token' : 'Bearer'} ${output.token}`;
  return { kind: output.type, target, headers, trendAs: output.trend_as ?? 'native' };
}
