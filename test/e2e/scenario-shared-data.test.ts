import t, { type Test } from 'tap';
import { mkdtempSync, openSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf } from '../helpers/processes.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** A loopback target that keeps every request's url. */
async function recorder(t: Test): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-data-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** `barrage run` of the folder's scenario.ts against `target`, the JSON result on stdout. */
const runArgs = (dir: string, target: string, ...extra: string[]): string[] => [
  'run',
  '--scenario',
  join(dir, 'scenario.ts'),
  '--target',
  target,
  '--no-dashboard',
  '--json-output',
  ...extra,
];

const run = (dir: string, target: string, ...extra: string[]): Promise<SpawnResult> =>
  runCli(runArgs(dir, target, ...extra));

t.test(
  'a scenario builds its requests from the records of a shared JSON and CSV file',
  async (t) => {
    const target = await recorder(t);
    const dir = folder({
      'users.json': JSON.stringify([{ name: 'zoë', n: 1 }, 'plain', { name: 'bob', n: 3 }]),
      'cities.csv': 'city,zip,__proto__\nParis,75000,a\n"Köln, DE",50667,b\n',
      'scenario.ts': `
      import { data, http } from 'barrage';
      const users = data.json('users.json');
      const cities = data.csv('cities.csv');
      export default async function (vu: { iteration: number }) {
        const i = vu.iteration;
        const user = users[i % users.length];
        const city = cities.at(-1 - (i % cities.length)) as Record<string, string>;
        const names = [...users].map((u) => (typeof u === 'string' ? u : (u as { name: string }).name));
        await http.get('/r', { query: {
          i, user: JSON.stringify(user), city: city.city, zip: city.zip, proto: city['__proto__'],
          names: names.join('|'), count: users.length + cities.length, frozen: String(Reflect.set(users, 0, 1)),
        } });
      }`,
    });
    const result = await run(dir, target.url, '--requests', '3', '--concurrency', '1');
    t.equal(result.code, 0, result.stderr);
    const queries = target.seen.map((u) => new URL(u, 'http://x').searchParams);
    const users = ['{"name":"zoë","n":1}', '"plain"', '{"name":"bob","n":3}'];
    const cities = [
      ['Paris', '75000', 'a'],
      ['Köln, DE', '50667', 'b'],
    ];
    t.equal(queries.length, 3);
    for (const q of queries) {
      const i = Number(q.get('i'));
      t.same(
        [q.get('user'), q.get('city'), q.get('zip'), q.get('proto')],
        [users[i % 3], ...cities[1 - (i % 2)]!],
        `iteration ${i}`,
      );
    }
    t.ok(queries.every((q) => q.get('names') === 'zoë|plain|bob' && q.get('count') === '5'));
    t.ok(
      queries.every((q) => q.get('frozen') === 'false'),
      'records cannot be replaced',
    );
  },
);

t.test('a data file opened inside an iteration fails that iteration, saying why', async (t) => {
  const target = await recorder(t);
  const dir = folder({
    'users.json': '[1]',
    'scenario.ts': `
      import { data } from 'barrage';
      export default async function () { data.json('users.json'); }`,
  });
  const result = await run(dir, target.url, '--requests', '1', '--concurrency', '1');
  t.match(result.stderr, /opened at the top level of the scenario/);
  t.equal((JSON.parse(result.stdout) as { iterations_failed: number }).iterations_failed, 1);
});

