/**
 * What a scenario can read and what its options can widen (docs/scenarios.md, "Security model"),
 * as a user meets it: the built CLI, `run` and `validate`, against a target that counts every
 * byte it receives. Every way out is refused with exit 1 and a clear error, before one byte is
 * sent and without a file written anywhere near the scenario.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

const SECRET = 'TOPSECRET-8163';

/** A TCP server that counts every byte and answers each connection's first chunk with a 200. */
interface Counter {
  readonly url: string;
  readonly host: string;
  bytes: number;
  /** What arrived, as text. */
  text: string;
}

async function counter(t: Test): Promise<Counter> {
  const state = { url: '', host: '', bytes: 0, text: '' };
  const server: Server = createServer((socket) => {
    let answered = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      state.bytes += chunk.length;
      state.text += chunk.toString('utf8');
      if (answered) return;
      answered = true;
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  state.host = `127.0.0.1:${port}`;
  state.url = `http://${state.host}`;
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  return state;
}

/** What a fixture folder holds: file text, a symlink, or a FIFO. */
type Entry = string | { readonly symlink: string } | { readonly fifo: true };

/** A parent folder with secret.txt and outside.ts (both holding SECRET), and `files` in it. */
function fixture(t: Test, files: Record<string, Entry>): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'barrage-sandbox-e2e-')));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const all: Record<string, Entry> = {
    'secret.txt': SECRET,
    'outside.ts': `export const secret = '${SECRET}';\n`,
    ...files,
  };
  for (const [name, entry] of Object.entries(all)) {
    const path = join(parent, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof entry === 'string') writeFileSync(path, entry.replaceAll('PARENT', parent));
    else if ('symlink' in entry) symlinkSync(entry.symlink, path);
    else execFileSync('mkfifo', [path]);
  }
  return parent;
}

/** Every entry under `dir` with its type, size and modification time. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const s = lstatSync(join(dir, name));
      return `${name} ${s.mode} ${s.size} ${s.mtimeMs}`;
    });
}

/** A scenario that sends `what` (by default what it imported as `secret`) to the target or `url`. */
const sends = (head: string, what = 'String(secret)', url = "'/'"): string =>
  `import { feed, http } from 'barrage';\n${head}\nexport default async function () { await http.post(${url}, ${what}); }\n`;

interface Case {
  readonly name: string;
  readonly files: Record<string, Entry>;
  /** The scenario as passed to --scenario, relative to the parent folder. */
  readonly scenario?: string;
  /** What stderr must say. */
  readonly error: RegExp;
}

const CASES: readonly Case[] = [
  {
    name: 'a relative import out of the folder',
    files: { 'scn/main.ts': sends("import { secret } from '../outside';") },
    error:
      /scn\/main\.ts:2:24: scenario: expected files inside the scenario's folder .*, got an import of "\.\.\/outside", which is outside it/,
  },
  {
    name: 'an absolute import',
    files: { 'scn/main.ts': sends("import { secret } from 'PARENT/outside.ts';") },
    error: /scn\/main\.ts:2:24: .*got an import of ".*\/outside\.ts", which is outside it/,
  },
  {
    name: "/proc/self/environ with { type: 'text' }",
    files: {
      'scn/main.ts': sends("import secret from '/proc/self/environ' with { type: 'text' };"),
    },
    error: /scn\/main\.ts:2:20: .*got an import of "\/proc\/self\/environ", which is outside it/,
  },
  {
    name: 'a text import through a symlink inside the folder',
    files: {
      'scn/main.ts': sends("import secret from './notes.txt' with { type: 'text' };"),
      'scn/notes.txt': { symlink: '../secret.txt' },
    },
    error: /scn\/main\.ts:2:20: .*got an import of "\.\/notes\.txt", which is outside it/,
  },
  {
    name: 'a tsconfig paths alias to outside, extending a FIFO outside',
    files: {
      'scn/main.ts': sends("import { secret } from '@out/outside';"),
      'scn/tsconfig.json':
        '{ "extends": "../base.json", "compilerOptions": { "baseUrl": ".", "paths": { "@out/*": ["../*"] } } }',
      'base.json': { fifo: true },
    },
    error:
      /scn\/main\.ts:2:24: scenario: expected imports of local files or 'barrage' only .*, got an import of "@out\/outside"/,
  },
  ...[
    ['an absolute feeder file', 'PARENT/users.csv'],
    ['a feeder file up the tree', '../users.csv'],
    ['a feeder file through a symlink', 'link.csv'],
  ].map(([name, file]): Case => ({
    name: name!,
    files: {
      'users.csv': `user\n${SECRET}\n`,
      'scn/link.csv': { symlink: '../users.csv' },
      'scn/main.ts': sends(
        `export const options = { feeder: { file: '${file}' } };`,
        'JSON.stringify(feed())',
      ),
    },
    error:
      /scn\/main\.ts \(options\): feeder\.file: expected a feeder file inside the scenario's folder .*, got ".*", which is outside it: to read one elsewhere, set it in the configuration file, a flag or the environment/,
  })),
  {
    name: 'allowed_hosts in options',
    files: {
      'scn/main.ts': sends(
        "export const options = { allowed_hosts: ['ELSEWHERE'] };",
        "'x'",
        "'http://ELSEWHERE/'",
      ),
    },
    error:
      /scn\/main\.ts \(options\): allowed_hosts: expected no allowed_hosts in options .*, got options\.allowed_hosts: set it in the configuration file, a flag or the environment/,
  },
  {
    // Run without --target here would send to it; with one, it is refused all the same.
    name: 'target in options',
    files: {
      'scn/main.ts': sends("export const options = { target: 'http://ELSEWHERE' };", "'x'"),
    },
    error:
      /scn\/main\.ts \(options\): target: expected no target in options .*, got options\.target: set it in the configuration file, a flag or the environment/,
  },
  {
    name: 'an OAuth token_url in options',
    files: {
      'scn/main.ts': sends(
        "export const options = { auth: { type: 'oauth2', token_url: 'http://ELSEWHERE/token', client_id: 'c', client_secret: '${CI_TOKEN}' } };",
        "'x'",
      ),
    },
    error:
      /scn\/main\.ts \(options\): auth: expected no auth in options .*, got options\.auth: set it in the configuration file, a flag or the environment/,
  },
  {
    // Its files would be read wherever they are (a key outside the folder, a device).
    name: 'tls in options',
    files: {
      'scn/main.ts': sends("export const options = { tls: { ca: '/etc/passwd' } };", "'x'"),
    },
    error:
      /scn\/main\.ts \(options\): tls: expected no tls in options .*, got options\.tls: set it in the configuration file, a flag or the environment/,
  },
  ...['json', 'html', 'junit', 'summary_md', 'raw'].map((key): Case => ({
    name: `report.${key} in options`,
    files: {
      'scn/main.ts': sends(
        `export const options = { report: { ${key}: 'PARENT/leak-${key}' } };`,
        "'x'",
      ),
    },
    error: new RegExp(
      `scn/main\\.ts \\(options\\): report\\.${key}: expected no report file in options .*, got options\\.report\\.${key}: set it in the configuration file`,
    ),
  })),
  {
    name: 'a FIFO as the scenario file',
    files: { 'scn/main.ts': { fifo: true } },
    error:
      /--scenario: scenario: expected an existing TypeScript scenario file, got "scn\/main\.ts", which is not a regular file/,
  },
  {
    name: 'a directory as the scenario file',
    files: { 'scn/main.ts/index.ts': sends('', "'x'") },
    error:
      /--scenario: scenario: expected an existing TypeScript scenario file, got "scn\/main\.ts", which is a directory/,
  },
];

