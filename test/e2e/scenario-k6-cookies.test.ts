/**
 * Cookies as k6 ports use them (sandbox/isolate/request-args.ts, http-api.ts, runtime/http/
 * cookie-jar.ts), run in process against a server that keeps the Cookie header of each request:
 * a call's own `cookies` win over the jar's of the same name and are not stored; jar.set() with
 * a path scopes the cookie, an expiry in the past and a foreign domain store nothing; delete() and
 * clear(url) forget what they name.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const SCENARIO = `import { http } from 'barrage';
export default async function (): Promise<void> {
  await http.get('/set');
  await http.get('/own', { cookies: { session: 'mine', extra: { value: 'x' } } });
  await http.get('/after-own');
  const jar = http.cookieJar();
  jar.set('/', 'scoped', 'v1', { path: '/scoped' });
  jar.set('/', 'gone', 'v2', { expires: 'Thu, 01 Jan 1970 00:00:00 GMT' });
  jar.set('/', 'foreign', 'v3', { domain: 'example.com' });
  jar.set('/', 'aged', 'v4', { max_age: 60, http_only: true });
  await http.get('/scoped/page');
  await http.get('/elsewhere');
  const seen = jar.cookiesForURL('/scoped/page');
  jar.delete('/', 'session');
  await http.get('/after-delete');
  jar.clear('/scoped/page');
  await http.get('/scoped/after-clear');
  await http.post('/report', seen);
}
`;

t.test('per-request cookies and the jar as the server received them', async (t) => {
  const server = await phaseServer(t);
  server.routes.push((req, res) => {
    if (req.url !== '/set') return false;
    res.setHeader('set-cookie', 'session=server; Path=/');
    res.end('set');
    return true;
  });
  const dir = mkdtempSync(join(tmpdir(), 'barrage-cookies-'));
  writeFileSync(join(dir, 'cookies.ts'), SCENARIO);
  const result = await runInProcess([
    'run',
    '--json-output',
    '--no-dashboard',
    '--scenario',
    join(dir, 'cookies.ts'),
    '--target',
    server.url,
    '-n',
    '1',
    '-c',
    '1',
  ]);
  t.equal(result.code, 0, result.stderr);
  const cookies = Object.fromEntries(server.seen.map((s) => [s.path, s.cookie]));
  t.same(cookies, {
    '/set': undefined,
    '/own': 'session=mine; extra=x',
    '/after-own': 'session=server',
    '/scoped/page': 'scoped=v1; session=server; aged=v4',
    '/elsewhere': 'session=server; aged=v4',
    '/after-delete': 'aged=v4',
    '/scoped/after-clear': undefined,
    '/report': undefined,
  });
  t.same(server.reports, [{ scoped: 'v1', session: 'server', aged: 'v4' }]);
});
