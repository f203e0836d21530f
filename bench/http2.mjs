// The HTTP/2 phase: barrage's closed-model throughput against one TLS target over HTTP/1.1
// (http2 off) and HTTP/2 (`http2: true`), printed as the ratio h2/h1. The target is
// bench/h2-target.mjs with a self-signed certificate made by openssl at the start (the phase is
// skipped without openssl); barrage runs with `insecure: true`. Rounds alternate so a noisy
// machine's drift falls on both rows alike. h2load (Debian's nghttp2-client), when installed, is
// the h2 peer at the same concurrency, one stream per connection as barrage sends.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternateBarrage, runUndiciLoop } from './generators.mjs';
import { has, measure } from './processes.mjs';
import { startH2Target } from './targets.mjs';
import { table } from './table.mjs';

const ROUNDS = 2;
const CONCURRENCY = 50;

/** A self-signed certificate for 127.0.0.1 in `dir`; false when openssl failed. */
function selfSigned(dir) {
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return made.status === 0;
}

/** h2load's requests per second and its failures, or undefined when it is not installed. */
async function runH2load({ url, seconds, core }) {
  if (!has('h2load')) return undefined;
  const run = await measure(core, 'h2load', [
    '-c',
    String(CONCURRENCY),
    '-m',
    '1',
    '-D',
    String(seconds),
    url,
  ]);
  return {
    name: 'h2load (h2, 1 stream a connection)',
    rps: Number(/finished in [^,]+, ([\d.]+) req\/s/.exec(run.stdout)?.[1]),
    p50: undefined,
    failures: Number(/(\d+) failed/.exec(run.stdout)?.[1]),
  };
}

export async function http2Phase({ seconds, generatorCore, targetCore, fmt }) {
  if (!has('openssl')) {
    console.log('\n## HTTP/2: skipped (openssl is not installed: it makes the TLS certificate)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bench-h2-'));
  try {
    if (!selfSigned(dir)) {
      console.log('\n## HTTP/2: skipped (openssl could not make a self-signed certificate)');
      return;
    }
    writeFileSync(join(dir, 'h2.yaml'), 'insecure: true\nhttp2: true\n');
    const target = await startH2Target(targetCore, join(dir, 'cert.pem'), join(dir, 'key.pem'));
    console.log(
      `\n## HTTP/2: concurrency ${CONCURRENCY}, ${seconds}s a run, ${ROUNDS} rounds, TLS target ${target.name}`,
    );
    try {
      const configs = [
        ['barrage, HTTP/1.1 (http2 off)', ['--insecure']],
        ['barrage, HTTP/2 (http2: true)', ['--config', join(dir, 'h2.yaml')]],
      ];
      const runs = await alternateBarrage(configs, ROUNDS, {
        url: `${target.url}/`,
        concurrency: CONCURRENCY,
        seconds,
        core: generatorCore,
      });
      const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
      const rows = configs.map(([name], i) => ({
        name,
        rps: mean(runs[i].map((r) => r.rps)),
        p50: mean(runs[i].map((r) => r.p50)),
        failures: runs[i].reduce((n, r) => n + r.result.failures, 0),
        protocols: [
          ...new Set(runs[i].flatMap((r) => r.result.endpoints.flatMap((e) => e.protocols ?? []))),
        ].join(' '),
      }));
      // The bare undici loop over each protocol: what barrage's own path costs on top of it.
      for (const h2 of [false, true]) {
        const loop = await runUndiciLoop({
          url: `${target.url}/`,
          concurrency: CONCURRENCY,
          seconds,
          core: generatorCore,
          h2,
        });
        rows.push({ name: loop.tool, rps: loop.rps, p50: undefined, failures: 0, protocols: '' });
      }
      const peer = await runH2load({ url: `${target.url}/`, seconds, core: generatorCore });
      if (peer !== undefined) rows.push({ ...peer, protocols: 'h2' });
      const h1 = rows[0].rps;
      table(rows, [
        ['generator', (r) => r.name],
        ['protocols', (r) => r.protocols],
        ['req/s (mean)', (r) => fmt(r.rps, 0)],
        ['p50 ms', (r) => fmt(r.p50)],
        ['failures', (r) => r.failures],
        ['× h1', (r) => fmt(r.rps / h1)],
      ]);
      if (peer === undefined)
        console.log('h2load: skipped (not installed; Debian: nghttp2-client)');
      console.log(`h2/h1 requests per second (barrage): ${fmt(rows[1].rps / h1)}`);
      console.log(
        `h2/h1 requests per second (bare undici loop): ${fmt(rows[3].rps / rows[2].rps)}; barrage h2 / undici h2: ${fmt(rows[1].rps / rows[3].rps)}`,
      );
    } finally {
      target.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
