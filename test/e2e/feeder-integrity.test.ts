// A CSV feeder is read in 64 KiB chunks: a 3,000-row file of 55-byte rows (170 KB, three chunk
// boundaries) must reach the target record by record as written, each row exactly once.
import t from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

const ROWS = 3000;

/** Row i: three fields, 54 bytes and a newline. */
function row(i: number): [string, string, string] {
  const n = String(i).padStart(5, '0');
  return [`user${n}`, `${'p'.repeat(20)}${n}`, `tag-${String(i % 97).padStart(3, '0')}-${n}xxxxx`];
}

t.test('every record of a 3,000-row CSV reaches the server as written', async (t) => {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = ['n', 'p', 't'].map((k) => url.searchParams.get(k)).join(',');
    seen.set(key, (seen.get(key) ?? 0) + 1);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const rows = Array.from({ length: ROWS }, (_, i) => row(i));
  const csv = 'name,pass,tag\n' + rows.map((r) => `${r.join(',')}\n`).join('');
  t.equal(Buffer.byteLength(csv), 14 + ROWS * 55, 'rows of 55 bytes');
  const dir = t.testdir({
    'users.csv': csv,
    'load.yaml': `target: http://127.0.0.1:${port}\nrequests: ${ROWS}\nconcurrency: 4\nfeeder: { file: users.csv, per: iteration, cycle: false }\nendpoints:\n  - { url: "/r?n={{name}}&p={{pass}}&t={{tag}}" }\n`,
  });
  const result = await runCli(['run', 'load.yaml', '--threads', '1', '--json-output'], {
    cwd: dir,
    killAfterMs: 120_000,
  });
  t.equal(result.code, 0, result.stderr);
  t.equal(seen.size, ROWS, 'every row arrived');
  t.same(
    rows.filter((r) => seen.get(r.join(',')) !== 1),
    [],
    'each row exactly once, as written',
  );
});
