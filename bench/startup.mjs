// Start-up cost (the `startup` phase of `npm run bench`, bench/run.mjs): how long a command takes
// from exec to exit, as a ratio to `node -e 0` measured in the same run, so the machine's speed
// cancels out. The commands run in turn, ROUNDS times, all on the generator core; each row is the
// median wall time (and CPU time, from /usr/bin/time when present) over the rounds.
// Goals: --version and --help within 2 × node -e 0, validate of a 20-endpoint YAML within 3 ×, a
// one-request run (against `barrage serve` on the other core) within 5 ×. Beside them, the floor
// of barrage's own stack (bench/startup-floor.mjs, bundled here as barrage is): yaml and zod
// reading the same file, then undici sending the same request; and what the one-request run needs
// of each library it is built on (clipanion, zod, tough-cookie, undici, hdr-histogram-js,
// cli-table3), each used once.
//   BENCH_STARTUP_ROUNDS  runs of each command (default 15)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BANNER, PLUGINS } from '../scripts/bundle-options.mjs';
import { BIN, measure } from './processes.mjs';
import { startBarrageTarget } from './targets.mjs';

const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 15);

/** A configuration of 20 endpoints, as a user might validate one. */
function twentyEndpoints(url) {
  const endpoints = Array.from(
    { length: 20 },
    (_, i) =>
      `  - name: endpoint ${i}\n    url: /json?n=${i}\n    weight: ${i + 1}\n    headers: { Accept: application/json }`,
  );
  return `target: ${url}\nconcurrency: 4\nduration: 10s\nendpoints:\n${endpoints.join('\n')}\nthresholds:\n  - http_req_duration:p95 < 200\n`;
}

const median = (values) => {
  const sorted = values.filter((v) => v !== undefined).sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
};

/** bench/startup-floor.mjs bundled into `dir` as scripts/bundle.mjs bundles barrage. */
async function bundleFloor(dir) {
  const outfile = join(dir, 'floor.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./startup-floor.mjs', import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    banner: BANNER,
    plugins: PLUGINS,
  });
  return outfile;
}

/** Measures the rows; returns [{ name, goal, wallMs, cpuMs }], node -e 0 first. */
export async function startupPhase({ core, targetCore }) {
  const target = await startBarrageTarget(targetCore);
  const dir = mkdtempSync(join(tmpdir(), 'barrage-startup-'));
  const config = join(dir, 'twenty.yaml');
  writeFileSync(config, twentyEndpoints(target.url));
  const floor = await bundleFloor(dir);
  const rows = [
    { name: 'node -e 0', goal: undefined, args: ['-e', '0'] },
    { name: 'barrage --version', goal: 2, args: [BIN, '--version'] },
    { name: 'barrage --help', goal: 2, args: [BIN, '--help'] },
    { name: 'barrage validate (20 endpoints)', goal: 3, args: [BIN, 'validate', config] },
    {
      name: 'barrage run -n 1',
      goal: 5,
      args: [BIN, 'run', '--target', `${target.url}/json`, '-n', '1', '-c', '1', '--quiet'],
    },
    { name: 'floor: yaml + zod read the file', goal: undefined, args: [floor, 'validate', config] },
    {
      name: 'floor: that, then one undici request',
      goal: undefined,
      args: [floor, 'run', config, `${target.url}/json`],
    },
    {
      name: "floor: run -n 1's libraries, used once",
      goal: undefined,
      args: [floor, 'libraries', `${target.url}/json`],
    },
  ].map((row) => ({ ...row, wall: [], cpu: [] }));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of rows) {
        const started = performance.now();
        const run = await measure(core, process.execPath, row.args);
        row.wall.push(performance.now() - started);
        row.cpu.push(run.cpuSeconds === undefined ? undefined : run.cpuSeconds * 1000);
      }
    }
  } finally {
    target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows.map(({ name, goal, wall, cpu }) => ({
    name,
    goal,
    wallMs: median(wall),
    cpuMs: median(cpu),
  }));
}
