// The express session app of session-app.ts, driven by hand with fetch and undici (cookies carried
// explicitly, redirects followed by hand), so it is known to behave before barrage is pointed at it.
import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { Cookie } from 'tough-cookie';
import { request } from 'undici';
import { SESSION_APP_PRODUCTS, startSessionApp } from './session-app.js';

const app = await startSessionApp({ alice: 'pw-a', bob: 'pw-b' });
t.teardown(() => app.close());

/** The `name=value` of the session cookie a response sets, or undefined. */
function sessionCookieOf(res: Response): string | undefined {
  const cookie = res.headers
    .getSetCookie()
    .map((text) => Cookie.parse(text))
    .find((c) => c?.key === 'connect.sid');
  return cookie?.cookieString();
}

function selected(html: string, selector: string): Element | null {
  return selectOne<AnyNode, Element>(selector, parseDocument(html));
}

function csrfOf(html: string): string {
  const input = selected(html, 'input[name=_csrf]');
  const value = input === null ? undefined : getAttributeValue(input, 'value');
  if (value === undefined) throw new Error(`no _csrf in ${html}`);
  return value;
}

async function getPage(path: string, cookie?: string) {
  const res = await fetch(app.url + path, {
    headers: cookie === undefined ? {} : { cookie },
    redirect: 'manual',
  });
  return { res, html: await res.text() };
}

async function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  const res = await fetch(app.url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  await res.arrayBuffer();
  return res;
}

t.test('the login flow by hand: form, token and cookie, 302, dashboard, logout', async (t) => {
  const form = await getPage('/login');
  t.equal(form.res.status, 200);
  const cookie = sessionCookieOf(form.res);
  t.match(cookie, /^connect\.sid=s%3A/, 'a signed express-session cookie');
  t.match(form.res.headers.getSetCookie()[0], /HttpOnly; SameSite=Lax/);
  const token = csrfOf(form.html);

  const login = await postForm(
    '/login',
    { _csrf: token, username: 'alice', password: 'pw-a' },
    cookie,
  );
  t.equal(login.status, 302);
  t.equal(login.headers.get('location'), '/dashboard');
  const loggedIn = sessionCookieOf(login);
  t.ok(loggedIn, 'a new cookie at login');
  t.not(loggedIn, cookie, 'the session was regenerated');

  const followed = await getPage(login.headers.get('location') ?? '', loggedIn);
  t.equal(followed.res.status, 200);
  const greeting = selected(followed.html, 'h1#greeting');
  t.equal(greeting === null ? undefined : textContent(greeting), 'Hello, alice');
  t.equal((await getPage('/dashboard', cookie)).res.status, 302, 'the old id is logged out');

  const logout = await postForm('/logout', { _csrf: csrfOf(followed.html) }, loggedIn);
  t.equal(logout.status, 302);
  t.equal(logout.headers.get('location'), '/login');
  const after = await getPage('/dashboard', loggedIn);
  t.equal(after.res.status, 302);
  t.equal(after.res.headers.get('location'), '/login');

  t.same(app.stats.logins, { alice: 1 });
  t.equal(app.stats.dashboardViews, 1);
  t.equal(app.stats.rejected.notLoggedIn, 2);
});

t.test('refusals: no or wrong token, bad credentials', async (t) => {
  const form = await getPage('/login');
  const cookie = sessionCookieOf(form.res);
  const token = csrfOf(form.html);
  const good = { username: 'bob', password: 'pw-b' };
  t.equal((await postForm('/login', { ...good, _csrf: token })).status, 403, 'no cookie');
  t.equal((await postForm('/login', good, cookie)).status, 403, 'no token');
  t.equal((await postForm('/login', { ...good, _csrf: 'nope' }, cookie)).status, 403);
  t.equal(app.stats.rejected.csrf, 3);

  const bad = await postForm('/login', { _csrf: token, username: 'bob', password: 'x' }, cookie);
  t.equal(bad.status, 302);
  t.equal(bad.headers.get('location'), '/login?error=1');
  const shown = await getPage('/login?error=1', cookie);
  t.ok(selected(shown.html, '#login-error'));
  t.equal(app.stats.rejected.credentials, 1);
  t.same(app.stats.logins, { alice: 1 }, 'bob never logged in');
});

t.test('/api/products is compressed by the compression middleware', async (t) => {
  const plain = await request(`${app.url}/api/products`);
  const text = await plain.body.text();
  t.equal(plain.headers['content-encoding'], undefined);
  t.ok(text.length > 1024, `${text.length} bytes: past compression's 1 KiB threshold`);
  t.same(JSON.parse(text), SESSION_APP_PRODUCTS);

  const zipped = await request(`${app.url}/api/products`, {
    headers: { 'accept-encoding': 'gzip' },
  });
  const bytes = Buffer.from(await zipped.body.arrayBuffer());
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.match(zipped.headers.vary, /Accept-Encoding/);
  t.same(JSON.parse(gunzipSync(bytes).toString('utf8')), SESSION_APP_PRODUCTS);
  t.match(app.stats.productEncodings, { identity: 1, gzip: 1 });

  const one = await fetch(`${app.url}/api/products/7`);
  t.same(await one.json(), SESSION_APP_PRODUCTS[6]);
  t.equal((await fetch(`${app.url}/api/products/99`)).status, 404);
});

t.test('/api/cart takes a numeric productId, /api/echo answers the decoded query', async (t) => {
  const post = (body: string) =>
    fetch(`${app.url}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
  const added = await post('{"productId":3}');
  t.equal(added.status, 201);
  t.same(await added.json(), { items: 1 });
  for (const body of ['{"productId":"3"}', '{}', '[3]']) {
    t.equal((await post(body)).status, 400, body);
  }
  t.same(app.stats.cart, [{ user: undefined, productId: 3 }]);
  t.equal(app.stats.rejected.cart, 3);

  const echo = await fetch(`${app.url}/api/echo?q=caf%C3%A9%20au+lait&tag=a&tag=b&empty=`);
  t.same(await echo.json(), { q: 'café au lait', tag: ['a', 'b'], empty: '' });
});

t.test('user names that would need escaping are refused', async (t) => {
  await t.rejects(startSessionApp({ '<b>': 'x' }), /user names must match/);
});
