// No answer of the target ends a run: the built CLI spawned against a real 127.0.0.1 server that
// answers every request with one odd body (JSON scalars, nesting deeper than JSONPath can walk,
// invalid JSON, no body, bytes that are not UTF-8, a BOM), read by every kind of extractor at
// several paths. Each run must end normally, decide its exit code by its thresholds, count a body
// it cannot read as `extract_error`, and write every report file.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import {
  DEEP_ARRAYS,
  EXTRACT_ERROR,
  ODD_BODIES,
  ODD_PATHS,
  type Yield,
} from '../helpers/odd-bodies.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';
import { checkJunitSchema, xmllintSkip } from '../helpers/xmllint.js';

/** A target that answers GET /body with `body` and records what POST /use/<n> receives. */
async function oddTarget(
  t: Test,
  body: Buffer,
): Promise<{ url: string; used: Map<string, string[]> }> {
  const used = new Map<string, string[]>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const use = /^\/use\/(\w+)$/.exec(req.url ?? '')?.[1];
      if (use !== undefined) {
        used.set(use, [...(used.get(use) ?? []), Buffer.concat(chunks).toString('utf8')]);
        res.end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-id': 'h-1' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, used };
}

/** Extractors of the scenario: name → (YAML of the extractor, the path whose yield it has). */
const EXTRACTORS: readonly {
  readonly name: string;
  readonly yaml: string;
  readonly path?: string;
}[] = [
  ...ODD_PATHS.map((path, i) => ({ name: `p${i}`, yaml: JSON.stringify(path), path })),
  { name: 'json', yaml: `{ json: "$.a" }`, path: '$.a' },
  { name: 'header', yaml: '{ header: X-Id }' },
];

/**
 * Each extractor reads /body into its variable, then POSTs it to /use/<name>: the target sees
 * exactly the extracted text, or nothing (missing_variable) when the extractor found none.
 */
function scenario(url: string, reports: string): string {
  const endpoints = EXTRACTORS.flatMap((e) => [
    `  - { name: ${e.name}, url: /body, extract: { v_${e.name}: ${e.yaml} } }`,
    `  - { name: use_${e.name}, method: POST, url: /use/${e.name}, body: "{{v_${e.name}}}" }`,
  ]);
  const steps = EXTRACTORS.flatMap((e) => [e.name, `use_${e.name}`]).join(', ');
  return [
    `target: ${url}`,
    'concurrency: 1',
    'requests: 1',
    'endpoints:',
    ...endpoints,
    `flows: [{ name: all, steps: [${steps}] }]`,
    'thresholds:',
    '  - "http_requests:count > 0"',
    // Fails only when the root itself cannot be read: the exit code follows the thresholds.
    '  - "http_req_failed{endpoint=p0}:count == 0"',
    'report:',
    `  json: ${join(reports, 'result.json')}`,
    `  html: ${join(reports, 'report.html')}`,
    `  junit: ${join(reports, 'junit.xml')}`,
    `  summary_md: ${join(reports, 'summary.md')}`,
    '',
  ].join('\n');
}

/** Every report file exists and parses, and says what the printed JSON result says. */
function checkReports(t: Test, dir: string, printed: JsonResult): void {
  const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as JsonResult;
  t.equal(json.total, printed.total, 'result.json');
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const data = /<script type="application\/json" id="barrage-data">(.*?)<\/script>/s.exec(html);
  t.ok(data, 'report.html embeds its data');
  t.equal((JSON.parse(data?.[1] ?? 'null') as JsonResult | null)?.total, printed.total);
  t.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /Thresholds: \d\/2 passed/);
  t.ok(existsSync(join(dir, 'junit.xml')), 'junit.xml');
  if (xmllintSkip(process.env) === false) {
    const check = checkJunitSchema(readFileSync(join(dir, 'junit.xml'), 'utf8'), dir, 'check.xml');
    t.ok(check.ok, check.messages);
  }
}

/** The endpoint's entry in the result. */
function endpoint(result: JsonResult, name: string): JsonResult['endpoints'][number] {
  const found = result.endpoints.find((e) => e.name === name);
  if (found === undefined) throw new Error(`no endpoint ${name} in the result`);
  return found;
}

function checkExtractor(
  t: Test,
  result: JsonResult,
  used: Map<string, string[]>,
  name: string,
  expected: Yield,
): void {
  const ask = endpoint(result, name);
  const use = endpoint(result, `use_${name}`);
  if (expected === EXTRACT_ERROR) {
    t.same(ask.errors, { extract_error: 1 }, `${name}: extract_error`);
  } else {
    t.equal(ask.failures, 0, `${name}: the response is a success`);
  }
  if (typeof expected === 'string') {
    t.same(used.get(name), [expected], `${name}: the target got the extracted text`);
    t.equal(use.failures, 0);
  } else {
    t.equal(used.get(name), undefined, `${name}: nothing was extracted, nothing sent`);
    t.equal(use.requests, 0, `${name}: no request`);
    t.equal(
      result.unsent_causes[`missing_variable: {{v_${name}}} in endpoint use_${name}, body`],
      1,
      `${name}: counted unsent as missing_variable`,
    );
  }
}

