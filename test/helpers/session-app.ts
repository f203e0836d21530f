/**
 * A web app built from the libraries real sites use, to hold barrage's browser-like behaviour
 * (cookie jar, forms, redirects, decompression, HTML extraction) against something it did not
 * write: express 5, express-session (MemoryStore, signed `connect.sid` cookie), csrf-sync (a
 * synchroniser token kept in the session, rendered in the login form's hidden `_csrf` input) and
 * compression (gzip, deflate or br, by Accept-Encoding, past 1 KiB). On 127.0.0.1:0.
 *
 *   GET  /login              form (_csrf, username, password); the session starts here
 *   POST /login              bad token → 403; known user → 302 /dashboard (session regenerated);
 *                            otherwise → 302 /login?error=1
 *   GET  /dashboard          logged in → 200 <h1 id="greeting">Hello, alice</h1>, the session's
 *                            token in <meta name="csrf-token"> and the logout form; else 302 /login
 *   POST /logout             bad token → 403; else the session ends, 302 /login
 *   GET  /api/products       a JSON list of 50 products (5 KiB, compressed)
 *   GET  /api/products/:id   one product; 404 otherwise
 *   POST /api/cart           JSON {"productId": <number>} → 201 {"items": n}; anything else → 400
 *   GET  /api/echo           the decoded query (req.query) as JSON
 *   POST /api/orders         logged in, X-CSRF-Token (or _csrf) → 201 {"orderId": "ord_<random>"}
 *                            with Location, an order of the session's cart; no token → 403
 *   POST /api/orders/:id/checkout  X-CSRF-Token, JSON {"orderId": id, …}: an order of this session
 *                            → 200 {"status": "paid", "receipt": "rcpt_<random>"}; else 404/400
 */
import compression from 'compression';
import { csrfSync } from 'csrf-sync';
import express, { type NextFunction, type Request, type Response } from 'express';
import session from 'express-session';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

declare module 'express-session' {
  interface SessionData {
    user?: string;
    /** Product ids put in the cart by this session. */
    cart?: number[];
    /** Ids of this session's orders, server-generated. */
    orders?: string[];
  }
}

/** What the app saw; the object is live, updated as requests arrive. */
export interface SessionAppStats {
  /** Successful logins per user name. */
  logins: Record<string, number>;
  /** GET /dashboard answered 200 (to a logged-in session). */
  dashboardViews: number;
  /** Refused requests by reason. */
  rejected: {
    /** POST /login or /logout without the session's token (403). */
    csrf: number;
    /** POST /login with a valid token but an unknown user or wrong password. */
    credentials: number;
    /** GET /dashboard without a logged-in session (302 /login). */
    notLoggedIn: number;
    /** POST /api/cart without a numeric productId (400). */
    cart: number;
    /** POST /api/orders/:id/checkout of an order this session does not have (404, or 400). */
    order: number;
  };
  /** Orders created, and orders paid (checkouts that succeeded). */
  orders: number;
  checkouts: number;
  /** Every item put in a cart, in order, with the logged-in user (undefined if anonymous). */
  cart: { user: string | undefined; productId: number }[];
  /** GET /api/products answers by Content-Encoding ('identity' when not compressed). */
  productEncodings: Record<string, number>;
  /** The decoded query (req.query) of each GET /api/echo, in order. */
  echoed: unknown[];
}

/** A running session app. */
export interface SessionApp {
  /** Base URL without a trailing slash. */
  readonly url: string;
  readonly stats: SessionAppStats;
  close(): Promise<void>;
}

/** One product of the app's catalogue. */
export interface SessionAppProduct {
  id: number;
  name: string;
  price: number;
  description: string;
}

/** The 50 products of GET /api/products, ids 1..50. */
export const SESSION_APP_PRODUCTS: readonly SessionAppProduct[] = Array.from(
  { length: 50 },
  (_, i) => ({
    id: i + 1,
    name: `Product ${i + 1}`,
    price: (199 + i * 100) / 100,
    description: `The number ${i + 1} product of the session app`,
  }),
);

// User names go into the dashboard's HTML as they are: allowing only these characters makes
// escaping unnecessary.
const SAFE_USER = /^[A-Za-z0-9_.-]+$/;

function loginForm(token: string, failed: boolean): string {
  const error = failed ? '<p id="login-error">Wrong user name or password</p>' : '';
  return `<!doctype html><html><head><title>Sign in</title></head><body>${error}
<form method="post" action="/login">
<input type="hidden" name="_csrf" value="${token}">
<input name="username"><input type="password" name="password">
<button>Sign in</button></form></body></html>`;
}

function dashboard(user: string, token: string): string {
  return `<!doctype html><html><head><title>Dashboard</title>
<meta name="csrf-token" content="${token}"></head><body>
<h1 id="greeting">Hello, ${user}</h1>
<form method="post" action="/logout"><input type="hidden" name="_csrf" value="${token}">
<button>Sign out</button></form></body></html>`;
}

function emptyStats(): SessionAppStats {
  return {
    logins: {},
    dashboardViews: 0,
    rejected: { csrf: 0, credentials: 0, notLoggedIn: 0, cart: 0, order: 0 },
    orders: 0,
    checkouts: 0,
    cart: [],
    productEncodings: {},
    echoed: [],
  };
}

