/**
 * A HAR import off the main thread (`barrage har`, `run --har`, `validate --har`) (har-import-entry.ts in a worker thread): parsing a
 * 20 MiB recording, converting its entries and writing them as YAML takes seconds to minutes of
 * one core, during which the main thread must stay free to take a signal (docs/har.md). A small
 * one is imported on the calling thread, since starting a thread would cost more than it.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConfigIssue } from '../issues.js';
import type { Result } from '../result.js';
import { harConfigYaml } from './har-config.js';
import { importHar, type HarImportInputs } from './har-import.js';
import type { HarEndpoints } from './har-to-endpoints.js';

/** The built entry, next to this one in the flat dist/ (tests run sources: `npm test` builds). */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/har-import-entry.js', import.meta.url)
    : new URL('./har-import-entry.js', import.meta.url),
);

/** What the thread posts: the import, and its endpoints as YAML when asked and it succeeded. */
export interface ImportedHar {
  readonly imported: Result<HarEndpoints, ConfigIssue[]>;
  readonly yaml: string | undefined;
}

/**
 * Largest recording imported on the calling thread: about a tenth of a second of work, less than
 * starting the thread costs (most of `barrage har`'s uses: a few minutes of browsing).
 */
export const ON_THREAD_BYTES = 1024 * 1024;

/** What the thread is given: the import's inputs, and whether to write its YAML. */
export interface HarJob {
  readonly inputs: HarImportInputs;
  /** `barrage har` writes the endpoints as YAML; `run --har` merges them as they are. */
  readonly yaml: boolean;
}

/** Imports the recording `job` names: in a worker thread when it is larger than 1 MiB. */
export function importHarResponsive(job: HarJob): Promise<ImportedHar> {
  if (sizeOf(resolve(job.inputs.cwd, job.inputs.file)) <= ON_THREAD_BYTES)
    return Promise.resolve(importedHar(job));
  return inThread(job);
}

/** The file's size; 0 when it cannot be read (the import itself then says why). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The import, and its endpoints as YAML when asked and it succeeded (what the thread posts). */
export function importedHar(job: HarJob): ImportedHar {
  const imported = importHar(job.inputs);
  return { imported, yaml: job.yaml && imported.ok ? harConfigYaml(imported.value) : undefined };
}

function inThread(job: HarJob): Promise<ImportedHar> {
  return new Promise((resolve, reject) => {
    // No inherited flags: the entry is built JavaScript, and a loader a test runner added (tsx)
    // would cost each import most of a second.
    const worker = new Worker(ENTRY, { workerData: job, execArgv: [] });
    worker.once('message', (result: ImportedHar) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the HAR import's thread exited (${code})`)));
  });
}
