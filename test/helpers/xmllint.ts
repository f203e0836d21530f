/**
 * Validates XML against test/fixtures/junit.xsd with xmllint (Debian's libxml2-utils, installed by
 * .ci/run). Without xmllint the check cannot run: under CI (CI set) that is a failure, elsewhere
 * the caller skips with a message saying what to install.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The JUnit XSD written for these tests. */
export const JUNIT_XSD = fileURLToPath(new URL('../fixtures/junit.xsd', import.meta.url));

/** tap's `skip` option for tests that need xmllint: a reason when missing outside CI, else false. */
export function xmllintSkip(env: Readonly<Record<string, string | undefined>>): string | false {
  if (env.CI !== undefined) return false;
  const found = spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
  return found ? false : 'xmllint is missing: apt-get install libxml2-utils (bash .ci/run does)';
}

/** What xmllint said: ok, and its messages (stderr). */
export interface SchemaCheck {
  readonly ok: boolean;
  readonly messages: string;
}

/** Checks `xml` against the JUnit XSD, writing it to `dir` first. */
export function checkJunitSchema(xml: string, dir: string, name = 'junit.xml'): SchemaCheck {
  const file = join(dir, name);
  writeFileSync(file, xml);
  const run = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, file], { encoding: 'utf8' });
  return { ok: run.status === 0, messages: run.error?.message ?? run.stderr };
}
