/**
 * The secret canary: one unique string planted in every secret source (a bearer token, a basic
 * password, an OAuth client secret and the token its server hands out, Authorization, Cookie and
 * token-like headers, a ${ENV} value, BARRAGE_AUTH, BARRAGE_HEADERS, URL userinfo in the target),
 * then every output swept for it: validate, run (text and --json-output), every report file, the
 * merge of the raw results and its files, the dashboard's frames, and validation errors of broken
 * variants of each source. The canary is lower case, and searched for in any case, because
 * barrage lower-cases origins.
 */
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { BIN, runCli, type SpawnResult } from '../helpers/run-cli.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { startTokenServer } from '../helpers/token-server.js';

const CANARY = `cnry${randomBytes(8).toString('hex')}`;
const leaks = (text: string): boolean => text.toLowerCase().includes(CANARY);

/** Every report file, by flag. */
const FILES = {
  '--json': 'result.json',
  '--html': 'report.html',
  '--junit': 'junit.xml',
  '--summary-md': 'summary.md',
  '--raw': 'raw.json',
};
const fileFlags = (prefix: string): string[] =>
  Object.entries(FILES).flatMap(([flag, name]) => [flag, `${prefix}${name}`]);

/** One configuration to sweep: its file and environment. */
interface Variant {
  readonly name: string;
  readonly yaml: (target: string) => string;
  readonly env: Record<string, string>;
}

/** The environment every variant gets: a ${ENV} value, BARRAGE_HEADERS. */
const BASE_ENV = {
  TRACE_VALUE: `env-${CANARY}`,
  BARRAGE_HEADERS: JSON.stringify({ 'X-Extra-Token': `barrage-headers-${CANARY}` }),
};

/** Headers with every kind of secret, top-level and per endpoint; the target has userinfo. */
function common(target: string): string {
  const withUserinfo = target.replace('http://', `http://user:userinfo-${CANARY}@`);
  return `target: ${withUserinfo}
headers:
  Cookie: "sid=cookie-${CANARY}"
  X-Api-Key: "key-${CANARY}"
  X-Trace: "\${TRACE_VALUE}"
endpoints:
  - url: /a
    headers:
      Authorization: "Bearer header-${CANARY}"
  - url: /b
  # /a and /b answer 404: a run of 10 whose picks all missed /json would be a run in which no
  # request succeeded (exit 1). At weight 8 of 10 that is one run in ten million.
  - url: /json
    weight: 8
thresholds: ["http_req_failed:rate <= 1"]
`;
}

