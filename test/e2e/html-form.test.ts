// A login form's CSRF token read by css and regex extractors: the built CLI, spawned, against a
// node:http server that hands out a fresh token with each form and counts the logins that bring
// back a token it issued (each token good once).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { runCli } from '../helpers/run-cli.js';

interface FormTarget {
  readonly url: string;
  /** Logins with a token issued by a form and not used before, in body and header. */
  readonly good: () => number;
  readonly bad: () => number;
}

/** GET /form: an HTML page with a hidden _csrf input and a meta tag; POST /login checks them. */
async function formTarget(t: Test): Promise<FormTarget> {
  const issued = new Set<string>();
  let good = 0;
  let bad = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/form') {
        const token = randomBytes(12).toString('base64url');
        const meta = randomBytes(12).toString('hex');
        issued.add(token);
        issued.add(meta);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        // Unclosed tags and attributes in both cases, as hand-written pages have them.
        res.end(
          `<!DOCTYPE html><html><head><meta name="csrf-token" content="${meta}"><title>Sign in</title>` +
            `<body><form method=post action=/login><p>User <input name=user>` +
            `<INPUT TYPE=hidden NAME="_csrf" VALUE="${token}"><button>Go</button></form>`,
        );
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const token = form.get('_csrf') ?? '';
      const meta = String(req.headers['x-csrf-token'] ?? '');
      const ok = req.url === '/login' && issued.delete(token) && issued.delete(meta);
      if (ok) good++;
      else bad++;
      res.writeHead(ok ? 200 : 403).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, good: () => good, bad: () => bad };
}

t.test('the token of each form is sent back by the login that follows it', async (t) => {
  const target = await formTarget(t);
  const config = [
    `target: ${target.url}`,
    'requests: 40',
    'concurrency: 4',
    'flows: [{ name: sign-in, steps: [form, login] }]',
    'endpoints:',
    '  - name: form',
    '    url: /form',
    '    extract:',
    "      csrf: { css: 'form input[name=_csrf]', attr: value }",
    `      meta: { regex: '<meta name="csrf-token" content="([0-9a-f]+)">' }`,
    '  - name: login',
    '    method: POST',
    '    url: /login',
    '    headers: { Content-Type: application/x-www-form-urlencoded, X-CSRF-Token: "{{meta}}" }',
    '    body: "user=ada&_csrf={{csrf}}"',
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': `${config}\n` });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    failures: number;
    endpoints: { name: string; requests: number }[];
  };
  const logins = report.endpoints.find((e) => e.name === 'login')?.requests;
  t.equal(logins, 40, 'a flow per iteration');
  t.equal(report.failures, 0);
  t.equal(target.good(), logins, 'every login carried the token of its own form');
  t.equal(target.bad(), 0);
});
