import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPlan, type LoadInputs } from '../../dsl/load-plan.js';
import type { Plan } from '../../model/plan/plan.js';
import { topLevelLoad, type TopLevelLoad } from '../../model/plan/scenario-plan.js';
import { bundleScenario } from '../../dsl/script/bundle-scenario.js';

/** The top-level load a plan's one scenario carries. */
function loadOf(plan: Plan): TopLevelLoad | undefined {
  return topLevelLoad(plan.scenarios, plan.namedScenarios);
}

/** A directory with the given files. */
function files(entries: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-scenario-'));
  for (const [name, text] of Object.entries(entries)) writeFileSync(join(dir, name), text);
  return dir;
}

async function load(cwd: string, flags: Record<string, unknown>, configFile?: string) {
  const inputs: LoadInputs = {
    cwd,
    env: {},
    execPath: process.execPath,
    configFile,
    flags: {
      name: 'flags',
      values: flags,
      sourceOf: () => ({ kind: 'flag', flag: '--x' }),
      secretPaths: new Set(),
      secretValues: new Set(),
    },
    flagIssues: [],
    userAgent: 'barrage/test',
    fallbackSeed: 1,
    // The type check is test/dsl/type-check.test.ts's; it starts a TypeScript compiler per load.
    typecheck: false,
  };
  return loadPlan(inputs);
}

const SOURCE = { kind: 'flag', flag: '--scenario' } as const;

