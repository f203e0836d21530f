/**
 * `barrage har`'s import off the main thread (har-import-entry.ts in a worker thread): parsing a
 * 20 MiB recording, converting its entries and writing them as YAML takes seconds to minutes of
 * one core, during which the main thread must stay free to take a signal (docs/har.md).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConfigIssue } from '../issues.js';
import type { Result } from '../result.js';
import type { HarImportInputs } from './har-import.js';
import type { HarEndpoints } from './har-to-endpoints.js';

/** The built entry, next to this one in the flat dist/ (tests run sources: `npm test` builds). */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/har-import-entry.js', import.meta.url)
    : new URL('./har-import-entry.js', import.meta.url),
);

/** What the thread posts: the import, and its endpoints as YAML when it succeeded. */
export interface ImportedHar {
  readonly imported: Result<HarEndpoints, ConfigIssue[]>;
  readonly yaml: string | undefined;
}

/** Imports the recording `inputs` names in a worker thread. */
export function importHarOffThread(inputs: HarImportInputs): Promise<ImportedHar> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY, { workerData: inputs });
    worker.once('message', (result: ImportedHar) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the HAR import's thread exited (${code})`)));
  });
}
