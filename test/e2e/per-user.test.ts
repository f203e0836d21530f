import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

const USERS = ['ada', 'bob', 'cy', 'dee', 'eve'];
const CSV = `username\n${USERS.join('\n')}\n`;

interface Target {
  readonly url: string;
  /** The username of each login, in order. */
  readonly logins: string[];
  /** The user (`who`, else `u`, else the token's) of each GET that carried a valid token. */
  readonly users: string[];
  /** GETs refused with 401. */
  refused: number;
}

/**
 * POST /login answers a token for the body's `user`; a GET needs `Bearer tok-<user>` of a login
 * it answered, and, when it names a user in `u`, the token must be that user's.
 */
async function target(t: Test): Promise<Target> {
  const issued = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && url.pathname === '/login') {
        const user = (JSON.parse(body) as { user: string }).user;
        state.logins.push(user);
        issued.add(`tok-${user}`);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: `tok-${user}` }));
        return;
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const named = url.searchParams.get('u');
      if (!issued.has(token) || (named !== null && token !== `tok-${named}`)) {
        state.refused++;
        res.statusCode = 401;
        res.end();
        return;
      }
      state.users.push(url.searchParams.get('who') ?? named ?? token.slice(4));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const state: Target = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    logins: [],
    users: [],
    refused: 0,
  };
  return state;
}

const login = `  - { name: login, method: POST, url: /login, body: { user: "{{username}}" }, setup: true, extract: { token: $.access_token } }\n`;

async function run(t: Test, config: string, args: string[] = []) {
  const dir = t.testdir({ 'load.yaml': config, 'users.csv': CSV });
  const result = await runCli(['run', 'load.yaml', '--json-output', ...args], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as { total: number; failures: number };
}

for (const threads of ['1', '2']) {
  t.test(
    `one user per worker: 5 logins as 5 users, then their tokens (--threads ${threads})`,
    async (t) => {
      const server = await target(t);
      // `u` names the worker's record on every request: a token of another user is refused.
      const config = `target: ${server.url}\nrequests: 60\nconcurrency: 5\nfeeder: { file: users.csv }\nendpoints:\n${login}  - { name: a, url: "/a?u={{username}}", weight: 3, headers: { Authorization: "Bearer {{token}}" } }\n  - { name: b, url: "/b?u={{username}}", weight: 1, headers: { Authorization: "Bearer {{token}}" } }\n`;
      const result = await run(t, config, ['--threads', threads]);
      t.equal(server.logins.length, 5, 'one login per worker');
      t.same([...server.logins].sort(), USERS, 'each worker logged in as its own user');
      t.equal(result.failures, 0);
      t.equal(server.refused, 0, 'every request carried its own user’s valid token');
      t.equal(server.users.length, 60);
    },
  );
}

t.test(
  'per: iteration: the setup login gets a record, then each iteration a new one',
  async (t) => {
    const server = await target(t);
    const config = `target: ${server.url}\nrequests: 20\nconcurrency: 2\nfeeder: { file: users.csv, per: iteration }\nendpoints:\n${login}  - { name: a, url: "/a?who={{username}}", headers: { Authorization: "Bearer {{token}}" } }\n`;
    const result = await run(t, config, ['--threads', '1']);
    t.same([...server.logins].sort(), ['ada', 'bob'], 'the two logins took the first two records');
    t.equal(result.failures, 0, 'no missing_variable, no 401');
    t.equal(result.total, 22);
    t.same([...new Set(server.users)].sort(), USERS, 'the iterations walked every record');
  },
);

t.test('a non-cycling feeder with fewer records than workers: the others end', async (t) => {
  const server = await target(t);
  const config = `target: ${server.url}\nrequests: 30\nconcurrency: 7\nfeeder: { file: users.csv, cycle: false }\nendpoints:\n${login}  - { name: a, url: "/a?u={{username}}", headers: { Authorization: "Bearer {{token}}" } }\n`;
  const result = await run(t, config, ['--threads', '1']);
  t.same([...server.logins].sort(), USERS, 'five workers logged in, two never started');
  t.equal(result.failures, 0);
  t.equal(server.users.length, 30, 'the five carried the whole run');
});

t.test('validate says which record each endpoint sees', async (t) => {
  const dir = t.testdir({
    'setup.yaml': `target: http://127.0.0.1:9\nfeeder: { file: users.csv }\nendpoints:\n${login}  - { url: "/a" }\n`,
    'plain.yaml': `target: http://127.0.0.1:9\nfeeder: { file: users.csv, order: shuffle }\nendpoints:\n  - { url: "/a?u={{username}}" }\n`,
    'both.yaml': `target: http://127.0.0.1:9\nfeeder: { file: users.csv, per: iteration }\nendpoints:\n${login}  - { url: "/a" }\n`,
    'typo.yaml': `target: http://127.0.0.1:9\nfeeder: { file: users.csv, per: user }\nendpoints:\n  - { url: "/a" }\n`,
    'users.csv': CSV,
  });
  const typo = await runCli(['validate', 'typo.yaml'], { cwd: dir });
  t.equal(typo.code, 1);
  t.match(typo.stderr, 'typo.yaml:2:33: feeder.per: expected worker or iteration, got "user"');
  const line = async (file: string) => {
    const result = await runCli(['validate', file], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    return result.stdout.split('\n').find((l) => l.includes('feeder  '));
  };
  t.equal(
    await line('setup.yaml'),
    '  feeder      users.csv: 5 records (username), sequential, cycling, one record per worker (taken before setup)',
  );
  t.match(await line('plain.yaml'), /shuffle, cycling, one record per iteration$/);
  t.match(await line('both.yaml'), /one record per iteration \(and one before setup\)$/);
});