for (const body of ODD_BODIES) {
  t.test(`a target answering ${body.name}`, async (t) => {
    const target = await oddTarget(t, body.bytes);
    const dir = t.testdir({ reports: {} });
    const reports = join(dir, 'reports');
    const config = join(dir, 'load.yaml');
    writeFileSync(config, scenario(target.url, reports));
    const result = await runInProcess(['run', '--config', config, '--json-output']);
    t.notMatch(result.stderr, /internal error|\n\s+at /, 'no crash, no stack trace');
    const printed = JSON.parse(result.stdout) as JsonResult;
    const rootFails = body.expect.$ === EXTRACT_ERROR;
    t.equal(result.code, rootFails ? 1 : 0, 'the thresholds decide the exit code');
    t.equal(printed.thresholds?.failed, rootFails ? 1 : 0);
    t.equal(printed.total + printed.unsent, EXTRACTORS.length * 2, 'every step ran or was counted');
    for (const extractor of EXTRACTORS) {
      const expected =
        extractor.path === undefined
          ? 'h-1'
          : body.expect[extractor.path as keyof typeof body.expect];
      checkExtractor(t, printed, target.used, extractor.name, expected);
    }
    checkReports(t, reports, printed);
  });
}

t.test('a JSONPath jsonpath-plus throws on is refused before anything is sent', async (t) => {
  const target = await oddTarget(t, Buffer.from('{}'));
  const dir = t.testdir({
    'load.yaml': `target: ${target.url}\nrequests: 1\nendpoints:\n  - url: /body\n    extract: { a: "$.@" }\nreport: { json: out.json }\n`,
  });
  const result = await runCli(['run', '--config', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 1);
  t.equal(result.stdout, '');
  t.match(result.stderr, /load\.yaml:5:\d+: endpoints\[0\]\.extract\.a: expected a JSONPath/);
  t.notOk(existsSync(join(dir, 'out.json')));
});

t.test(
  'a WebSocket reply nested too deep to read fails its session as extract_error',
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const ws = server.url.replace(/^http/, 'ws');
    const dir = t.testdir({
      'ws.yaml': [
        'concurrency: 1',
        'requests: 3',
        'endpoints:',
        `  - { url: "${ws}/ws/echo", messages: [{ text: "${DEEP_ARRAYS}" }], extract: { all: "$..*" } }`,
        'report: { json: out.json }',
        '',
      ].join('\n'),
    });
    const result = await runCli(['run', '--config', 'ws.yaml', '--json-output'], { cwd: dir });
    t.equal(result.code, 1, 'no session succeeded: the run proved nothing');
    const printed = JSON.parse(result.stdout) as JsonResult;
    t.same(printed.errors, { extract_error: 3 });
    t.equal(printed.websocket?.failures, 3);
    t.ok(existsSync(join(dir, 'out.json')));
  },
);

t.test("a scenario's json(path) reads a scalar body without a throw", async (t) => {
  const target = await oddTarget(t, Buffer.from('0'));
  const dir = t.testdir({
    'scalar.ts': [
      "import { check, http } from 'barrage';",
      'export default async function (): Promise<void> {',
      "  const r = await http.get('/body');",
      '  check(r, {',
      "    'the root of 0 is 0': (res) => res.json('$') === 0,",
      "    'nothing else is in it': (res) => res.json('$.a') === undefined && res.json('$[0]') === undefined,",
      '  });',
      '}',
      '',
    ].join('\n'),
  });
  const result = await runCli(
    [
      'run',
      '--scenario',
      'scalar.ts',
      '--target',
      target.url,
      '-n',
      '2',
      '-c',
      '1',
      '--json-output',
    ],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const printed = JSON.parse(result.stdout) as JsonResult;
  t.same(printed.errors, {});
  t.same(printed.checks?.by_name, {
    'the root of 0 is 0': { passes: 2, fails: 0 },
    'nothing else is in it': { passes: 2, fails: 0 },
  });
});

t.test(
  'an extracted value holding a line feed: a header or a raw url using it is unsent, invalid_request',
  async (t) => {
    const target = await oddTarget(t, Buffer.from('{"a":"x\\r\\nX-Injected: 1"}'));
    const dir = t.testdir({
      'load.yaml': [
        `target: ${target.url}`,
        'concurrency: 1',
        'requests: 1',
        'endpoints:',
        '  - { name: ask, url: /body, extract: { v: $.a } }',
        '  - { name: header, method: POST, url: /use/header, headers: { X-V: "{{v}}" } }',
        // In a url, {{v}} is percent-encoded (%0D%0A); {{$raw v}} goes as it is.
        '  - { name: url, method: POST, url: "/use/url?{{$raw v}}" }',
        'flows: [{ name: f, steps: [ask, header, url] }]',
        '',
      ].join('\n'),
    });
    const result = await runCli(['run', '--config', 'load.yaml', '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as JsonResult;
    t.same(printed.unsent_causes, {
      'invalid_request: in endpoint header': 1,
      'invalid_request: in endpoint url': 1,
    });
    t.equal(target.used.size, 0, 'nothing was sent with it');
  },
);
