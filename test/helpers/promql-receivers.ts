/**
 * Real metric receivers for the live outputs' tests: Debian's prometheus (2.42, remote write
 * receiver and native histograms switched on) and victoria-metrics (1.79, remote write and
 * InfluxDB line protocol), both installed by .ci/run. One server per test on a loopback port, its
 * data in the test's folder, killed in teardown; read back through PromQL and their HTTP APIs.
 * Without the binary a test cannot run: under CI (CI set) that is a failure, elsewhere the caller
 * skips with a message saying what to install.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { eventually } from './eventually.js';
import { freePort } from './local-ports.js';

/** Where Debian installs them. */
export const PROMETHEUS = '/usr/bin/prometheus';
export const VICTORIA_METRICS = '/usr/bin/victoria-metrics';

/** tap's `skip` option for a test needing `binary`: a reason when missing outside CI, else false. */
export function receiverSkip(
  binary: string,
  env: Readonly<Record<string, string | undefined>>,
): string | false {
  if (env.CI !== undefined || existsSync(binary)) return false;
  const name = binary.slice(binary.lastIndexOf('/') + 1);
  return `${name} is missing: apt-get install ${name} (bash .ci/run does)`;
}

/** One element of an instant query's vector. */
export interface VectorSample {
  readonly metric: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One series as VictoriaMetrics' /api/v1/export gives it. */
export interface ExportedSeries {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: readonly number[];
  readonly timestamps: readonly number[];
}

/** A running receiver. */
export interface PromqlReceiver {
  /** Its base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /** Where remote write requests go. */
  readonly writeUrl: string;
  /**
   * An instant query at `time` (Unix seconds; default now). VictoriaMetrics makes rows searchable
   * a few seconds after it took them: poll for the figures expected.
   */
  query(promql: string, time?: number): Promise<VectorSample[]>;
  /** The values of a label on the series matching `selector` (/api/v1/label/NAME/values). */
  labelValues(label: string, selector: string): Promise<string[]>;
}

/** A running VictoriaMetrics, which also reads its rows back as they were written. */
export interface VictoriaMetrics extends PromqlReceiver {
  /** Every series matching a series selector, with its raw samples (/api/v1/export). */
  exportSeries(selector: string): Promise<ExportedSeries[]>;
}

/**
 * Prometheus with a minimal configuration (it scrapes nothing), its TSDB under `dir`; with
 * `nativeHistograms: false`, started as its docs say, without the feature flag.
 */
export async function startPrometheus(
  t: Test,
  dir: string,
  { nativeHistograms = true }: { nativeHistograms?: boolean } = {},
): Promise<PromqlReceiver> {
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
  const url = `http://127.0.0.1:${port}`;
  const args = [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    ...(nativeHistograms ? ['--enable-feature=native-histograms'] : []),
    '--log.level=warn',
  ];
  await start(t, PROMETHEUS, args, () => answers(`${url}/-/ready`));
  return reader(url, () => Promise.resolve());
}

/** VictoriaMetrics, answering queries up to now (not 30 s before), its data under `dir`. */
export async function startVictoriaMetrics(t: Test, dir: string): Promise<VictoriaMetrics> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    `-httpListenAddr=127.0.0.1:${port}`,
    `-storageDataPath=${join(dir, 'vm-data')}`,
    '-search.latencyOffset=0s',
    '-loggerLevel=ERROR',
  ];
  await start(t, VICTORIA_METRICS, args, () => answers(`${url}/health`));
  // Rows wait in per-CPU buffers until a flush makes them searchable.
  const flush = async (): Promise<void> =>
    (await fetch(`${url}/internal/force_flush`)).body?.cancel();
  return {
    ...reader(url, flush),
    exportSeries: async (selector) => {
      await flush();
      const answer = await fetch(`${url}/api/v1/export`, {
        method: 'POST',
        body: new URLSearchParams({ 'match[]': selector }),
      });
      return (await answer.text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ExportedSeries);
    },
  };
}

/** The Prometheus HTTP API both answer, each read after `searchable` (VictoriaMetrics' flush). */
function reader(url: string, searchable: () => Promise<void>): PromqlReceiver {
  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    query: async (promql, time) => {
      await searchable();
      const params = new URLSearchParams({ query: promql });
      if (time !== undefined) params.set('time', String(time));
      const data = await apiCall<{
        result: { metric: Record<string, string>; value: [number, string] }[];
      }>(`${url}/api/v1/query`, params, promql);
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    labelValues: async (label, selector) => {
      await searchable();
      const path = `${url}/api/v1/label/${encodeURIComponent(label)}/values`;
      return apiCall<string[]>(path, new URLSearchParams({ 'match[]': selector }), selector);
    },
  };
}

/** Spawns `binary` and waits until `ready`; it is killed in the test's teardown. */
async function start(
  t: Test,
  binary: string,
  args: readonly string[],
  ready: () => Promise<boolean>,
): Promise<void> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing`);
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  t.teardown(() => stop(child));
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${binary} exited (${code}): ${stderr}`)));
  });
  await Promise.race([exited, eventually(ready, 30_000)]);
}

/** A Prometheus API call's `data`; an answer that is not a success throws, naming `what`. */
async function apiCall<T>(endpoint: string, params: URLSearchParams, what: string): Promise<T> {
  const answer = await fetch(`${endpoint}?${params.toString()}`);
  const body = (await answer.json()) as { status: string; error?: string; data?: T };
  if (body.status !== 'success' || body.data === undefined)
    throw new Error(`${what}: ${body.error ?? answer.status}`);
  return body.data;
}

async function answers(url: string): Promise<boolean> {
  try {
    const answer = await fetch(url);
    await answer.body?.cancel();
    return answer.ok;
  } catch {
    return false;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
