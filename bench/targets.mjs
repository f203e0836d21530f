// Bench targets: nginx serving a small static body (when installed), else barrage's own target
// server, each pinned to its own core when taskset exists.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, pinned } from './processes.mjs';

/** Starts nginx on a free-ish port with one worker; returns { url, stop } or undefined. */
export async function startNginx(core) {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(
    (p) => spawnSync('test', ['-x', p]).status === 0,
  );
  if (nginx === undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bench-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents { worker_connections 4096; }\n` +
      `http { access_log off; keepalive_requests 1000000; server { listen 127.0.0.1:${port}; ` +
      `location / { default_type application/json; return 200 '{"ok":true,"items":[1,2,3]}'; } } }\n`,
  );
  const child = spawn(...pinned(core, nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')]), {
    stdio: 'ignore',
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { name: 'nginx', url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

/** Starts `barrage serve --port 0` pinned to a core; returns { url, stop }. */
export function startBarrageTarget(core) {
  return new Promise((resolve, reject) => {
    const child = spawn(...pinned(core, process.execPath, [BIN, 'serve', '--port', '0']), {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url !== undefined)
        resolve({ name: 'barrage serve', url, stop: () => child.kill('SIGTERM') });
    });
  });
}
