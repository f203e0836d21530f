/**
 * `auth: 'digest'` (sandbox/isolate/http-api.ts, runtime/script/digest-auth.ts), run in process
 * against a server that checks Digest authentication with http-auth (its own implementation of
 * RFC 7616): the right password is let in on the second request, its challenge's 401 is expected
 * (no failure); a wrong one stays 401 and fails.
 */
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import httpAuth from 'http-auth';
import { runInProcess } from '../helpers/in-process-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const REALM = 'barrage test';

const scenario = (password: string, port: string) => `import { http } from 'barrage';
export default async function (): Promise<void> {
  const res = await http.get('http://alice:${password}@127.0.0.1:${port}/digest?x=1', { auth: 'digest' });
  await http.post('/report', { status: res.status, body: res.body });
}
`;

async function digestRun(t: Test, password: string) {
  const server = await phaseServer(t);
  const hash = createHash('md5').update(`alice:${REALM}:s3cret`).digest('hex');
  const digest = httpAuth.digest({ realm: REALM, file: () => `alice:${REALM}:${hash}` });
  const guarded = digest.check((req, res) => res.end(`welcome ${req.user ?? ''}`));
  server.routes.push((req, res) => {
    if (!(req.url ?? '').startsWith('/digest')) return false;
    guarded(req, res);
    return true;
  });
  const dir = mkdtempSync(join(tmpdir(), 'barrage-digest-'));
  writeFileSync(join(dir, 'digest.ts'), scenario(password, new URL(server.url).port));
  const result = await runInProcess([
    'run',
    '--json-output',
    '--no-dashboard',
    '--scenario',
    join(dir, 'digest.ts'),
    '--target',
    server.url,
    '-n',
    '1',
    '-c',
    '1',
  ]);
  return { server, result, json: JSON.parse(result.stdout) as { failures: number; total: number } };
}

t.test('the right password is let in, after an expected challenge', async (t) => {
  const { server, result, json } = await digestRun(t, 's3cret');
  t.equal(result.code, 0, result.stderr);
  t.same(server.reports, [{ status: 200, body: 'welcome alice' }]);
  const digests = server.seen.filter((s) => s.path.startsWith('/digest'));
  t.equal(digests.length, 2, 'a challenge, then the answer');
  t.equal(digests[0]!.authorization, undefined, 'the first carries no credentials');
  t.match(digests[1]!.authorization, /^Digest username="alice", realm="barrage test"/);
  t.match(digests[1]!.authorization, /uri="\/digest\?x=1"/);
  t.equal(json.failures, 0, 'the challenge is no failure');
});

t.test('a wrong password stays 401', async (t) => {
  const { server, json } = await digestRun(t, 'wrong');
  t.same(server.reports, [{ status: 401, body: '401 Unauthorized' }]);
  t.equal(json.failures, 1, 'the answer refused is a failure');
});
