/**
 * What `barrage init` writes: a commented starter configuration (YAML) or TypeScript scenario for
 * one URL. Each names the keys a first test needs (target, load, one endpoint, thresholds) and
 * where the rest are documented; both validate as written (test/e2e/init.test.ts).
 */

/** The URL split as the starter needs it: the origin as target, the rest as the endpoint's path. */
export interface StarterTarget {
  readonly origin: string;
  /** Path and query, e.g. `/api/items?page=1`. */
  readonly path: string;
}

/** A YAML single-quoted scalar: `'` doubled. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The starter YAML. */
export function starterYaml(target: StarterTarget): string {
  return `# yaml-language-server: $schema=./node_modules/barrage-cli/barrage.schema.json
# A starter load test written by \`barrage init\`. Check it with \`barrage validate load.yaml\`,
# run it with \`barrage run load.yaml\`. Every key: docs/configuration.md.

target: ${quoted(target.origin)} # relative urls below are sent here (--target overrides it)
concurrency: 10 # virtual users (workers), each one request at a time (-c)
duration: 30s # how long the run lasts (-d)
# rate: 100 # a fixed number of requests a second instead of as fast as possible (-r)

endpoints:
  - name: home
    url: ${quoted(target.path)}
    # method: POST
    # headers: { Authorization: 'Bearer \${API_TOKEN}' } # \${NAME} reads the environment
    # body: { query: shoes } # a mapping is sent as JSON
    checks:
      - { name: status is 2xx, status: 2xx }

# The exit code is 1 when a threshold fails: a gate for CI.
thresholds:
  - 'http_req_duration:p95 < 500' # milliseconds
  - 'http_req_failed:rate < 0.01'
`;
}

/** The starter TypeScript scenario (its target comes from --target or a configuration). */
export function starterScript(target: StarterTarget): string {
  return `// A starter scenario written by \`barrage init --ts\`. Check it with
//   barrage validate load.ts --target ${target.origin}
// and run it with
//   barrage run load.ts --target ${target.origin}
// The API: docs/scenarios.md; coming from k6: docs/from-k6.md.
import { check, http, sleep } from 'barrage';

export const options = {
  concurrency: 10, // virtual users, each running the default function in a loop
  duration: '30s',
  thresholds: ['http_req_duration:p95 < 500', 'http_req_failed:rate < 0.01', 'checks:rate > 0.99'],
};

// One iteration of one virtual user. Every call of the API is awaited.
export default async function () {
  const res = await http.get(${JSON.stringify(target.path)}); // relative to --target
  check(res, { 'status is 2xx': (r) => r.status >= 200 && r.status < 300 });
  await sleep(1); // think time, in seconds
}
`;
}
