// The live dashboard's cost in throughput (docs/dashboard.md): `node bench/dashboard.mjs` after
// `npm run build`, or dashboardCost() from the bench runner. Runs
//   barrage run --target <target>/json -c 50 -d <seconds>
// in a pseudo-terminal (util-linux `script`, sized 120×40 with stty), alternately with the
// dashboard and with `--no-dashboard --quiet`, ROUNDS times each, and compares the medians of the
// Requests/sec the report prints:  ratio = median(with dashboard) / median(without).
// The target (`barrage serve`) and the generator are pinned to different cores when taskset
// exists. Not part of `npm test`.
//   BENCH_DASHBOARD_SECONDS  length of each run (default 10)
//   BENCH_DASHBOARD_ROUNDS   runs of each kind (default 3)
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const HAS_TASKSET = spawnSync('taskset', ['--version']).status === 0;
const GENERATOR_CORE = 0;
const TARGET_CORE = 1;

function pinned(core, command, args) {
  return HAS_TASKSET ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

function quote(word) {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function startTarget() {
  return new Promise((resolve, reject) => {
    const child = spawn(...pinned(TARGET_CORE, process.execPath, [BIN, 'serve', '--port', '0']), {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** One run in a 120×40 pseudo-terminal; resolves with its Requests/sec and bytes drawn. */
function runInPty(url, seconds, dashboard) {
  const [command, args] = pinned(GENERATOR_CORE, process.execPath, [
    BIN,
    'run',
    '--target',
    `${url}/json`,
    '-c',
    '50',
    '-d',
    `${seconds}s`,
    ...(dashboard ? [] : ['--no-dashboard', '--quiet']),
  ]);
  // `times` (POSIX) prints the CPU time of the shell's children last: user and system.
  const shell = `stty cols 120 rows 40; ${[command, ...args].map(quote).join(' ')}; s=$?; times; exit $s`;
  // A terminal user's environment: not CI, colors on.
  const env = { ...process.env, TERM: 'xterm-256color' };
  delete env.CI;
  delete env.NO_COLOR;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', shell, '/dev/null'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      // eslint-disable-next-line no-control-regex
      const plain = out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(plain)?.[1];
      const total = /Total Requests:\s+(\d+)/.exec(plain)?.[1];
      const times = [...plain.matchAll(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/g)].at(-1);
      if (code !== 0 || rps === undefined) reject(new Error(`run failed (${code}):\n${plain}`));
      else {
        const cpuSeconds =
          times === undefined
            ? undefined
            : Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]);
        resolve({
          rps: Number(rps),
          // CPU per request: steadier than req/s on a shared machine (other load steals time,
          // not CPU cycles of this process).
          cpuUsPerRequest:
            cpuSeconds === undefined ? undefined : (cpuSeconds * 1e6) / Number(total),
          bytes: out.length,
        });
      }
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Alternating runs with and without the dashboard; returns both series and the ratios. */
export async function dashboardCost({
  seconds = Number(process.env.BENCH_DASHBOARD_SECONDS ?? 10),
  rounds = Number(process.env.BENCH_DASHBOARD_ROUNDS ?? 3),
  log = console.log,
} = {}) {
  if (spawnSync('script', ['--version']).status !== 0) {
    log('dashboard cost: skipped (util-linux `script` is not installed)');
    return undefined;
  }
  const target = await startTarget();
  const runs = { dashboard: [], plain: [] };
  try {
    log(
      `\n## Dashboard cost: -c 50 -d ${seconds}s against ${target.url}/json in a 120×40 pty, ${rounds} alternations`,
    );
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so warm-up and drift fall on both sides.
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const dashboard of order) {
        const run = await runInPty(target.url, seconds, dashboard);
        runs[dashboard ? 'dashboard' : 'plain'].push(run);
        log(
          `  round ${round + 1} ${dashboard ? 'dashboard   ' : 'no dashboard'} ${run.rps.toFixed(0)} req/s, ` +
            `${fmt(run.cpuUsPerRequest)} µs CPU/request` +
            (dashboard ? `, ${(run.bytes / seconds / 1024).toFixed(1)} KiB/s drawn` : ''),
        );
      }
    }
  } finally {
    target.stop();
  }
  const med = (kind, key) => median(runs[kind].map((r) => r[key]));
  const throughput = med('dashboard', 'rps') / med('plain', 'rps');
  const cpu = med('dashboard', 'cpuUsPerRequest') / med('plain', 'cpuUsPerRequest');
  log(
    `median req/s: dashboard ${med('dashboard', 'rps').toFixed(0)}, no dashboard ${med('plain', 'rps').toFixed(0)} → ratio ${throughput.toFixed(3)}`,
  );
  log(
    `median µs CPU/request: dashboard ${fmt(med('dashboard', 'cpuUsPerRequest'))}, no dashboard ${fmt(med('plain', 'cpuUsPerRequest'))} → ratio ${fmt(cpu, 3)}`,
  );
  log(
    `goal: the dashboard costs ≤ 5% of throughput (req/s ratio ≥ 0.95) → ${throughput >= 0.95 ? 'met' : 'NOT met'}`,
  );
  return { runs, throughput, cpu };
}

function fmt(n, digits = 2) {
  return n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  await dashboardCost();
