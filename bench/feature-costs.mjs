// The `features` phase (issue 47): what a real client's work on a response costs. barrage's
// closed model (concurrency 50, one thread) against bench/feature-target.mjs's /plain, /cookie (a
// Set-Cookie on every response: the cookie jar) and /gzip (a compressed body nothing reads: only
// counted, since only a body something reads is decoded), then /gzip with an extractor reading
// the body (decoded). Rounds alternate (BENCH_FEATURE_ROUNDS, default 3); medians of requests/s
// and CPU µs a request, and each one's extra CPU over /plain.
import { fileURLToPath } from 'node:url';
import { runBarrage } from './generators.mjs';
import { pinned } from './processes.mjs';
import { table } from './table.mjs';
import { spawn } from 'node:child_process';

const TARGET = fileURLToPath(new URL('./feature-target.mjs', import.meta.url));

/** Starts the target pinned to core 1; { url, stop }. */
function startFeatureTarget() {
  const [command, args] = pinned(1, process.execPath, [TARGET]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The phase. */
export async function featureCostsPhase({ seconds }) {
  const rounds = Number(process.env.BENCH_FEATURE_ROUNDS ?? 3);
  const target = await startFeatureTarget();
  const cases = [
    ['plain', '/plain', []],
    ['cookie', '/cookie', []],
    ['gzip, not read', '/gzip', []],
    [
      'gzip, read',
      '/gzip',
      ['--config', fileURLToPath(new URL('./scenarios/gzip-read.yaml', import.meta.url))],
    ],
  ];
  const runs = cases.map(() => []);
  try {
    for (let round = 0; round < rounds; round++)
      for (const [i, [, path, extra]] of cases.entries())
        runs[i].push(
          await runBarrage({ url: target.url + path, concurrency: 50, seconds, core: 0, extra }),
        );
  } finally {
    target.stop();
  }
  const rows = cases.map(([name], i) => ({
    name,
    rps: median(runs[i].map((r) => r.rps)),
    cpuUs: median(runs[i].map((r) => (r.cpuSeconds * 1e6) / (r.rps * seconds))),
  }));
  console.log(
    `\nWhat a response's features cost: closed model, c=50, ${seconds} s, ${rounds} alternated rounds, medians`,
  );
  table(rows, [
    ['response', (r) => r.name],
    ['req/s', (r) => r.rps.toFixed(0)],
    ['CPU µs/req', (r) => r.cpuUs.toFixed(1)],
    ['over plain', (r) => (r.cpuUs - rows[0].cpuUs).toFixed(1)],
  ]);
}
