/**
 * `barrage merge` on corrupted and crafted raw files (issue 30): each is checked against the raw
 * result schema before anything merges, and refused with exit 1, the file's name and the field,
 * no stack trace, nothing on stdout. The files are mutations of a real segment's raw result.
 */
import t from 'tap';
import { build, encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess, type CliResult } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

type Json = Record<string, unknown> & {
  snapshot: Record<string, unknown> & { endpoints: Record<string, unknown>[] };
};

/** A compressed-histogram cookie and length around deflated bytes, as base64. */
function compressed(payload: Buffer): string {
  const deflated = deflateSync(payload);
  const head = Buffer.alloc(8);
  head.writeInt32BE(0x1c849304 | 0x10, 0);
  head.writeInt32BE(deflated.length, 4);
  return Buffer.concat([head, deflated]).toString('base64');
}

/** A histogram of another layout (1 µs … 1 s, 2 digits). */
function otherLayout(): string {
  const histogram = build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 1_000_000,
    numberOfSignificantValueDigits: 2,
  });
  histogram.recordValue(500);
  return encodeIntoCompressedBase64(histogram);
}

t.test('25+ corrupted or crafted raw files: each refused clearly', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}\nrequests: 20\nconcurrency: 2\nendpoints: [{ name: a, url: /json }, { name: b, url: / }]\n`,
  });
  for (const i of [1, 2]) {
    const seg = await runCli(
      ['run', 'load.yaml', '--segment', `${i}/2`, '--raw', `s${i}.json`, '--json-output'],
      { cwd: dir },
    );
    t.equal(seg.code, 0, seg.stderr);
  }
  const good = await runCli(['merge', 's1.json', 's2.json', '--json-output'], { cwd: dir });
  t.equal(good.code, 0, `the real files merge: ${good.stderr}`);
  const text = readFileSync(join(dir, 's1.json'), 'utf8');
  const base = (): Json => JSON.parse(text) as Json;
  const edit = (change: (raw: Json) => void): string => {
    const raw = base();
    change(raw);
    return JSON.stringify(raw);
  };
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const cases: [string, string | Buffer, RegExp][] = [
    ['truncated.json', text.slice(0, text.length / 2), /expected a raw result \(JSON\)/],
    ['empty.json', '', /expected a raw result \(JSON\)/],
    ['version.json', edit((r) => (r.version = 2)), /version: expected raw result version 1, got 2/],
    ['format.json', edit((r) => (r.format = 'k6')), /format: expected "barrage-raw"/],
    [
      'no-snapshot.json',
      edit((r) => delete (r as Partial<Json>).snapshot),
      /snapshot: expected a snapshot, got nothing/,
    ],
    ['no-fingerprint.json', edit((r) => delete r.fingerprint), /fingerprint: .*got nothing/],
    ['fingerprint-type.json', edit((r) => (r.fingerprint = 42)), /fingerprint: .*got 42/],
    [
      'segment-zero.json',
      edit((r) => (r.segment = { index: 0, count: 2 })),
      /segment\.index: expected a segment index ≥ 1, got 0/,
    ],
    [
      'segment-past.json',
      edit((r) => (r.segment = { index: 3, count: 2 })),
      /segment: expected a segment index at most the segment count/,
    ],
    [
      'negative.json',
      edit((r) => (r.snapshot.requests = -5)),
      /snapshot\.requests: expected a count \(a whole number ≥ 0\), got -5/,
    ],
    [
      'string-count.json',
      edit((r) => (r.snapshot.requests = '10')),
      /snapshot\.requests: expected a count.*got "10"/,
    ],
    [
      'fraction.json',
      edit((r) => (r.snapshot.successes = 1.5)),
      /snapshot\.successes: expected a count.*got 1\.5/,
    ],
    [
      'huge.json',
      edit((r) => (r.snapshot.bytesIn = 1e300)),
      /snapshot\.bytesIn: expected a count of at most/,
    ],
    [
      'infinity.json',
      text.replace(/"elapsedMs":\s*[\d.]+/, '"elapsedMs": 1e999'),
      /snapshot\.elapsedMs: /,
    ],
    [
      'nan.json',
      edit((r) => (r.snapshot.elapsedMs = 'NaN')),
      /snapshot\.elapsedMs: expected a duration in ms, got "NaN"/,
    ],
    [
      'not-base64.json',
      edit((r) => (r.snapshot.latency = '!!not base64!!')),
      /snapshot\.latency: expected a compressed HDR histogram of barrage's layout, got not base64/,
    ],
    [
      'not-hdr.json',
      edit((r) => (r.snapshot.latency = 'AAAAAAAAAAAA')),
      /snapshot\.latency: expected a compressed HDR histogram of barrage's layout, got not a compressed HDR histogram/,
    ],
    [
      'cut-hdr.json',
      edit((r) => (r.snapshot.latency = String(r.snapshot.latency).slice(0, 24))),
      /snapshot\.latency: expected a compressed HDR histogram of barrage's layout, got a truncated histogram/,
    ],
    [
      'layout.json',
      edit((r) => (r.snapshot.endpoints[0]!.latency = otherLayout())),
      /snapshot\.endpoints\[0\]\.latency: expected a compressed HDR histogram of barrage's layout, got not a histogram of barrage's layout/,
    ],
    [
      'bomb.json',
      edit((r) => (r.snapshot.intended = compressed(Buffer.alloc(64 * 1024 * 1024)))),
      /snapshot\.intended: expected a compressed HDR histogram of barrage's layout, got a histogram that does not inflate, or inflates larger/,
    ],
    [
      'junk-hdr.json',
      edit(
        (r) =>
          (r.snapshot.latency = compressed(
            Buffer.from('garbage garbage garbage garbage garbage garbage'),
          )),
      ),
      /snapshot\.latency: expected a compressed HDR histogram of barrage's layout, got not a histogram of barrage's layout/,
    ],
    [
      'fewer-endpoints.json',
      edit((r) => r.snapshot.endpoints.pop()),
      /snapshot\.endpoints: expected as many endpoint figures as endpointNames/,
    ],
    [
      'endpoints-object.json',
      edit((r) => (r.snapshot.endpoints = {} as never)),
      /snapshot\.endpoints: expected a list of endpoint figures, got a mapping/,
    ],
    [
      'renamed.json',
      edit((r) => (r.endpointNames = ['a', 'zzz'])),
      /s2\.json lists other endpoints than renamed\.json/,
    ],
    [
      'deep.json',
      edit(
        (r) => (r.config = { junk: JSON.parse('['.repeat(1000) + ']'.repeat(1000)) as unknown }),
      ),
      /config: expected the effective configuration, nested at most 64 levels/,
    ],
    [
      'deep-top.json',
      deep,
      /expected a raw result object, got a list of 1|expected a raw result \(JSON\)/,
    ],
    [
      'extra-key.json',
      edit((r) => (r.payload = { a: { b: { c: 1 } } })),
      /expected a raw result object|payload/,
    ],
    ['array.json', '[]', /expected a raw result object, got a list of 0/],
    ['null.json', 'null', /expected a raw result object, got null/],
    [
      'status-negative.json',
      edit((r) => (r.snapshot.statusCodes = { 200: -1 })),
      /snapshot\.statusCodes\.200: expected a count/,
    ],
    [
      'second-negative.json',
      edit(
        (r) =>
          ((r.snapshot.series as { second: number }[])[0] = {
            ...(r.snapshot.series as { second: number }[])[0]!,
            second: -1,
          }),
      ),
      /snapshot\.series\[0\]\.second: expected a count/,
    ],
    [
      'operator.json',
      edit(
        (r) =>
          (r.thresholds = [
            {
              expression: 'x',
              metric: 'x',
              tags: {},
              aggregate: 'p95',
              operator: '=>',
              expected: 1,
            },
          ]),
      ),
      /thresholds\[0\]\.operator/,
    ],
    [
      'latin1.json',
      Buffer.concat([
        Buffer.from(text.slice(0, -1)),
        Buffer.from(',"fatal":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}'),
      ]),
      /expected a raw result in UTF-8, got bytes that are not UTF-8/,
    ],
    [
      'custom-layout.json',
      edit((r) => {
        // A latency histogram (µs, 1 h) where a custom trend's layout (0 … 2^53) belongs.
        const latency = r.snapshot.latency as string;
        r.snapshot.custom = {
          size: {
            kind: 'trend',
            series: [
              {
                tags: {},
                samples: 1,
                sum: 1,
                trues: 1,
                last: 1,
                lastAt: 1,
                min: 1,
                max: 1,
                histogram: latency,
              },
            ],
            folded: 0,
            rejected: 0,
          },
        };
      }),
      /snapshot\.custom\.size\.series\[0\]\.histogram: expected a compressed HDR histogram of barrage's custom trend layout, got not a histogram of barrage's layout \(custom trends/,
    ],
    [
      'custom-kind.json',
      edit((r) => {
        r.snapshot.custom = { hits: { kind: 'summary', series: [], folded: 0, rejected: 0 } };
      }),
      /snapshot\.custom\.hits\.kind: expected one of trend, counter, rate, gauge/,
    ],
  ];
  for (const [name, content] of cases) writeFileSync(join(dir, name), content);
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  mkdirSync(join(dir, 'folder.json'));
  cases.push(
    ['fifo.json', '', /expected a regular raw result, got a FIFO/],
    ['folder.json', '', /expected a regular raw result, got a directory/],
    ['missing.json', '', /expected an existing raw result, got no such file/],
  );
  t.ok(cases.length >= 25, `${cases.length} files`);
  // In process (main() with its streams): a hostile file must not crash barrage's code, which a
  // throw out of main() would show here (the segments above are merged by the spawned binary).
  const results: CliResult[] = [];
  for (const [name] of cases)
    results.push(await runInProcess(['merge', name, 's2.json', '--json-output'], { cwd: dir }));
  cases.forEach(([name, , pattern], i) => {
    const result = results[i]!;
    t.equal(result.code, 1, `${name}: exit 1`);
    t.match(result.stderr, new RegExp(`${name.replace('.', '\\.')}`), `${name}: names the file`);
    t.match(result.stderr, pattern, `${name}: names the field, expected and given`);
    t.notMatch(result.stderr, /^\s+at |internal error/m, `${name}: no stack trace`);
    t.equal(result.stdout, '', `${name}: nothing on stdout`);
  });
});
