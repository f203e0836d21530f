// What each command loads at start-up (docs/performance.md, Start-up): the built CLI runs with a
// module hook that lists every file it loads and, at exit, Node's built-in modules; the packages
// are read from the bundle's own markers (esbuild names each module it bundles in a comment).
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/run-cli.js';

const HOOK = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const files = [];
// Only what loads after this hook: a test runner may load its own instrumentation before it.
const before = new Set(process.moduleLoadList);
registerHooks({
  load(url, context, next) {
    files.push(url);
    return next(url, context);
  },
});
process.on('exit', () =>
  writeFileSync(
    process.env.LOADS_OUT,
    JSON.stringify({ files, builtins: process.moduleLoadList.filter((m) => !before.has(m)) }),
  ),
);
`;

/** What a start loaded: bundled modules as "package/path", and Node's built-in modules. */
interface Loads {
  readonly modules: Set<string>;
  readonly packages: Set<string>;
  readonly builtins: Set<string>;
  /** Packages loaded from node_modules outside the bundle (esbuild, isolated-vm, typescript). */
  readonly external: Set<string>;
}

async function loadsOf(
  t: Test,
  argv: readonly string[],
  files: Record<string, string> = {},
): Promise<Loads> {
  const dir = t.testdir({ 'hook.mjs': HOOK, ...files });
  const out = join(dir, 'loads.json');
  // Through sh, which sets NODE_OPTIONS to our hook alone: tap adds its own --import to a child's
  // NODE_OPTIONS, and that loads node:crypto and node:child_process into the CLI's process.
  const child = spawn(
    'sh',
    ['-c', `NODE_OPTIONS="--import=$LOADS_HOOK" exec "$0" "$@"`, BIN, ...argv],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', LOADS_HOOK: join(dir, 'hook.mjs'), LOADS_OUT: out },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, stderr);
  const { files: urls, builtins } = JSON.parse(readFileSync(out, 'utf8')) as {
    files: string[];
    builtins: string[];
  };
  const modules = new Set<string>();
  for (const url of urls.filter((u) => u.startsWith('file:') && u.includes('/dist/')))
    for (const [, path] of readFileSync(fileURLToPath(url), 'utf8').matchAll(
      /^\/\/ .*?node_modules\/(\S+)$/gm,
    ))
      modules.add(path!);
  const packages = new Set(
    [...modules].map((m) =>
      m
        .split('/')
        .slice(0, m.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  );
  const native = builtins.filter((b) => b.startsWith('NativeModule ')).map((b) => b.slice(13));
  const external = new Set(
    urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.slice(1) ?? []),
  );
  return { modules, packages, builtins: new Set(native), external };
}

const PLAIN = `target: http://127.0.0.1:9
endpoints:
  - url: /a
    headers: { Accept: application/json }
  - url: /b
    extract: { id: $.id }
thresholds:
  - http_req_duration:p95 < 200
`;

t.test('--version loads no package; --help only the command parser', async (t) => {
  const version = await loadsOf(t, ['--version']);
  t.same([...version.packages], []);
  const help = await loadsOf(t, ['--help']);
  t.same([...help.packages], ['clipanion']);
  t.notOk(help.builtins.has('crypto'), 'node:crypto');
  t.same([...help.external], [], 'no package outside the bundle (typescript)');
});

t.test('validate loads zod and yaml, not what this configuration does not use', async (t) => {
  const loads = await loadsOf(t, ['validate', 'load.yaml'], { 'load.yaml': PLAIN });
  for (const needed of ['zod', 'yaml', 'clipanion']) t.ok(loads.packages.has(needed), needed);
  t.notOk(loads.modules.has('zod/v4/locales/de.js'), "zod's other locales");
  for (const unused of ['css-select', 'htmlparser2', 'entities', 'csv-parse', 'undici', 'ws'])
    t.notOk(loads.packages.has(unused), unused);
  for (const builtin of ['crypto', 'child_process']) t.notOk(loads.builtins.has(builtin), builtin);
  t.same([...loads.external], [], 'no package outside the bundle (typescript, esbuild)');
});

t.test('validate loads css-select when a check has a CSS selector', async (t) => {
  const withCss = `${PLAIN}    checks: [{ name: title, css: 'h1' }]\n`.replace(
    'thresholds:\n  - http_req_duration:p95 < 200\n',
    '',
  );
  const loads = await loadsOf(t, ['validate', 'load.yaml'], { 'load.yaml': withCss });
  t.ok(loads.packages.has('css-select'));
});

t.test(
  'a one-request run loads undici Client, not its index, nor the HTML, YAML, JSONPath, ws, SSE or HTTP/2 stacks',
  async (t) => {
    const server = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const loads = await loadsOf(t, ['run', '--target', url, '-n', '1', '-c', '1', '--quiet']);
    t.ok(loads.modules.has('undici/lib/dispatcher/client.js'), "undici's Client");
    t.notOk(loads.modules.has('undici/index.js'), "undici's index");
    t.notOk(loads.modules.has('hdr-histogram-js/dist/index.js'), "hdr-histogram-js's index");
    for (const unused of ['htmlparser2', 'css-select', 'entities', 'yaml', 'jsonpath-plus', 'ws'])
      t.notOk(loads.packages.has(unused), unused);
    t.notOk(loads.builtins.has('child_process'), 'node:child_process');
    t.notOk(
      loads.modules.has('undici/lib/web/eventsource/eventsource-stream.js'),
      "undici's EventSource parser (and its fetch)",
    );
    for (const builtin of ['http2', 'tls']) t.notOk(loads.builtins.has(builtin), builtin);
  },
);