/** Builds the express app recording into `stats`; `users` maps user names to passwords. */
function buildApp(users: Readonly<Record<string, string>>, stats: SessionAppStats) {
  const { csrfSynchronisedProtection, invalidCsrfTokenError, generateToken } = csrfSync({
    getTokenFromRequest: (req) => {
      const token = (req.body as Record<string, unknown> | undefined)?._csrf;
      if (typeof token === 'string') return token;
      const header = req.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
  });
  const app = express();
  app.use(compression());
  app.use(
    session({
      secret: randomBytes(16).toString('hex'),
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax' },
    }),
  );
  const form = express.urlencoded({ extended: false });

  app.get('/login', (req, res) => {
    res.type('html').send(loginForm(generateToken(req), req.query.error === '1'));
  });
  app.post('/login', form, csrfSynchronisedProtection, (req, res, next) => {
    const { username, password } = req.body as Record<string, unknown>;
    const known = typeof username === 'string' && Object.hasOwn(users, username);
    if (!known || users[username] !== password) {
      stats.rejected.credentials++;
      return res.redirect(302, '/login?error=1');
    }
    // A new session id at login, as real apps do against session fixation.
    req.session.regenerate((error) => {
      if (error !== undefined && error !== null) return next(error);
      req.session.user = username;
      stats.logins[username] = (stats.logins[username] ?? 0) + 1;
      res.redirect(302, '/dashboard');
    });
  });
  app.get('/dashboard', (req, res) => {
    const user = req.session.user;
    if (user === undefined) {
      stats.rejected.notLoggedIn++;
      return res.redirect(302, '/login');
    }
    stats.dashboardViews++;
    res.type('html').send(dashboard(user, generateToken(req)));
  });
  app.post('/logout', form, csrfSynchronisedProtection, (req, res, next) => {
    req.session.destroy((error) => {
      if (error !== undefined && error !== null) return next(error);
      res.redirect(302, '/login');
    });
  });
  app.get('/api/products', (_req, res) => {
    res.on('finish', () => {
      const encoding = String(res.getHeader('content-encoding') ?? 'identity');
      stats.productEncodings[encoding] = (stats.productEncodings[encoding] ?? 0) + 1;
    });
    res.json(SESSION_APP_PRODUCTS);
  });
  app.get('/api/products/:id', (req, res) => {
    const product = SESSION_APP_PRODUCTS.find((p) => String(p.id) === req.params.id);
    if (product === undefined) return res.status(404).json({ error: 'no such product' });
    res.json(product);
  });
  app.post('/api/cart', express.json(), (req, res) => {
    const productId = (req.body as Record<string, unknown> | undefined)?.productId;
    if (typeof productId !== 'number') {
      stats.rejected.cart++;
      return res.status(400).json({ error: 'productId must be a number' });
    }
    stats.cart.push({ user: req.session.user, productId });
    req.session.cart = [...(req.session.cart ?? []), productId];
    res.status(201).json({ items: stats.cart.length });
  });
  app.post('/api/orders', express.json(), csrfSynchronisedProtection, (req, res) => {
    if (req.session.user === undefined) return res.status(401).json({ error: 'not logged in' });
    const items = req.session.cart ?? [];
    if (items.length === 0) return res.status(400).json({ error: 'the cart is empty' });
    const orderId = `ord_${randomBytes(8).toString('hex')}`;
    req.session.orders = [...(req.session.orders ?? []), orderId];
    req.session.cart = [];
    stats.orders++;
    res.location(`/api/orders/${orderId}`).status(201).json({ orderId, items: items.length });
  });
  app.post('/api/orders/:id/checkout', express.json(), csrfSynchronisedProtection, (req, res) => {
    const id = req.params.id;
    const body = req.body as Record<string, unknown> | undefined;
    if (typeof id !== 'string' || !(req.session.orders ?? []).includes(id)) {
      stats.rejected.order++;
      return res.status(404).json({ error: 'no such order' });
    }
    if (body?.orderId !== id) {
      stats.rejected.order++;
      return res.status(400).json({ error: 'orderId does not match the url' });
    }
    req.session.orders = (req.session.orders ?? []).filter((o) => o !== id);
    stats.checkouts++;
    res.json({ status: 'paid', receipt: `rcpt_${randomBytes(6).toString('hex')}` });
  });
  app.get('/api/echo', (req, res) => {
    stats.echoed.push(req.query);
    res.json(req.query);
  });
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (error !== invalidCsrfTokenError) return next(error);
    stats.rejected.csrf++;
    res.status(403).type('text').send('invalid csrf token');
  });
  return app;
}

/** Starts the app on 127.0.0.1:0; `users` maps user names to passwords, e.g. {alice: 'pw-a'}. */
export async function startSessionApp(
  users: Readonly<Record<string, string>>,
): Promise<SessionApp> {
  const unsafe = Object.keys(users).filter((user) => !SAFE_USER.test(user));
  if (unsafe.length > 0) throw new Error(`session app: user names must match ${SAFE_USER}`);
  const stats = emptyStats();
  const server = createServer(buildApp(users, stats));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      (closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