t.test('every way out is refused by run and validate, before anything is sent', async (t) => {
  const target = await counter(t);
  const elsewhere = await counter(t);
  for (const c of CASES) {
    await t.test(c.name, async (t) => {
      const files = Object.fromEntries(
        Object.entries(c.files).map(([name, entry]) => [
          name,
          typeof entry === 'string' ? entry.replaceAll('ELSEWHERE', elsewhere.host) : entry,
        ]),
      );
      const parent = fixture(t, files);
      const before = snapshot(parent);
      const common = ['--scenario', c.scenario ?? 'scn/main.ts', '--target', target.url];
      const options = { cwd: parent, env: { CI_TOKEN: SECRET }, killAfterMs: 30_000 };
      const results = [
        // validate in process (main() with its streams), run as the spawned binary
        ['validate', { ...(await runInProcess(['validate', ...common], options)), signal: null }],
        ['run', await runCli(['run', '--quiet', '-n', '2', '--timeout', '1s', ...common], options)],
      ] as const;
      for (const [command, r] of results) {
        t.equal(r.signal, null, `${command} returned by itself`);
        t.equal(r.code, 1, `${command} exits 1`);
        t.match(r.stderr, /^barrage: 1 problem in the configuration \(nothing was sent\):/);
        t.match(r.stderr, c.error, command);
        t.notOk(`${r.stdout}${r.stderr}`.includes(SECRET), `${command} prints no contents`);
        t.notMatch(r.stderr, /\n\s+at /, `${command}: no stack trace`);
      }
      t.equal(target.bytes, 0, 'no byte reached the target');
      t.equal(elsewhere.bytes, 0, 'no byte reached another host');
      t.same(snapshot(parent), before, 'no file written or changed');
    });
  }
});

t.test('inside the folder, imports, text and json imports and a feeder still work', async (t) => {
  const target = await counter(t);
  const parent = fixture(t, {
    'scn/main.ts': [
      "import { feed, http } from 'barrage';",
      "import { path } from './lib';",
      "import { user } from './sub/user';",
      "import greeting from './greeting.txt' with { type: 'text' };",
      "import data from './data.json' with { type: 'json' };",
      "export const options = { feeder: { file: 'data/users.csv' } };",
      'export default async function () {',
      '  const record = feed();',
      "  await http.post(path, [greeting, data.n, user, record?.user].join(' '));",
      '}',
    ].join('\n'),
    'scn/lib.ts': "export const path = '/inside';",
    'scn/sub/user.ts': "export const user = 'from-sub';",
    'scn/greeting.txt': 'hello-text',
    'scn/data.json': '{ "n": "json-42" }',
    'scn/data/users.csv': 'user\nalice\n',
  });
  const common = ['--scenario', 'scn/main.ts', '--target', target.url];
  const valid = await runCli(['validate', ...common], { cwd: parent });
  t.equal(valid.code, 0, valid.stderr);
  t.equal(target.bytes, 0, 'validate sends nothing');
  const run = await runCli(['run', '--json-output', '-n', '1', '-c', '1', ...common], {
    cwd: parent,
  });
  t.equal(run.code, 0, run.stderr);
  t.equal((JSON.parse(run.stdout) as { successes: number }).successes, 1);
  t.match(target.text, /^POST \/inside /);
  t.match(target.text, /hello-text json-42 from-sub alice$/);
});
