/**
 * The files of `multipart:` fields, read at load time (relative to the configuration file) so that
 * nothing is read while traffic runs and a missing file stops the run before anything is sent.
 * Every thread holds them, so their total is capped.
 */
import { resolve } from 'node:path';
import type { ConfigIssue } from '../issues.js';
import type { Provenance } from '../layers.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import { formatBytes, readBoundedBytes } from './bounded-file.js';

/** Largest total of the multipart files of every endpoint. */
export const MAX_MULTIPART_BYTES = 10 * 1024 * 1024;

/** The bytes of every multipart file, by multipartFileKey(endpoint index, field name). */
export type MultipartFiles = ReadonlyMap<string, Uint8Array>;

/** The key of a multipart file: its endpoint's index and its field's name. */
export function multipartFileKey(endpoint: number, field: string): string {
  return `${endpoint}\n${field}`;
}

/** Reads every multipart file; each problem names the field's file key and where it was written. */
export function readMultipartFiles(
  config: Config,
  baseDir: string,
  provenance: Provenance,
): Result<MultipartFiles, ConfigIssue[]> {
  const files = new Map<string, Uint8Array>();
  const issues: ConfigIssue[] = [];
  let total = 0;
  (config.endpoints ?? []).forEach((endpoint, index) => {
    for (const [name, value] of Object.entries(endpoint.multipart ?? {})) {
      if (typeof value !== 'object') continue;
      const path = ['endpoints', index, 'multipart', name, 'file'];
      const read = readBoundedBytes(
        resolve(baseDir, value.file),
        'multipart file',
        MAX_MULTIPART_BYTES - total,
      );
      if (!read.ok) {
        for (const issue of read.error) {
          const tooLarge = issue.code === 'file_too_large';
          issues.push({
            ...issue,
            source: provenance.sourceOf(path),
            path,
            expected: tooLarge
              ? `multipart files of at most ${formatBytes(MAX_MULTIPART_BYTES)} in all`
              : issue.expected,
            actual: `${JSON.stringify(value.file)}: ${issue.actual}`,
          });
        }
        continue;
      }
      total += read.value.length;
      files.set(multipartFileKey(index, name), read.value);
    }
  });
  return issues.length > 0 ? err(issues) : ok(files);
}
