/**
 * A loopback HTTP target that answers `status` (200 unless told) with `{"ok":true}` and counts
 * what it saw, by path and with each request's query, for tests that count a run's requests at
 * the server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

/** The target's URL and what it saw so far. */
export interface CountingTarget {
  readonly url: string;
  /** Requests by path (without the query). */
  readonly byPath: Map<string, number>;
  /** Every request's URL (path and query), in arrival order. */
  readonly urls: string[];
  /** All requests. */
  total(): number;
}

/** Starts the target on 127.0.0.1:0; closed in `t`'s teardown. */
export async function countingTarget(t: Test, status = 200): Promise<CountingTarget> {
  const byPath = new Map<string, number>();
  const urls: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    urls.push(url);
    const path = url.split('?', 1)[0]!;
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, byPath, urls, total: () => urls.length };
}