function folder(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-canary-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Fails the test if the canary is in any of `outputs` (named for the message). */
function sweep(t: Test, outputs: Record<string, string>): void {
  for (const [name, text] of Object.entries(outputs))
    t.notOk(leaks(text), `${name} holds no secret`);
}

const streams = (
  label: string,
  result: Pick<SpawnResult, 'stdout' | 'stderr'>,
): Record<string, string> => ({
  [`${label} stdout`]: result.stdout,
  [`${label} stderr`]: result.stderr,
});

t.test('no secret in any output of validate, run and merge', async (t) => {
  const target = await startTargetServer({});
  t.teardown(() => target.close());
  const tokens = await startTokenServer(() => ({
    status: 200,
    json: { access_token: `access-${CANARY}`, token_type: 'Bearer', expires_in: 3600 },
  }));
  t.teardown(() => tokens.close());
  const variants: Variant[] = [
    {
      name: 'bearer, overridden by BARRAGE_AUTH',
      yaml: (url) => `${common(url)}auth: { type: bearer, token: "bearer-${CANARY}" }\n`,
      env: {
        BARRAGE_AUTH: JSON.stringify({
          type: 'basic',
          username: 'u',
          password: `barrage-auth-${CANARY}`,
        }),
      },
    },
    {
      name: 'basic',
      yaml: (url) =>
        `${common(url)}auth: { type: basic, username: ada, password: "basic-${CANARY}" }\n`,
      env: {},
    },
    {
      name: 'oauth2',
      yaml: (url) =>
        `${common(url)}auth: { type: oauth2, token_url: "${tokens.url}/token", client_id: app, client_secret: "client-${CANARY}" }\n`,
      env: {},
    },
  ];
  for (const variant of variants) {
    const dir = folder(t);
    writeFileSync(join(dir, 'load.yaml'), variant.yaml(target.url));
    const env = { ...BASE_ENV, ...variant.env };
    const validate = await runCli(['validate', 'load.yaml'], { cwd: dir, env });
    t.equal(validate.code, 0, `${variant.name}: valid (${validate.stderr})`);
    t.match(validate.stdout, /\[redacted\]@127\.0\.0\.1/, 'userinfo is shown redacted');
    const run = await runCli(['run', 'load.yaml', '-n', '20', ...fileFlags('')], {
      cwd: dir,
      env,
    });
    t.equal(run.code, 0, `${variant.name}: the run passes (${run.stderr})`);
    const json = await runCli(['run', 'load.yaml', '-n', '10', '--json-output'], {
      cwd: dir,
      env,
    });
    t.equal(json.code, 0, `${variant.name}: the JSON run passes (${json.stderr})`);
    const merge = await runCli(['merge', 'raw.json', ...fileFlags('merged-')], { cwd: dir });
    t.equal(merge.code, 0, `${variant.name}: merged (${merge.stderr})`);
    const files = Object.fromEntries(
      readdirSync(dir)
        .filter((name) => name !== 'load.yaml')
        .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
    );
    t.equal(Object.keys(files).length, 10, 'five report files from the run, five from the merge');
    t.test(variant.name, async (t) => {
      sweep(t, {
        ...streams('validate', validate),
        ...streams('run', run),
        ...streams('run --json-output', json),
        ...streams('merge', merge),
        ...files,
      });
    });
  }
  t.ok(tokens.requests.length > 0, 'the OAuth run fetched its token');
  t.match(tokens.requests[0]?.body ?? '', CANARY, 'the client secret was really sent');
});

t.test('no secret in the error of a broken or malformed source', async (t) => {
  const target = 'http://127.0.0.1:9';
  const dir = folder(t);
  const broken = (value: string): string => `${value}{{ broken ${CANARY}`;
  const cases: { name: string; yaml: string; env?: Record<string, string> }[] = [
    {
      name: 'bearer token',
      yaml: `target: ${target}\nauth: { type: bearer, token: "${broken(`bearer-${CANARY}`)}" }\n`,
    },
    {
      name: 'basic password',
      yaml: `target: ${target}\nauth: { type: basic, username: u, password: "${broken(`pw-${CANARY}`)}" }\n`,
    },
    {
      name: 'client_secret',
      yaml: `target: ${target}\nauth: { type: oauth2, token_url: "http://127.0.0.1:9/t", client_id: a, client_secret: ["cs-${CANARY}", "${broken(`x-${CANARY}`)}"] }\n`,
    },
    {
      name: 'Authorization header',
      yaml: `target: ${target}\nheaders: { Authorization: "${broken(`Bearer h-${CANARY}`)}" }\n`,
    },
    {
      name: 'Cookie header',
      yaml: `target: ${target}\nheaders: { Cookie: "${broken(`sid=${CANARY}`)}" }\n`,
    },
    {
      name: 'X-Api-Key header of an endpoint',
      yaml: `target: ${target}\nendpoints:\n  - url: /a\n    headers: { X-Api-Key: "${broken(`k-${CANARY}`)}" }\n`,
    },
    {
      name: 'an environment value',
      yaml: `target: ${target}\nheaders: { X-Trace: "\${TRACE_VALUE}{{ broken" }\n`,
      env: { TRACE_VALUE: `env-${CANARY}` },
    },
    {
      name: 'malformed BARRAGE_AUTH',
      yaml: `target: ${target}\n`,
      env: { BARRAGE_AUTH: `{"type":"bearer","token":"ba-${CANARY}` },
    },
    {
      name: 'BARRAGE_AUTH with a bad token',
      yaml: `target: ${target}\n`,
      env: { BARRAGE_AUTH: `{"type":"bearer","token": ba-${CANARY}}` },
    },
    {
      name: 'malformed BARRAGE_HEADERS',
      yaml: `target: ${target}\n`,
      env: { BARRAGE_HEADERS: `{"Authorization":"bh-${CANARY}"` },
    },
    {
      name: 'userinfo in the target',
      yaml: `target: "http://u:ui-${CANARY}@127.0.0.1:9/{{ broken"\nconcurrency: nope\n`,
    },
  ];
  for (const c of cases) {
    writeFileSync(join(dir, 'bad.yaml'), c.yaml);
    for (const command of ['validate', 'run']) {
      // In process (main() with its streams): a refusal needs no process; the runs above spawn.
      const result = await runInProcess([command, 'bad.yaml'], { cwd: dir, env: c.env ?? {} });
      t.equal(result.code, 1, `${c.name}: ${command} refuses it`);
      t.match(result.stderr, /problem/, `${c.name}: the problem is reported`);
      sweep(t, streams(`${c.name}, ${command}`, result));
    }
  }
  const flag = await runCli(['validate', '--target', target, '--header', `X-Api-Key=${CANARY}`], {
    cwd: dir,
  });
  t.equal(flag.code, 1);
  sweep(t, streams('a malformed --header', flag));
});

t.test(
  'no secret on the dashboard',
  { skip: hasTmux() ? false : 'tmux is not installed: apt-get install tmux' },
  async (t) => {
    const target = await startTargetServer({});
    t.teardown(() => target.close());
    const dir = folder(t);
    writeFileSync(join(dir, 'load.yaml'), common(`${target.url}`));
    const session = TmuxSession.start(
      'canary',
      `cd ${dir} && env -u CI -u NO_COLOR TRACE_VALUE=env-${CANARY} ${BIN} run load.yaml -d 60s -c 2; echo BARRAGE_EXIT=$?; sleep 120`,
      120,
      40,
    );
    t.teardown(() => session.close());
    const frame = await session.waitFor((s) => /latest errors/.test(s) && /\/a/.test(s), 20_000);
    t.match(frame, /\/b/, 'the endpoints are listed');
    const later = await session.waitFor((s) => s !== frame, 5_000);
    session.keys('q');
    const end = await session.waitFor((s) => /BARRAGE_EXIT=/.test(s), 20_000, true);
    sweep(t, { 'the first frame': frame, 'a later frame': later, 'the screen after': end });
  },
);