t.test('a bad data file is refused before anything is sent, naming the file', async (t) => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    [
      'outside the folder',
      {},
      `data.json('../outside.json')`,
      /outside\.json.*inside the scenario's folder/,
    ],
    ['missing', {}, `data.json('missing.json')`, /missing\.json.*expected an existing data file/],
    [
      'not an array',
      { 'obj.json': '{"a":1}' },
      `data.json('obj.json')`,
      /obj\.json.*expected a JSON array of records, got object/,
    ],
    [
      'not JSON',
      { 'bad.json': '[1,' },
      `data.json('bad.json')`,
      /bad\.json.*expected a JSON array of records/,
    ],
    [
      'bad CSV',
      { 'bad.csv': 'a,b\n1,2,3\n' },
      `data.csv('bad.csv')`,
      /bad\.csv:2:1.*well-formed CSV/,
    ],
    [
      'read at the top level',
      { 'u.json': '[1]' },
      `data.json('u.json')[0]`,
      /records are read in iterations/,
    ],
  ];
  for (const [name, files, open, message] of cases) {
    await t.test(name, async (t) => {
      const target = await recorder(t);
      const dir = folder({
        ...files,
        'scenario.ts': `import { data } from 'barrage';\nconst d = ${open};\nexport default async function () {}\n`,
      });
      writeFileSync(join(dir, '..', 'outside.json'), '[1]');
      const validate = await runCli([
        'validate',
        '--scenario',
        join(dir, 'scenario.ts'),
        '--target',
        target.url,
      ]);
      t.equal(validate.code, 1);
      t.match(validate.stderr, message);
      t.notMatch(validate.stderr, /internal error| {4}at /);
      const ran = await run(dir, target.url, '--requests', '1');
      t.equal(ran.code, 1);
      t.match(ran.stderr, message);
      t.equal(target.seen.length, 0, 'nothing sent');
    });
  }
});

/** A JSON array of about `mb` MB of records, written in pieces. */
function bigJson(path: string, mb: number): number {
  const fd = openSync(path, 'w');
  let size = 0;
  const put = (text: string): void => {
    size += writeSync(fd, text);
  };
  put('[');
  for (let i = 0; size < mb * 1e6; i++) {
    const rows: string[] = [];
    for (let k = 0; k < 10_000; k++, i++)
      rows.push(
        JSON.stringify({
          id: i,
          name: `user-${i}`,
          email: `user-${i}@example.com`,
          note: 'x'.repeat(40),
        }),
      );
    put((i < 10_001 ? '' : ',') + rows.join(','));
  }
  put(']');
  closeSync(fd);
  return size;
}

/** Peak resident memory (VmHWM) of the scripted segment's child, in bytes, over a 2 s run. */
async function childPeak(dir: string, target: string): Promise<number> {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  const result = await runCli(runArgs(dir, target, '--threads', '1', '-c', '50', '-d', '2s'), {
    killAfterMs: 90_000,
    onSpawn: (child) => {
      timer = setInterval(() => {
        for (const pid of childrenOf(child.pid!, 'child-entry')) {
          try {
            const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
            if (kb !== null) peak = Math.max(peak, Number(kb[1]) * 1024);
          } catch {
            // gone meanwhile
          }
        }
      }, 50);
    },
  });
  clearInterval(timer);
  const report = JSON.parse(result.stdout) as { total: number; iterations_failed: number };
  if (result.code !== 0 || report.total === 0 || report.iterations_failed > 0)
    throw new Error(`the run failed: ${result.stderr}`);
  return peak;
}

t.test(
  'a 100 MB JSON file read by 50 virtual users costs the segment less than twice its size',
  async (t) => {
    const target = await recorder(t);
    const scenario = `
    import { data, http } from 'barrage';
    const users = data.json('users.json');
    export default async function (vu: { id: number; iteration: number }) {
      const user = users[(vu.id * 7919 + vu.iteration * 104729) % users.length] as { name: string };
      await http.get('/u?name=' + user.name);
    }`;
    const small = folder({ 'scenario.ts': scenario, 'users.json': '[{"name":"a"}]' });
    const large = folder({ 'scenario.ts': scenario });
    const size = bigJson(join(large, 'users.json'), 100);
    const base = await childPeak(small, target.url);
    const loaded = await childPeak(large, target.url);
    t.ok(base > 0 && loaded > 0, 'peaks measured');
    t.ok(
      target.seen.some((u) => /^\/u\?name=user-\d+$/.test(u)),
      'records of the large file were sent',
    );
    t.ok(
      loaded - base < 2 * size,
      `peak RSS grew by ${((loaded - base) / 1e6).toFixed(0)} MB for a ${(size / 1e6).toFixed(0)} MB file (base ${(base / 1e6).toFixed(0)} MB)`,
    );
  },
);
