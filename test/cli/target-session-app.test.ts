// The embedded target's session app (/app/), driven by hand with fetch and undici over real HTTP
// on 127.0.0.1:0: cookies read and sent explicitly, redirects not followed, the CSRF token read
// from the form with a real HTML parser. Also once through `barrage serve` as a user starts it.
import { parse as parseCsv } from 'csv-parse/sync';
import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { Cookie } from 'tough-cookie';
import { request } from 'undici';
import { acceptsGzip } from '../../cli/serve/accept-encoding.js';
import { PRODUCTS } from '../../cli/serve/product-routes.js';
import { SESSION_APP_USERS } from '../../cli/serve/session-app-routes.js';
import { SessionStore } from '../../cli/serve/session-store.js';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { startTargetProcess } from '../helpers/target-process.js';

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The `sid` this response sets, '' when it expires it, undefined when it sets none. */
  sid: string | undefined;
  setCookie: string | undefined;
}

async function get(base: string, path: string, sid?: string): Promise<Page> {
  const headers: Record<string, string> = sid === undefined ? {} : { cookie: `sid=${sid}` };
  return page(await fetch(base + path, { headers, redirect: 'manual' }));
}

async function post(
  base: string,
  path: string,
  fields: Record<string, string>,
  sid?: string,
): Promise<Page> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    ...(sid === undefined ? {} : { cookie: `other=1; sid=${sid}` }),
  };
  const body = new URLSearchParams(fields).toString();
  return page(await fetch(base + path, { method: 'POST', headers, body, redirect: 'manual' }));
}

async function page(res: Response): Promise<Page> {
  const setCookie = res.headers.getSetCookie()[0];
  const cookie = setCookie === undefined ? undefined : Cookie.parse(setCookie);
  return {
    status: res.status,
    headers: res.headers,
    html: await res.text(),
    sid: cookie?.key === 'sid' ? cookie.value : undefined,
    setCookie,
  };
}

/** The value of `<input name="_csrf">` in a page, read with htmlparser2 and css-select. */
function csrfOf(html: string): string {
  const input = selectOne<AnyNode, Element>(
    'form input[type=hidden][name=_csrf]',
    parseDocument(html),
  );
  const value = input === null ? undefined : getAttributeValue(input, 'value');
  if (value === undefined || value === '') throw new Error(`no _csrf input in ${html}`);
  return value;
}

function greetingOf(html: string): string | undefined {
  const h1 = selectOne<AnyNode, Element>('h1#greeting', parseDocument(html));
  return h1 === null ? undefined : textContent(h1);
}

/** GET the form (starting a session), then POST it as `username`/`password`. */
async function logIn(base: string, username: string, password: string) {
  const form = await get(base, '/app/login');
  if (form.sid === undefined) throw new Error('no session cookie on the login form');
  const done = await post(
    base,
    '/app/login',
    { _csrf: csrfOf(form.html), username, password },
    form.sid,
  );
  return { before: form.sid, after: done.sid, reply: done };
}

const server = await startTargetServer();
t.teardown(() => server.close());
const base = server.url;

