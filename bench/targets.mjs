// Bench targets: nginx serving a small static body (when installed), else barrage's own target
// server, and a node:http2 TLS server for the HTTP/2 phase, each pinned to its own core when
// taskset exists.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  return startListening(
    'barrage serve',
    pinned(core, process.execPath, [BIN, 'serve', '--port', '0']),
  );
}

/**
 * Starts bench/delay-target.mjs pinned to a core: every request answered after `delayMs`;
 * returns { url, stop, serverP50 } where serverP50() is the target's own median time per request
 * since the last call.
 */
export async function startDelayTarget(core, delayMs) {
  const script = fileURLToPath(new URL('./delay-target.mjs', import.meta.url));
  const target = await startListening(
    `delay target (${delayMs} ms)`,
    pinned(core, process.execPath, [script, String(delayMs)]),
  );
  const serverP50 = async () => (await (await fetch(`${target.url}/__median`)).json()).p50_ms;
  return { ...target, serverP50 };
}

/**
 * Starts bench/h2-target.mjs pinned to a core: TLS with the given certificate, h2 and http/1.1 by
 * ALPN; returns { name, url, stop }.
 */
export function startH2Target(core, certFile, keyFile) {
  const script = fileURLToPath(new URL('./h2-target.mjs', import.meta.url));
  return startListening(
    'node:http2 secure server (allowHTTP1)',
    pinned(core, process.execPath, [script, certFile, keyFile]),
  );
}

/** Spawns a server that prints "listening on URL"; resolves with { name, url, stop }. */
function startListening(name, [command, args]) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ name, url, stop: () => child.kill('SIGTERM') });
    });
  });
}
