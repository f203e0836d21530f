/** barrage's package root and version, found upward from this file (built or run from source). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function readPackage(dir: string): { name?: string; version?: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
  } catch {
    return undefined;
  }
}

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (readPackage(dir)?.name !== 'barrage-cli') {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('barrage: cannot find its own package.json');
    dir = parent;
  }
  return dir;
}

/** The folder holding barrage's package.json, scenarios/ and dist/. */
export const PACKAGE_ROOT = findRoot();

/** The package version, e.g. "0.1.0". */
export const VERSION = readPackage(PACKAGE_ROOT)?.version ?? '0.0.0';
