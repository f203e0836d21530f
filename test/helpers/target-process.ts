/**
 * The embedded target server in its own process (`barrage serve --port 0`), for tests that
 * stop it (SIGSTOP), kill it mid-run, or must not share the event loop with the CLI under test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { TargetStats } from '../../cli/serve/target-server.js';
import { BIN } from './run-cli.js';

/** A running target process. */
export interface TargetProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stats(): Promise<TargetStats>;
  stop(): Promise<void>;
}

/** Starts `barrage serve --port 0` and waits for its URL. */
export function startTargetProcess(): Promise<TargetProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url === undefined) return;
      child.stdout.removeAllListeners('data');
      resolve({
        url,
        child,
        stats: async () => (await (await fetch(`${url}/__stats`)).json()) as TargetStats,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}
