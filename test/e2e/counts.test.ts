/**
 * Counts that match the wire (issue 23): a request that never left the machine is not a request.
 * The server counts what it saw; barrage's totals must equal it, with the unsent ones apart and
 * named by their cause.
 */
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

async function target(t: Test): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end('not json');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

interface JsonResult {
  readonly total: number;
  readonly failures: number;
  readonly requests_per_sec: number;
  readonly errors: Record<string, number>;
  readonly unsent: number;
  readonly unsent_errors: Record<string, number>;
  readonly unsent_causes: Record<string, number>;
}

t.test('every request unsent: 0 requests, the unsent count and its cause', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    // Only list extracts {{id}}, and no flow runs it: every request of item lacks it.
    'load.yaml': `target: ${server.url}\nrequests: 5\nconcurrency: 1\nendpoints:\n  - { name: list, url: /list, extract: { id: "$.id" } }\n  - { name: item, url: "/x/{{id}}" }\nflows:\n  - { name: f, steps: [item] }\n`,
  });
  const json = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(json.code, 1, 'nothing was sent: the run failed');
  t.match(
    json.stderr,
    'barrage: the run failed: no request was sent: 5 unsent (missing_variable: {{id}} in endpoint item, url: 5)',
  );
  const r = JSON.parse(json.stdout) as JsonResult;
  t.equal(server.seen.length, 0, 'the server saw nothing');
  t.strictSame([r.total, r.failures, r.requests_per_sec], [0, 0, 0]);
  t.equal(r.unsent, 5);
  t.strictSame(r.unsent_errors, { missing_variable: 5 });
  t.strictSame(r.unsent_causes, { 'missing_variable: {{id}} in endpoint item, url': 5 });
  const text = await runCli(['run', 'load.yaml', '--no-dashboard'], { cwd: dir });
  t.match(text.stdout, /Total Requests: 0\n/);
  t.match(text.stdout, /Unsent: 5 requests were never sent/);
  t.match(
    text.stdout,
    /WARNING: most requests were never sent \(5 unsent, 0 sent\); the first cause: missing_variable: \{\{id\}\} in endpoint item, url\./,
  );
});

t.test('a flow whose second step cannot be built: only the first is a request', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}\nrequests: 4\nconcurrency: 2\nendpoints:\n  - { name: list, url: /list, extract: { id: "$.items[0].id" } }\n  - { name: item, url: "/item/{{id}}" }\nflows:\n  - { name: f, steps: [list, item] }\n`,
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const r = JSON.parse(result.stdout) as JsonResult;
  t.equal(server.seen.length, 4);
  t.equal(r.total, 4, 'the requests the server saw');
  t.equal(r.failures, 0);
  t.strictSame(r.errors, {});
  t.strictSame(r.unsent_causes, { 'missing_variable: {{id}} in endpoint item, url': 4 });
});