t.test(
  'bundles the file and its local imports into one wrapped script with a source map',
  async (t) => {
    const dir = files({
      'main.ts':
        "import { http } from 'barrage';\nimport { path } from './lib';\nexport default async function () { await http.get(path); }\n",
      'lib.ts': "export const path: string = '/json';\n",
    });
    const bundled = await bundleScenario({
      path: join(dir, 'main.ts'),
      shown: 'flows/main.ts',
      source: SOURCE,
    });
    t.ok(bundled.ok);
    if (!bundled.ok) return;
    t.match(bundled.value.code, /^\(function \(__barrageApi\) \{\n/);
    t.match(bundled.value.code, /["']\/json["']/);
    const map = JSON.parse(bundled.value.sourceMap) as { sources: string[] };
    t.ok(
      map.sources.includes('flows/main.ts') && map.sources.includes('flows/lib.ts'),
      String(map.sources),
    );
  },
);

t.test('a file that does not compile is a script_error with esbuild’s location', async (t) => {
  const dir = files({ 'bad.ts': 'export default async function () {\n  const x = ;\n}\n' });
  const bundled = await bundleScenario({
    path: join(dir, 'bad.ts'),
    shown: 'bad.ts',
    source: SOURCE,
  });
  t.notOk(bundled.ok);
  if (bundled.ok) return;
  t.equal(bundled.error[0]!.code, 'script_error');
  t.same(bundled.error[0]!.source, { kind: 'file', file: 'bad.ts', line: 2, column: 13 });
});

t.test('node: modules and packages are refused with file:line:column', async (t) => {
  const dir = files({
    'esc.ts':
      "import { readFileSync } from 'node:fs';\nimport 'lodash';\nexport default async function () { readFileSync('/etc/passwd'); }\n",
  });
  const bundled = await bundleScenario({
    path: join(dir, 'esc.ts'),
    shown: 'esc.ts',
    source: SOURCE,
  });
  t.notOk(bundled.ok);
  if (bundled.ok) return;
  t.same(
    bundled.error.map((i) => [i.actual, i.source]),
    [
      ['an import of "node:fs"', { kind: 'file', file: 'esc.ts', line: 1, column: 30 }],
      ['an import of "lodash"', { kind: 'file', file: 'esc.ts', line: 2, column: 8 }],
    ],
  );
});

t.test('a missing scenario file names the flag', async (t) => {
  const bundled = await bundleScenario({
    path: '/nonexistent/x.ts',
    shown: 'x.ts',
    source: SOURCE,
  });
  t.notOk(bundled.ok);
  if (!bundled.ok)
    t.same([bundled.error[0]!.code, bundled.error[0]!.source], ['file_not_found', SOURCE]);
});

t.test(
  'options sit at the file’s precedence: below flags and the configuration file',
  async (t) => {
    const dir = files({
      's.ts':
        "export const options = { concurrency: 7, requests: 30, timeout: '2s', thresholds: ['checks:rate > 0.9'] };\nexport default async function () {}\n",
      'run.yaml':
        'scenario: s.ts\ntarget: http://127.0.0.1:9\nrequests: 40\nthresholds: ["http_req_failed:rate < 0.1"]\n',
    });
    const only = await load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
    t.ok(only.ok);
    if (only.ok) {
      t.equal(loadOf(only.value.plan)?.workers, 7);
      t.equal(loadOf(only.value.plan)?.iterations, 30);
      t.equal(only.value.plan.timeoutMs, 2000);
      t.ok(only.value.plan.script?.code.includes('__barrageApi'));
      t.ok(only.value.plan.script?.headers.some((h) => h.name === 'user-agent'));
    }
    const flagged = await load(dir, {
      scenario: 's.ts',
      target: 'http://127.0.0.1:9',
      concurrency: 3,
    });
    t.equal(flagged.ok && loadOf(flagged.value.plan)?.workers, 3, 'a flag wins over options');
    const filed = await load(dir, {}, 'run.yaml');
    t.ok(filed.ok);
    if (filed.ok) {
      t.equal(loadOf(filed.value.plan)?.iterations, 40, 'the configuration file wins over options');
      t.equal(loadOf(filed.value.plan)?.workers, 7, 'options fill what the file leaves');
      t.same(
        filed.value.plan.thresholds.map((th) => th.expression),
        ['checks:rate > 0.9', 'http_req_failed:rate < 0.1'],
        'thresholds accumulate, lowest layer first',
      );
    }
  },
);

t.test('options are validated like any layer, and may not name what runs', async (t) => {
  const dir = files({
    's.ts':
      "export const options = { concurrency: 'many', endpoints: [] };\nexport default async function () {}\n",
    'throws.ts':
      "export const options = (() => { throw new Error('no options'); })();\nexport default async function () {}\n",
  });
  const bad = await load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
  t.notOk(bad.ok);
  if (!bad.ok) {
    t.same(
      bad.error.issues.map((i) => [i.path.join('.'), i.source]),
      [['endpoints', { kind: 'scenario', file: 's.ts' }]],
    );
  }
  const throws = await load(dir, { scenario: 'throws.ts', target: 'http://127.0.0.1:9' });
  t.notOk(throws.ok);
  if (!throws.ok) t.match(throws.error.issues[0]!.actual, /no options/);
});

/** What a fixture folder holds: file text, a symlink, or a FIFO. */
type Entry = string | { readonly symlink: string } | { readonly fifo: true };

/**
 * A parent folder holding `outside` (files a scenario must not reach, among them secret.txt
 * and outside.ts, which hold SECRET) and the scenario folder scn/ holding `inside`.
 */
function tree(
  t: Test,
  inside: Record<string, Entry>,
  outside: Record<string, Entry> = {},
): { parent: string; dir: string } {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'barrage-sandbox-')));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'scn');
  const all: Record<string, Entry> = {
    'secret.txt': SECRET,
    'outside.ts': `export const secret = '${SECRET}';\n`,
    ...outside,
    ...Object.fromEntries(Object.entries(inside).map(([name, entry]) => [`scn/${name}`, entry])),
  };
  mkdirSync(dir);
  for (const [name, entry] of Object.entries(all)) {
    const path = join(parent, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof entry === 'string') writeFileSync(path, entry);
    else if ('symlink' in entry) symlinkSync(entry.symlink, path);
    else execFileSync('mkfifo', [path]);
  }
  return { parent, dir };
}

const SECRET = 'TOPSECRET-4729';

const bundleIn = (dir: string, name: string) =>
  bundleScenario({ path: join(dir, name), shown: `scn/${name}`, source: SOURCE });

t.test(
  'imports inside the folder bundle: a sibling, a subfolder, text, json and bytes',
  async (t) => {
    const { dir } = tree(t, {
      'main.ts': [
        "import { a } from './a';",
        "import { b } from './sub/b.ts';",
        "import text from './data.txt' with { type: 'text' };",
        "import data from './sub/data.json' with { type: 'json' };",
        "import bytes from './data.txt' with { type: 'bytes' };",
        'export default async function () { return [a, b, text, data.n, bytes.length]; }',
      ].join('\n'),
      'a.ts': "export const a = 'from-a';",
      'sub/b.ts': "export const b = 'from-b';",
      'data.txt': 'text-inside',
      'sub/data.json': '{ "n": "json-inside" }',
    });
    const bundled = await bundleIn(dir, 'main.ts');
    t.ok(bundled.ok, bundled.ok ? '' : JSON.stringify(bundled.error));
    if (!bundled.ok) return;
    t.match(bundled.value.code, /"use strict"/, 'strict, as modules are, with no tsconfig.json');
    for (const text of ['from-a', 'from-b', 'text-inside', 'json-inside'])
      t.ok(bundled.value.code.includes(text), text);
  },
);

