import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlan, type LoadInputs } from '../../dsl/load-plan.js';
import { bundleScenario } from '../../dsl/script/bundle-scenario.js';

/** A directory with the given files. */
function files(entries: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-scenario-'));
  for (const [name, text] of Object.entries(entries)) writeFileSync(join(dir, name), text);
  return dir;
}

function load(cwd: string, flags: Record<string, unknown>, configFile?: string) {
  const inputs: LoadInputs = {
    cwd,
    env: {},
    configFile,
    flags: {
      name: 'flags',
      values: flags,
      sourceOf: () => ({ kind: 'flag', flag: '--x' }),
      secretPaths: new Set(),
    },
    flagIssues: [],
    userAgent: 'barrage/test',
    fallbackSeed: 1,
  };
  return loadPlan(inputs);
}

const SOURCE = { kind: 'flag', flag: '--scenario' } as const;

t.test('bundles the file and its local imports into one wrapped script with a source map', (t) => {
  const dir = files({
    'main.ts':
      "import { http } from 'barrage';\nimport { path } from './lib';\nexport default async function () { await http.get(path); }\n",
    'lib.ts': "export const path: string = '/json';\n",
  });
  const bundled = bundleScenario({
    path: join(dir, 'main.ts'),
    shown: 'flows/main.ts',
    source: SOURCE,
  });
  t.ok(bundled.ok);
  if (!bundled.ok) return t.end();
  t.match(bundled.value.code, /^\(function \(__barrageApi\) \{\n/);
  t.match(bundled.value.code, /["']\/json["']/);
  const map = JSON.parse(bundled.value.sourceMap) as { sources: string[] };
  t.ok(
    map.sources.includes('flows/main.ts') && map.sources.includes('flows/lib.ts'),
    String(map.sources),
  );
  t.end();
});

t.test('a file that does not compile is a script_error with esbuild’s location', (t) => {
  const dir = files({ 'bad.ts': 'export default async function () {\n  const x = ;\n}\n' });
  const bundled = bundleScenario({ path: join(dir, 'bad.ts'), shown: 'bad.ts', source: SOURCE });
  t.notOk(bundled.ok);
  if (bundled.ok) return t.end();
  t.equal(bundled.error[0]!.code, 'script_error');
  t.same(bundled.error[0]!.source, { kind: 'file', file: 'bad.ts', line: 2, column: 13 });
  t.end();
});

t.test('node: modules and packages are refused with file:line:column', (t) => {
  const dir = files({
    'esc.ts':
      "import { readFileSync } from 'node:fs';\nimport 'lodash';\nexport default async function () { readFileSync('/etc/passwd'); }\n",
  });
  const bundled = bundleScenario({ path: join(dir, 'esc.ts'), shown: 'esc.ts', source: SOURCE });
  t.notOk(bundled.ok);
  if (bundled.ok) return t.end();
  t.same(
    bundled.error.map((i) => [i.actual, i.source]),
    [
      ['an import of "node:fs"', { kind: 'file', file: 'esc.ts', line: 1, column: 30 }],
      ['an import of "lodash"', { kind: 'file', file: 'esc.ts', line: 2, column: 8 }],
    ],
  );
  t.end();
});

t.test('a missing scenario file names the flag', (t) => {
  const bundled = bundleScenario({ path: '/nonexistent/x.ts', shown: 'x.ts', source: SOURCE });
  t.notOk(bundled.ok);
  if (!bundled.ok)
    t.same([bundled.error[0]!.code, bundled.error[0]!.source], ['file_not_found', SOURCE]);
  t.end();
});

t.test('options sit at the file’s precedence: below flags and the configuration file', (t) => {
  const dir = files({
    's.ts':
      "export const options = { concurrency: 7, requests: 30, timeout: '2s', thresholds: ['checks:rate > 0.9'] };\nexport default async function () {}\n",
    'run.yaml':
      'scenario: s.ts\ntarget: http://127.0.0.1:9\nrequests: 40\nthresholds: ["http_req_failed:rate < 0.1"]\n',
  });
  const only = load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
  t.ok(only.ok);
  if (only.ok) {
    t.equal(only.value.plan.concurrency, 7);
    t.equal(only.value.plan.requests, 30);
    t.equal(only.value.plan.timeoutMs, 2000);
    t.ok(only.value.plan.script?.code.includes('__barrageApi'));
    t.ok(only.value.plan.script?.headers.some((h) => h.name === 'user-agent'));
  }
  const flagged = load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9', concurrency: 3 });
  t.equal(flagged.ok && flagged.value.plan.concurrency, 3, 'a flag wins over options');
  const filed = load(dir, {}, 'run.yaml');
  t.ok(filed.ok);
  if (filed.ok) {
    t.equal(filed.value.plan.requests, 40, 'the configuration file wins over options');
    t.equal(filed.value.plan.concurrency, 7, 'options fill what the file leaves');
    t.same(
      filed.value.plan.thresholds.map((th) => th.expression),
      ['checks:rate > 0.9', 'http_req_failed:rate < 0.1'],
      'thresholds accumulate, lowest layer first',
    );
  }
  t.end();
});

t.test('options are validated like any layer, and may not name what runs', (t) => {
  const dir = files({
    's.ts':
      "export const options = { concurrency: 'many', endpoints: [] };\nexport default async function () {}\n",
    'throws.ts':
      "export const options = (() => { throw new Error('no options'); })();\nexport default async function () {}\n",
  });
  const bad = load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
  t.notOk(bad.ok);
  if (!bad.ok) {
    t.same(
      bad.error.issues.map((i) => [i.path.join('.'), i.source]),
      [['endpoints', { kind: 'scenario', file: 's.ts' }]],
    );
  }
  const throws = load(dir, { scenario: 'throws.ts', target: 'http://127.0.0.1:9' });
  t.notOk(throws.ok);
  if (!throws.ok) t.match(throws.error.issues[0]!.actual, /no options/);
  t.end();
});