t.test('log in, see the dashboard, log out', async (t) => {
  server.resetStats();
  const form = await get(base, '/app/login');
  t.equal(form.status, 200);
  t.match(form.headers.get('content-type'), /^text\/html/);
  t.equal(form.headers.get('cache-control'), 'no-store');
  t.match(form.setCookie, /^sid=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
  const sid = form.sid ?? '';
  const token = csrfOf(form.html);
  t.ok(selectOne('input[name=username]', parseDocument(form.html)), 'a username field');
  t.ok(selectOne('input[type=password][name=password]', parseDocument(form.html)));

  const again = await get(base, '/app/login', sid);
  t.equal(again.setCookie, undefined, 'a live session is kept, no new cookie');
  t.equal(csrfOf(again.html), token, 'the token is bound to the session');

  const login = await post(
    base,
    '/app/login',
    { _csrf: token, username: 'ada', password: 'lovelace' },
    sid,
  );
  t.equal(login.status, 302);
  t.equal(login.headers.get('location'), '/app/dashboard');
  t.match(login.setCookie, /; Path=\/; HttpOnly; SameSite=Lax$/);
  const loggedIn = login.sid ?? '';
  t.not(loggedIn, sid, 'the session id is rotated at login');
  t.not(loggedIn, '');

  const stale = await get(base, '/app/dashboard', sid);
  t.equal(stale.status, 302, 'the id from before the login is worth nothing');
  t.equal(stale.headers.get('location'), '/app/login');
  const dashboard = await get(base, '/app/dashboard', loggedIn);
  t.equal(dashboard.status, 200);
  t.equal(greetingOf(dashboard.html), 'Hello, ada');

  const logout = await post(base, '/app/logout', {}, loggedIn);
  t.equal(logout.status, 302);
  t.equal(logout.headers.get('location'), '/app/login');
  t.equal(logout.sid, '', 'the cookie is emptied…');
  t.match(logout.setCookie, /Expires=Thu, 01 Jan 1970/, '…and expired');
  const after = await get(base, '/app/dashboard', loggedIn);
  t.equal(after.status, 302);

  t.same(server.stats().session, {
    sessionsCreated: 2,
    logins: 1,
    badCredentials: 0,
    csrfRejected: 0,
    dashboardViews: 1,
    notLoggedIn: 2,
    logouts: 1,
  });
  t.match(server.stats().byRoute, { app_login: 3, app_dashboard: 3, app_logout: 1 });
});

t.test('every known user logs in and is greeted by name', async (t) => {
  for (const [user, password] of SESSION_APP_USERS) {
    const { after } = await logIn(base, user, password);
    t.equal(greetingOf((await get(base, '/app/dashboard', after)).html), `Hello, ${user}`);
  }
});

t.test('the users are those of scenarios/users.csv', (t) => {
  const csv = readFileSync(new URL('../../scenarios/users.csv', import.meta.url), 'utf8');
  const rows = parseCsv<{ user: string; password: string }>(csv, { columns: true });
  t.same(new Map(rows.map((row) => [row.user, row.password])), SESSION_APP_USERS);
  t.end();
});

t.test('a login without the session CSRF token is refused with 403', async (t) => {
  server.resetStats();
  const mine = await get(base, '/app/login');
  const theirs = await get(base, '/app/login');
  const good = { username: 'ada', password: 'lovelace' };
  const attempts: [string, Record<string, string>, string | undefined][] = [
    ['no cookie', { ...good, _csrf: csrfOf(mine.html) }, undefined],
    ['unknown session', { ...good, _csrf: csrfOf(mine.html) }, 'forged'],
    ['no token', good, mine.sid],
    ['empty token', { ...good, _csrf: '' }, mine.sid],
    ['wrong token', { ...good, _csrf: 'x'.repeat(32) }, mine.sid],
    ["another session's token", { ...good, _csrf: csrfOf(theirs.html) }, mine.sid],
  ];
  for (const [what, fields, sid] of attempts) {
    const reply = await post(base, '/app/login', fields, sid);
    t.equal(reply.status, 403, what);
    t.equal(reply.setCookie, undefined, `${what}: no session handed out`);
  }
  t.equal(server.stats().session.csrfRejected, attempts.length);
  t.equal(server.stats().session.logins, 0);

  const json = await fetch(`${base}/app/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `sid=${mine.sid ?? ''}` },
    body: JSON.stringify({ ...good, _csrf: csrfOf(mine.html) }),
  });
  t.equal(json.status, 415, 'a JSON body is not a form');
});

t.test('bad credentials send the user back to the form, which says so', async (t) => {
  server.resetStats();
  const cases: [string, string | undefined][] = [
    ['ada', 'wrong'],
    ['mallory', 'lovelace'],
    ['ada', undefined],
  ];
  for (const [username, password] of cases) {
    const form = await get(base, '/app/login');
    const fields = {
      _csrf: csrfOf(form.html),
      username,
      ...(password === undefined ? {} : { password }),
    };
    const reply = await post(base, '/app/login', fields, form.sid);
    t.equal(reply.status, 302, username);
    t.equal(reply.headers.get('location'), '/app/login?error=1');
    t.equal(reply.setCookie, undefined, 'the session is kept as it was');
    const shown = await get(base, '/app/login?error=1', form.sid);
    t.ok(selectOne('#login-error', parseDocument(shown.html)), 'the form shows the error');
    t.equal(csrfOf(shown.html), csrfOf(form.html), 'with the same token, to try again');
  }
  t.equal(server.stats().session.badCredentials, cases.length);
  const plain = await get(base, '/app/login');
  t.equal(selectOne('#login-error', parseDocument(plain.html)), null);
});

t.test('wrong methods get 405 with Allow', async (t) => {
  const cases: [string, string, string][] = [
    ['PUT', '/app/login', 'GET, HEAD, POST'],
    ['GET', '/app/logout', 'POST'],
    ['POST', '/app/dashboard', 'GET, HEAD'],
    ['DELETE', '/app/products', 'GET, HEAD'],
    ['POST', '/app/products/1070', 'GET, HEAD'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await fetch(base + path, { method, redirect: 'manual' });
    await res.arrayBuffer();
    t.equal(res.status, 405, `${method} ${path}`);
    t.equal(res.headers.get('allow'), allow);
  }
});

t.test('/app/products is gzip-compressed when Accept-Encoding allows it', async (t) => {
  const identity = await request(`${base}/app/products`);
  const plain = Buffer.from(await identity.body.arrayBuffer());
  t.equal(identity.statusCode, 200);
  t.equal(identity.headers['content-encoding'], undefined);
  t.equal(identity.headers.vary, 'Accept-Encoding');
  t.ok(plain.length > 1024, `the list is worth compressing (${plain.length} bytes)`);
  const list = JSON.parse(plain.toString('utf8')) as { id: number; name: string }[];
  t.same(list, PRODUCTS);
  t.equal(list[0]?.id, 1070);

  const zipped = await request(`${base}/app/products`, {
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  const body = Buffer.from(await zipped.body.arrayBuffer());
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.equal(zipped.headers.vary, 'Accept-Encoding');
  t.equal(Number(zipped.headers['content-length']), body.length);
  t.ok(body.length < plain.length / 2, `${body.length} of ${plain.length} bytes`);
  t.same(gunzipSync(body), plain);

  const refused = await request(`${base}/app/products`, {
    headers: { 'accept-encoding': 'br, gzip;q=0' },
  });
  await refused.body.arrayBuffer();
  t.equal(refused.headers['content-encoding'], undefined, 'gzip;q=0 is a refusal');
});

t.test('acceptsGzip reads Accept-Encoding as express and compression do', (t) => {
  const table: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZip', true],
    ['x-gzip', false],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.5', true],
    ['gzip ; q=0.001', true],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['identity', false],
    ['br, deflate', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0, gzip', true],
    [',, gzip ,', true],
    ['gzip;q=2', true],
    ['gzip;q=abc', false],
    ['gzip;level=9', true],
  ];
  for (const [header, expected] of table) t.equal(acceptsGzip(header), expected, String(header));
  t.end();
});

t.test('/app/products/:id answers one product, 404 otherwise', async (t) => {
  const res = await fetch(`${base}/app/products/1070`);
  t.equal(res.status, 200);
  t.same(await res.json(), PRODUCTS[0]);
  const last = PRODUCTS[PRODUCTS.length - 1];
  t.same(await (await fetch(`${base}/app/products/${last?.id}`)).json(), last);
  for (const id of ['1069', '01070', '1e3', 'x', '', '1070/extra']) {
    const miss = await fetch(`${base}/app/products/${id}`);
    t.equal(miss.status, 404, JSON.stringify(id));
    t.same(await miss.json(), { error: 'no such product' });
  }
});

t.test('sessions are bounded: past the capacity the oldest is forgotten', async (t) => {
  const small: TargetServer = await startTargetServer({ sessionCapacity: 2 });
  t.teardown(() => small.close());
  const first = await get(small.url, '/app/login');
  await get(small.url, '/app/login');
  await get(small.url, '/app/login');
  const fields = { _csrf: csrfOf(first.html), username: 'ada', password: 'lovelace' };
  const reply = await post(small.url, '/app/login', fields, first.sid);
  t.equal(reply.status, 403, 'the first session is gone');
  t.equal(small.stats().session.sessionsCreated, 3);

  const store = new SessionStore(3);
  const ids = Array.from({ length: 10 }, () => store.create().id);
  t.equal(store.size, 3);
  t.equal(store.get(ids[6]), undefined);
  t.ok(store.get(ids[9]));
  t.equal(new Set(ids).size, 10, 'ids are random');
});

t.test('`barrage serve` serves the session app and counts it in /__stats', async (t) => {
  const target = await startTargetProcess();
  t.teardown(() => target.stop());
  const { after } = await logIn(target.url, 'grace', 'hopper');
  const dashboard = await get(target.url, '/app/dashboard', after);
  t.equal(greetingOf(dashboard.html), 'Hello, grace');
  const stats = await target.stats();
  t.match(stats.session, { sessionsCreated: 2, logins: 1, dashboardViews: 1, csrfRejected: 0 });
  t.match(stats.byRoute, { app_login: 2, app_dashboard: 1 });
});
