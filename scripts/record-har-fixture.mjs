// Records test/fixtures/har/chromium-shop.har with headless Chromium (not run by `npm test`).
//
//   node scripts/record-har-fixture.mjs [out.har]
//
// Needs Debian's chromium (apt-get install -y chromium) and playwright-core (a devDependency).
// Two local servers stand in for a shop and a third party: Chromium maps every *.test host to
// 127.0.0.1 (--host-resolver-rules), so the recording holds real-looking host names
// (shop.test:<port>, cdn.tracker.test:<port>) while no packet leaves the loopback interface.
// The page loads a stylesheet, a font, an image, a script, JSON twice (identical requests), a
// JSON POST with Authorization and X-CSRF-Token headers, a form POST with a password, a query
// with an access_token, and a script and a pixel from the third party; the shop sets a cookie.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const out = process.argv[2] ?? 'test/fixtures/har/chromium-shop.har';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Starts a server on 127.0.0.1:0 with a route table; resolves with its port. */
function serve(routes) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const route = routes[`${req.method} ${path}`] ?? routes[path];
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      route(req, res, body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Sends a JSON body, gzipped when the client accepts it (as a real server would). */
function json(req, res, value, status = 200) {
  const text = Buffer.from(JSON.stringify(value));
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(gzip ? gzipSync(text) : text);
}

const tracker = await serve({
  '/analytics.js': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/javascript' })
      .end("new Image().src = document.currentScript.src.replace('analytics.js', 'pixel.gif');"),
  '/pixel.gif': (_req, res) => res.writeHead(200, { 'content-type': 'image/gif' }).end(GIF),
});
const trackerOrigin = `http://cdn.tracker.test:${tracker.address().port}`;

const page = `<!doctype html>
<html><head><title>Shop</title><link rel="stylesheet" href="/static/site.css">
<script src="${trackerOrigin}/analytics.js" async></script></head>
<body><h1>Shop</h1><img src="/static/logo.png" alt="logo"><ul id="items"></ul>
<script src="/static/app.js"></script></body></html>`;

const app = `
(async () => {
  const items = await (await fetch('/api/items?page=1')).json();
  await fetch('/api/items?page=1');
  await fetch('/api/cart', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: 'Bearer recorded-bearer-token',
      'X-CSRF-Token': 'recorded-csrf-token',
    },
    body: JSON.stringify({ item: items[0].id, quantity: 2 }),
  });
  await fetch('/api/login', {
    method: 'POST',
    body: new URLSearchParams({ user: 'ada', password: 'recorded-password' }),
  });
  await fetch('/api/profile?access_token=recorded-query-token&view=full');
  await fetch('/api/items/' + items[1].id, { method: 'DELETE' });
  document.title = 'done';
})();`;

const shop = await serve({
  '/': (_req, res) =>
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': 'sid=recorded-session-cookie; Path=/; HttpOnly',
      })
      .end(page),
  '/static/site.css': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/css' })
      .end(
        "@font-face { font-family: Shop; src: url('/static/shop.woff2') format('woff2'); } body { font-family: Shop, sans-serif; }",
      ),
  '/static/shop.woff2': (_req, res) =>
    res.writeHead(200, { 'content-type': 'font/woff2' }).end(Buffer.alloc(64)),
  '/static/logo.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
  '/static/app.js': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(app),
  '/api/items': (req, res) =>
    json(req, res, [
      { id: 'a1', name: 'anvil' },
      { id: 'b2', name: 'bucket' },
    ]),
  'POST /api/cart': (req, res, body) => json(req, res, { added: JSON.parse(body) }, 201),
  'POST /api/login': (req, res) => json(req, res, { ok: true }),
  '/api/profile': (req, res) => json(req, res, { name: 'ada' }),
  'DELETE /api/items/b2': (_req, res) => res.writeHead(204).end(),
});
const shopOrigin = `http://shop.test:${shop.address().port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--host-resolver-rules=MAP *.test 127.0.0.1',
  ],
});
try {
  const context = await browser.newContext({ recordHar: { path: out, content: 'embed' } });
  const tab = await context.newPage();
  await tab.goto(`${shopOrigin}/`);
  await tab.waitForFunction('document.title === "done"');
  await tab.waitForLoadState('networkidle');
  await context.close();
} finally {
  await browser.close();
  shop.close();
  tracker.close();
}
console.log(`recorded ${out} (shop ${shopOrigin}, third party ${trackerOrigin})`);
