/**
 * A TypeScript scenario that uses the k6 API surface ports need (timings, proto, exec, timers,
 * streaming hashers, base64 variants, per-request cookies, the jar with a path, console.debug),
 * run by the built CLI, spawned, with its type check on (so barrage.d.ts and sandbox-globals.d.ts
 * declare what it uses): it exits 0, and the server saw what the API said.
 */
import t from 'tap';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const SCENARIO = `import { check, crypto, encoding, exec, http } from 'barrage';

export const options = {
  scenarios: { ported: { executor: 'per-vu-iterations', vus: 1, iterations: 2 } },
};

export default async function (): Promise<void> {
  const res = await http.get('/slow', { cookies: { flavour: 'oat' } });
  http.cookieJar().set('/', 'scoped', 'yes', { path: '/deep', max_age: 60 });
  const ticks: number[] = [];
  await new Promise<void>((resolve) => {
    const id = setInterval(() => {
      ticks.push(ticks.length);
      if (ticks.length === 2) {
        clearInterval(id);
        resolve();
      }
    }, 5);
  });
  const hasher = crypto.createHash('sha256');
  hasher.update('abc').update(new Uint8Array([1, 2]));
  console.debug('iteration', exec.scenario.iterationInTest);
  check(res, { 'waited for the server': (r) => r.timings.waiting >= 100 });
  await http.post('/deep/report', {
    proto: res.proto,
    waiting: res.timings.waiting,
    scenario: exec.scenario.name,
    inTest: exec.scenario.iterationInTest,
    vu: exec.vu.idInTest,
    ticks,
    sha: hasher.digest('hex'),
    hmac: crypto.createHMAC('sha1', 'key').update('data').digest('base64rawurl'),
    b64: encoding.b64encode(new Uint8Array([0xfb, 0xff]), 'rawurl'),
    text: encoding.b64decode('aMOp', 'std', 's'),
  });
}
`;

t.test(
  'a scenario using the k6 surface type-checks, runs, and says what the server saw',
  async (t) => {
    const server = await phaseServer(t);
    const dir = mkdtempSync(join(tmpdir(), 'barrage-k6-surface-'));
    writeFileSync(join(dir, 'ported.ts'), SCENARIO);
    const result = await runCli(
      [
        'run',
        '--scenario',
        join(dir, 'ported.ts'),
        '--target',
        server.url,
        '--json-output',
        '--no-dashboard',
      ],
      { typecheck: true },
    );
    t.equal(result.code, 0, result.stderr);
    t.match(result.stderr, /\[vu 0\] debug: iteration 0/, 'console.debug printed');
    const json = JSON.parse(result.stdout) as {
      checks: { by_name: Record<string, { passes: number; fails: number }> };
    };
    t.same(json.checks.by_name['waited for the server'], { passes: 2, fails: 0 });
    const sha = createHash('sha256')
      .update('abc')
      .update(Buffer.from([1, 2]))
      .digest('hex');
    const hmac = createHmac('sha1', 'key').update('data').digest('base64url');
    t.same(
      server.reports.map((r) => ({ ...(r as object), waiting: undefined })),
      [0, 1].map((i) => ({
        proto: 'HTTP/1.1',
        waiting: undefined,
        scenario: 'ported',
        inTest: i,
        vu: 1,
        ticks: [0, 1],
        sha,
        hmac,
        b64: Buffer.from([0xfb, 0xff]).toString('base64url'),
        text: 'hé',
      })),
    );
    for (const [i, report] of server.reports.entries())
      t.ok((report as { waiting: number }).waiting >= server.slow[i]![0], 'waiting ≥ the server’s');
    const slow = server.seen.filter((s) => s.path === '/slow').map((s) => s.cookie);
    t.equal(slow[0], 'flavour=oat', 'the call’s own cookie');
    const deep = server.seen.filter((s) => s.path === '/deep/report').map((s) => s.cookie);
    t.same(deep, ['scoped=yes', 'scoped=yes'], 'the jar’s cookie on its path only');
  },
);
