// setup() and teardown() go through the segment's services as the load's requests do
// (runtime/segment/scenario-hooks.ts): the configured auth, a static bearer token or OAuth 2.0
// tokens fetched from the token endpoint, and the HTTP debug log. Before, their requests left
// without the Authorization every other request of the run had. Checked from the server's side:
// the Authorization each request arrived with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startTokenServer, type ReceivedRequest } from '../helpers/token-server.js';

const SCENARIO = `import { http } from 'barrage';
export async function setup() {
  await http.get('/api?from=setup');
  return {};
}
export default async function () {
  await http.get('/api?from=iteration');
}
export async function teardown() {
  await http.get('/api?from=teardown');
}
`;

const TOKEN = 'static-token-1';
const ISSUED = 'issued-token-7';

/** A token endpoint and an API on one server: the API answers 200 to either token, 401 otherwise. */
async function server(t: Test) {
  const answer = (request: ReceivedRequest) => {
    if (request.url === '/token')
      return {
        status: 200,
        json: { access_token: ISSUED, token_type: 'Bearer', expires_in: 3600 },
      };
    const auth = request.headers.authorization;
    return { status: auth === `Bearer ${TOKEN}` || auth === `Bearer ${ISSUED}` ? 200 : 401 };
  };
  const started = await startTokenServer(answer);
  t.teardown(() => started.close());
  return started;
}

/** What each API request of a phase (setup, iteration, teardown) arrived with. */
function authorizations(requests: readonly ReceivedRequest[]): Record<string, string[]> {
  const byPhase: Record<string, string[]> = {};
  for (const request of requests) {
    const from = /from=(\w+)/.exec(request.url)?.[1];
    if (from !== undefined) (byPhase[from] ??= []).push(request.headers.authorization ?? 'none');
  }
  return byPhase;
}

const cases = [
  { name: 'bearer', auth: "{ type: bearer, token: '${API_TOKEN}' }", sent: `Bearer ${TOKEN}` },
  {
    name: 'oauth2',
    auth: "{ type: oauth2, token_url: '{{base}}/token', client_id: c1, client_secret: '${SECRET}' }",
    sent: `Bearer ${ISSUED}`,
  },
];

for (const { name, auth, sent } of cases)
  t.test(`${name}: setup() and teardown() send the run's Authorization`, async (t) => {
    const api = await server(t);
    const dir = t.testdir({
      's.ts': SCENARIO,
      'load.yaml': `target: ${api.url}\nauth: ${auth.replace('{{base}}', api.url)}\n`,
    });
    const result = await runInProcess(
      [
        'run',
        'load.yaml',
        '--scenario',
        's.ts',
        '-n',
        '2',
        '-c',
        '1',
        '--http-debug=all',
        '--http-debug-file',
        'debug.ndjson',
        '--json-output',
        '--no-dashboard',
      ],
      { cwd: dir, env: { API_TOKEN: TOKEN, SECRET: 'client-secret-1' } },
    );
    t.equal(result.code, 0, result.stderr);
    t.same(authorizations(api.requests), {
      setup: [sent],
      iteration: [sent, sent],
      teardown: [sent],
    });
    const logged = readFileSync(join(dir, 'debug.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { url: string }).url.replace(api.url, ''));
    t.same(
      logged.filter((url) => url.startsWith('/api')).sort(),
      ['/api?from=iteration', '/api?from=iteration', '/api?from=setup', '/api?from=teardown'],
      "the HTTP debug log holds the hooks' requests too",
    );
  });
