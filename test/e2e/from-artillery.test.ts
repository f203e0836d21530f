// The Artillery forms of scenarios/from-artillery/ (docs/from-artillery.md), each run (and so
// validated first) by the built binary against an express stand-in that counts what it saw: the counts must
// be what the flows say (each page once, each listed product once, one branch an iteration),
// every check pass, and every 401 be followed by one refresh and one answered retry.
import t, { type Test } from 'tap';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/run-cli.js';

const DIR = fileURLToPath(new URL('../../scenarios/from-artillery/', import.meta.url));

const PAGES: Record<string, { items: { id: string; name: string }[]; next?: string }> = {
  '': { items: [0, 1, 2].map((i) => ({ id: `p${i}`, name: `product ${i}` })), next: 'c2' },
  c2: { items: [3, 4].map((i) => ({ id: `p${i}`, name: `product ${i}` })), next: 'c3' },
  c3: { items: [5, 6, 7].map((i) => ({ id: `p${i}`, name: `product ${i}` })) },
};

async function standIn(t: Test): Promise<{ url: string; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const tokens = new Map<string, number>();
  let issued = 0;
  const app = express();
  app.use(express.json());
  app.use((req, _res, next) => {
    const key = `${req.method} ${req.url}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    next();
  });
  app.get('/products', (req, res) => {
    const page = PAGES[typeof req.query.cursor === 'string' ? req.query.cursor : ''];
    if (page === undefined) res.status(400).end();
    else res.json(page);
  });
  app.get('/products/:id', (req, res) => {
    const n = Number(req.params.id.slice(1));
    res.json({ id: req.params.id, name: `product ${n}` });
  });
  app.post('/reviews', (_req, res) => res.status(201).json({ ok: true }));
  app.get('/ping', (_req, res) => res.json({ ok: true }));
  app.post('/login', (req, res) => {
    const { email } = req.body as { email: string };
    res.cookie('session', email).json({ ok: true });
  });
  app.get('/account', (req, res) => {
    const session = /session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    res.json({ user: { email: decodeURIComponent(session ?? '') } });
  });
  app.post('/set-state', (req, res) => {
    const state = /state=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    res.cookie('current', state).status(204).end();
  });
  app.get('/state', (req, res) => {
    res.json({ currentState: /current=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '' });
  });
  app.post('/token', (_req, res) => {
    const token = `t${issued++}`;
    tokens.set(token, 3);
    res.json({ token });
  });
  const zoo = (req: express.Request, res: express.Response): void => {
    const token = (req.headers.authorization ?? '').replace('Bearer ', '');
    const left = tokens.get(token) ?? 0;
    if (left <= 0) {
      res.status(401).end();
      return;
    }
    tokens.set(token, left - 1);
    res.json({ ok: true });
  };
  app.get('/dino', zoo);
  app.get('/pony', zoo);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

interface Result {
  readonly failures: number;
  readonly retries: number;
  readonly iterations: number;
  readonly checks?: { readonly by_name: Record<string, { passes: number; fails: number }> };
  readonly endpoints: readonly { readonly name: string; readonly requests: number }[];
}

/** `run` validates first (a refused file exits 1 with nothing sent), then runs. */
async function run(t: Test, file: string, url: string): Promise<Result> {
  const result = await runCli(['run', file, '--target', url, '--json-output'], { cwd: DIR });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Result;
}

const count = (seen: Map<string, number>, prefix: string): number =>
  [...seen].filter(([k]) => k.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);

t.test('shop-walk.yaml: loops, a branch, a random pick and checks against variables', async (t) => {
  const app = await standIn(t);
  const result = await run(t, 'shop-walk.yaml', app.url);
  const walks = app.seen.get('GET /products') ?? 0;
  const health = app.seen.get('GET /ping') ?? 0;
  t.equal(walks + health / 3, 20, 'twenty iterations: a walk, or three pings');
  t.equal(health % 3, 0, 'pings come three at a time');
  t.equal(app.seen.get('GET /products?cursor=c2'), walks, 'each page once a walk');
  t.equal(app.seen.get('GET /products?cursor=c3'), walks);
  t.equal(app.seen.get('GET /products?cursor=c4'), undefined, 'never past the last page');
  const listed = [0, 1, 2].map((i) => app.seen.get(`GET /products/p${i}`) ?? 0);
  const branches = (app.seen.get('POST /reviews') ?? 0) + count(app.seen, 'GET /products/p');
  t.equal(
    branches - listed.reduce((a, b) => a + b, 0) + listed.reduce((a, b) => a + b, 0),
    branches,
  );
  t.equal(
    (app.seen.get('POST /reviews') ?? 0) + count(app.seen, 'GET /products/p') - 3 * walks,
    walks,
    'each walk read its three listed products, then took one branch',
  );
  t.equal(result.failures, 0);
  for (const [name, figures] of Object.entries(result.checks?.by_name ?? {}))
    t.equal(figures.fails, 0, `check ${name} passed every time`);
});

t.test('login-cookies.yaml: cookies and a match against the feeder email', async (t) => {
  const app = await standIn(t);
  const result = await run(t, 'login-cookies.yaml', app.url);
  t.equal(app.seen.get('GET /account'), 12);
  t.equal(app.seen.get('GET /state'), 12);
  t.strictSame(result.checks?.by_name, {
    'own account': { passes: 12, fails: 0 },
    online: { passes: 12, fails: 0 },
  });
});

t.test('refresh-token.yaml: reauth in place of a beforeRequest hook', async (t) => {
  const app = await standIn(t);
  const result = await run(t, 'refresh-token.yaml', app.url);
  const calls = (app.seen.get('GET /dino') ?? 0) + (app.seen.get('GET /pony') ?? 0);
  const refreshes = (app.seen.get('POST /token') ?? 0) - 1;
  // 20 calls answered, on tokens of three uses: a refresh (and one refused call) every three.
  t.equal(calls - refreshes, 20, 'each refused call retried once after a refresh');
  t.equal(refreshes, 6);
  t.equal(result.retries, refreshes);
  t.equal(result.failures, refreshes, 'the refused attempts, counted as requests');
});