t.test(
  'every way out of the folder is refused at the import, never showing what is there',
  async (t) => {
    const cases: [string, string, RegExp][] = [
      ['relative', "import { secret } from '../outside';", /"\.\.\/outside", which is outside/],
      [
        'absolute',
        "import { secret } from 'PARENT/outside.ts';",
        /"\/.*\/outside\.ts", which is outside/,
      ],
      [
        'environ',
        "import secret from '/proc/self/environ' with { type: 'text' };",
        /"\/proc\/self\/environ"/,
      ],
      [
        'symlinked file',
        "import secret from './link.txt' with { type: 'text' };",
        /"\.\/link\.txt", which is outside/,
      ],
      [
        'symlinked folder',
        "import secret from './up/secret.txt' with { type: 'text' };",
        /"\.\/up\/secret\.txt", which is outside/,
      ],
      [
        'found through a symlink',
        "import { secret } from './linked';",
        /"\.\/linked", which leads outside it \(to \.\.\/outside\.ts\)/,
      ],
      ['require', "const { secret } = require('../outside');", /"\.\.\/outside"/],
      ['dynamic import', "const secret = import('../outside.ts');", /"\.\.\/outside\.ts"/],
      ['tsconfig paths', "import { secret } from '@out/outside';", /"@out\/outside"$/],
      ['package', "import secret from 'lodash';", /"lodash"$/],
      [
        'FIFO inside',
        "import secret from './pipe' with { type: 'text' };",
        /"\.\/pipe", which is not one/,
      ],
    ];
    for (const [name, line, actual] of cases) {
      const { dir, parent } = tree(t, {
        'main.ts': `${line.replace('PARENT', '')}\nexport default async function () { return secret; }\n`,
        'link.txt': { symlink: '../secret.txt' },
        up: { symlink: '..' },
        'linked.ts': { symlink: '../outside.ts' },
        pipe: { fifo: true },
        'tsconfig.json':
          '{ "compilerOptions": { "baseUrl": ".", "paths": { "@out/*": ["../*"] } } }',
      });
      if (line.includes('PARENT'))
        writeFileSync(
          join(dir, 'main.ts'),
          `${line.replace('PARENT', parent)}\nexport default async function () { return secret; }\n`,
        );
      const bundled = await bundleIn(dir, 'main.ts');
      t.notOk(bundled.ok, name);
      if (bundled.ok) continue;
      t.equal(bundled.error.length, 1, name);
      const issue = bundled.error[0]!;
      t.equal(issue.code, 'script_error', name);
      t.match(issue.source, { kind: 'file', file: 'scn/main.ts', line: 1 }, name);
      t.ok(issue.source.kind === 'file' && (issue.source.column ?? 0) > 1, `${name}: a column`);
      t.match(issue.actual, actual, name);
      t.notOk(JSON.stringify(issue).includes(SECRET), `${name}: no contents`);
    }
  },
);

t.test(
  'no tsconfig.json is read: an extends naming a FIFO outside does not hang the bundle',
  { timeout: 20_000 },
  async (t) => {
    const { dir } = tree(
      t,
      {
        'main.ts': "import { a } from './a';\nexport default async function () { return a; }\n",
        'a.ts': "export const a = 'from-a';",
        'tsconfig.json': '{ "extends": "../base.json" }',
      },
      { 'base.json': { fifo: true } },
    );
    const bundled = await bundleIn(dir, 'main.ts');
    t.ok(bundled.ok, bundled.ok ? '' : JSON.stringify(bundled.error));
  },
);

t.test(
  'a scenario path that is not a regular file is refused before anything opens it',
  async (t) => {
    const { dir } = tree(t, { 'pipe.ts': { fifo: true }, 'folder.ts/a.ts': 'export {};' });
    for (const [path, code, actual] of [
      [join(dir, 'pipe.ts'), 'file_unreadable', /which is not a regular file$/],
      [join(dir, 'folder.ts'), 'file_unreadable', /which is a directory$/],
      ['/dev/zero', 'file_unreadable', /which is not a regular file$/],
      [join(dir, 'missing.ts'), 'file_not_found', /which does not exist$/],
    ] as const) {
      const bundled = await bundleScenario({ path, shown: path, source: SOURCE });
      t.notOk(bundled.ok, path);
      if (bundled.ok) continue;
      t.same([bundled.error[0]!.code, bundled.error[0]!.source], [code, SOURCE], path);
      t.match(bundled.error[0]!.actual, actual, path);
    }
  },
);

