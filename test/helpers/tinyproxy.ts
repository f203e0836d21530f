/**
 * Debian's tinyproxy, started by a test on an ephemeral 127.0.0.1 port with a generated config:
 * it accepts 127.0.0.1, tunnels (CONNECT) only to the ports given, optionally asks for Basic
 * credentials, logs every request it relays, and opens its outgoing connections from 127.0.0.2,
 * so a target tells proxied connections (from 127.0.0.2) from direct ones (from 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { eventually } from './eventually.js';
import { accepting, freePort } from './local-ports.js';

/** Where Debian installs it. */
const BINARY = '/usr/sbin/tinyproxy';
const ALTERNATIVE = '/usr/bin/tinyproxy';

/** The binary, or undefined when tinyproxy is not installed. */
export function tinyproxyBinary(): string | undefined {
  for (const path of [BINARY, ALTERNATIVE]) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not there: try the next.
    }
  }
  return undefined;
}

/**
 * The `skip` of a test that needs tinyproxy: a reason when it is missing, except under CI
 * (`env.CI` set), where the test runs and fails (.ci/run installs it).
 */
export function tinyproxySkip(env: Readonly<Record<string, string | undefined>>): string | false {
  if (tinyproxyBinary() !== undefined || env.CI !== undefined) return false;
  return 'tinyproxy is not installed (apt-get install tinyproxy)';
}

/** A running proxy. */
export interface Tinyproxy {
  readonly port: number;
  /** The CONNECT requests its log shows (one per tunnel it opened). */
  connects(): number;
}

/** Starts tinyproxy in `dir`, stopped at teardown. */
export async function startTinyproxy(
  t: Test,
  dir: string,
  options: { readonly connectPorts: readonly number[]; readonly basicAuth?: string },
): Promise<Tinyproxy> {
  const binary = tinyproxyBinary();
  if (binary === undefined)
    throw new Error('tinyproxy is not installed (apt-get install tinyproxy)');
  const port = await freePort();
  const log = join(dir, 'tinyproxy.log');
  const config = join(dir, 'tinyproxy.conf');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Bind 127.0.0.2',
      'Timeout 30',
      'MaxClients 100',
      'Allow 127.0.0.1',
      ...options.connectPorts.map((p) => `ConnectPort ${p}`),
      `LogFile "${log}"`,
      'LogLevel Connect',
      ...(options.basicAuth === undefined ? [] : [`BasicAuth ${options.basicAuth}`]),
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-d', '-c', config], { stdio: 'ignore' });
  t.teardown(() => {
    child.kill();
  });
  await eventually(() => accepting(port), 10_000);
  return {
    port,
    connects: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => /Request \(file descriptor \d+\): CONNECT /.test(line)).length,
  };
}
