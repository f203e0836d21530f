/**
 * A session web app's sign-in, as a target for extractor tests: GET /form answers an HTML page
 * (hand-written style: unclosed tags, upper-case attributes) with a fresh token in a hidden
 * `_csrf` input and another in a `csrf-token` meta tag; POST /login takes the form token in an
 * urlencoded body and the meta token in X-CSRF-Token, each good once, and counts good and bad.
 */
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';

/** The running target and its counts. */
export interface FormTarget {
  readonly url: string;
  /** Logins with a token issued by a form and not used before, in body and header. */
  readonly good: () => number;
  readonly bad: () => number;
}

/** GET /form: an HTML page with a hidden _csrf input and a meta tag; POST /login checks them. */
export async function formTarget(t: Test): Promise<FormTarget> {
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
