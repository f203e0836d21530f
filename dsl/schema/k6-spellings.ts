/**
 * k6's spelling of what barrage refuses, answered with barrage's: a scenario's `options` pasted
 * from k6 (`vus`, `iterations`, `stages`), a k6-style camelCase key (`maxRedirects`, `startVUs`)
 * and k6's `--out` names (`experimental-prometheus-rw`, `csv`) get what to write instead of a
 * distant "did you mean".
 */

/** Top-level k6 options and what barrage calls them. */
const TOP_LEVEL: Readonly<Record<string, string>> = {
  vus: "k6's vus is barrage's concurrency (the virtual users)",
  iterations: "k6's iterations is barrage's requests (the run's total iterations)",
  stages:
    "k6's stages is a ramping-vus scenario: scenarios: { default: { executor: ramping-vus, stages: [...] } } (docs/from-k6.md); pattern ramps a rate instead",
  rps: "k6's rps is barrage's rate (iterations a second)",
  insecureSkipTLSVerify: "k6's insecureSkipTLSVerify is barrage's insecure",
};

/** The hint for an unknown `key` at `path` whose siblings are `known`, when k6 spells it so. */
export function k6KeyHint(
  path: readonly (string | number)[],
  key: string,
  known: readonly string[],
): string | undefined {
  if (path.length === 0 && Object.hasOwn(TOP_LEVEL, key)) return TOP_LEVEL[key];
  if (!/[A-Z]/.test(key)) return undefined;
  // startVUs → start_vus: the same letters, in snake_case.
  const letters = key.toLowerCase();
  const snake = known.find((k) => k.includes('_') && k.replaceAll('_', '') === letters);
  return snake === undefined ? undefined : `keys are snake_case here: write ${snake}`;
}

/** k6's output names (`-o NAME[=ARG]`) and barrage's form of each, or why there is none. */
const OUTPUTS: Readonly<Record<string, string>> = {
  'experimental-prometheus-rw': "k6's experimental-prometheus-rw is prometheus-rw=URL here",
  'experimental-opentelemetry': "k6's experimental-opentelemetry is otlp=URL here",
  opentelemetry: "k6's opentelemetry is otlp=URL here",
  influxdb: 'influxdb=URL takes a write URL here (…/write?db=NAME or …/api/v2/write)',
  json: 'json=FILE here: the NDJSON stream needs a file',
  csv: 'there is no csv output; json=FILE writes NDJSON, --json FILE the result',
  cloud: 'there is no cloud output; prometheus-rw=URL or otlp=URL reach Grafana Cloud',
  'web-dashboard':
    'the live dashboard is on by default on a terminal; --html FILE writes the report',
};

/** The hint for an output text no kind of barrage's reads, when it is k6's. */
export function k6OutputHint(text: string): string | undefined {
  const name = text.split('=', 1)[0]!;
  return Object.hasOwn(OUTPUTS, name) ? OUTPUTS[name] : undefined;
}