t.test('a symlinked scenario file is read from its real folder', async (t) => {
  const { parent } = tree(
    t,
    {
      'main.ts': "import { a } from './a';\nexport default async function () { return a; }\n",
      'a.ts': "export const a = 'from-real-folder';",
      'escape.ts':
        "import { b } from '../links/b';\nexport default async function () { return b; }\n",
    },
    {
      'links/main.ts': { symlink: '../scn/main.ts' },
      'links/escape.ts': { symlink: '../scn/escape.ts' },
      'links/b.ts': "export const b = 'beside the link';",
    },
  );
  const links = join(parent, 'links');
  const good = await bundleScenario({
    path: join(links, 'main.ts'),
    shown: 'main.ts',
    source: SOURCE,
  });
  t.ok(good.ok && good.value.code.includes('from-real-folder'));
  const escape = await bundleScenario({
    path: join(links, 'escape.ts'),
    shown: 'escape.ts',
    source: SOURCE,
  });
  t.notOk(escape.ok, 'the link’s folder is not the scenario’s');
  if (!escape.ok) t.match(escape.error[0]!.actual, /"\.\.\/links\/b", which is outside/);
});

t.test(
  'options may not widen the sandbox: target, allowed_hosts, auth and report files are refused',
  async (t) => {
    const { dir } = tree(t, {});
    const cases: [string, string][] = [
      ["{ target: 'http://example.com' }", 'target'],
      ["{ allowed_hosts: ['example.com'] }", 'allowed_hosts'],
      ["{ auth: { type: 'bearer', token: 'x' } }", 'auth'],
      ...['json', 'html', 'junit', 'summary_md', 'raw'].map((key): [string, string] => [
        `{ report: { ${key}: '../leak' } }`,
        `report.${key}`,
      ]),
    ];
    for (const [options, key] of cases) {
      writeFileSync(
        join(dir, 's.ts'),
        `export const options = ${options};\nexport default async function () {}\n`,
      );
      const loaded = await load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
      t.notOk(loaded.ok, key);
      if (loaded.ok) continue;
      t.same(
        loaded.error.issues.map((i) => [i.code, i.path.join('.'), i.source, i.actual, i.hint]),
        [
          [
            'invalid_value',
            key,
            { kind: 'scenario', file: 's.ts' },
            `options.${key}`,
            'set it in the configuration file, a flag or the environment',
          ],
        ],
        key,
      );
    }
    writeFileSync(
      join(dir, 's.ts'),
      'export const options = { report: {} };\nexport default async function () {}\n',
    );
    const empty = await load(dir, { scenario: 's.ts', target: 'http://127.0.0.1:9' });
    t.notOk(empty.ok, 'even an empty report mapping');
    writeFileSync(
      join(dir, 's.ts'),
      'export const options = { requests: 1 };\nexport default async function () {}\n',
    );
    const flagged = await load(dir, {
      scenario: 's.ts',
      target: 'http://127.0.0.1:9',
      allowed_hosts: ['example.com'],
      report: { json: 'out.json' },
    });
    t.ok(flagged.ok, 'the same keys from the user are fine');
  },
);

t.test('a feeder file in options must be inside the scenario’s folder', async (t) => {
  const csv = 'user\nalice\n';
  const { parent, dir } = tree(
    t,
    { 'users.csv': csv, 'data/more.csv': csv, 'link.csv': { symlink: '../users.csv' } },
    { 'users.csv': csv },
  );
  const withFeeder = async (file: string) => {
    writeFileSync(
      join(dir, 's.ts'),
      `export const options = { feeder: { file: ${JSON.stringify(file)} } };\nexport default async function () {}\n`,
    );
    return load(parent, { scenario: 'scn/s.ts', target: 'http://127.0.0.1:9' });
  };
  for (const file of ['users.csv', 'data/more.csv', './data/../users.csv']) {
    const loaded = await withFeeder(file);
    t.ok(loaded.ok && loaded.value.plan.feeder?.records.count === 1, file);
  }
  for (const file of ['../users.csv', join(parent, 'users.csv'), 'link.csv', '/etc/passwd']) {
    const loaded = await withFeeder(file);
    t.notOk(loaded.ok, file);
    if (loaded.ok) continue;
    t.same(
      loaded.error.issues.map((i) => [i.path.join('.'), i.source, i.actual]),
      [
        [
          'feeder.file',
          { kind: 'scenario', file: 'scn/s.ts' },
          `${JSON.stringify(file)}, which is outside it`,
        ],
      ],
      file,
    );
  }
});
