/**
 * VictoriaMetrics (Debian's victoria-metrics, installed by .ci/run) as a real receiver of live
 * outputs: one single-node server per test on a loopback port, its data in the test's folder.
 * Without the binary the tests cannot run: under CI (CI set) that is a failure, elsewhere the
 * caller skips with a message saying what to install.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Test } from 'tap';
import { eventually } from './eventually.js';

/** Where Debian installs it. */
export const VICTORIA_METRICS = '/usr/bin/victoria-metrics';

/** tap's `skip` option for tests that need it: a reason when missing outside CI, else false. */
export function victoriaMetricsSkip(
  env: Readonly<Record<string, string | undefined>>,
): string | false {
  if (env.CI !== undefined || existsSync(VICTORIA_METRICS)) return false;
  return 'victoria-metrics is missing: apt-get install victoria-metrics (bash .ci/run does)';
}

/** One series as VictoriaMetrics' /api/v1/export gives it. */
export interface ExportedSeries {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: readonly number[];
  readonly timestamps: readonly number[];
}

/** A running VictoriaMetrics. */
export interface VictoriaMetrics {
  /** Its base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /** Every series matching a series selector, once the rows received so far are searchable. */
  exportSeries(selector: string): Promise<ExportedSeries[]>;
}

/** Starts one for the test (stopped in its teardown), its data under `dir`. */
export async function startVictoriaMetrics(t: Test, dir: string): Promise<VictoriaMetrics> {
  if (!existsSync(VICTORIA_METRICS))
    throw new Error(`${VICTORIA_METRICS} is missing: apt-get install victoria-metrics`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    VICTORIA_METRICS,
    ['-httpListenAddr', `127.0.0.1:${port}`, '-storageDataPath', dir, '-loggerLevel', 'ERROR'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  t.teardown(() => stop(child));
  const spawned = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`victoria-metrics exited (${code}): ${stderr}`)));
  });
  await Promise.race([spawned, eventually(() => healthy(url), 20_000)]);
  return {
    url,
    exportSeries: async (selector) => {
      // Rows wait in per-CPU buffers until a flush makes them searchable.
      await (await fetch(`${url}/internal/force_flush`)).body?.cancel();
      const answer = await fetch(`${url}/api/v1/export`, {
        method: 'POST',
        body: new URLSearchParams({ 'match[]': selector }),
      });
      const text = await answer.text();
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ExportedSeries);
    },
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const answer = await fetch(`${url}/health`);
    return answer.ok && (await answer.text()).trim() === 'OK';
  } catch {
    return false;
  }
}

/** A loopback port free a moment ago (VictoriaMetrics does not say which port 0 gave it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
