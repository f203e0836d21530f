/**
 * Debian's nginx serving TLS on 127.0.0.1 with the certificates of openssl-pki.ts. Three ports:
 * h2 and HTTP/1.1 (`h2`), HTTP/1.1 only (`h1`), and h2 with client certificates required (`mtls`).
 * nginx runs in the foreground without a master process, as the current user, everything (pid,
 * logs, temp paths) under the test's folder; its access log has one line per request: `port
 * protocol client-certificate-subject`. Without nginx or openssl
 * the tests cannot run: under CI (.ci/run installs them) that is a failure, elsewhere a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasOpenssl, makePki } from './openssl-pki.js';
import { accepting, freePorts } from './local-ports.js';

/** Debian's nginx binary. */
export const NGINX = '/usr/sbin/nginx';

/** tap's `skip` option: a reason when nginx or openssl is missing outside CI, else false. */
export function nginxSkip(env: Readonly<Record<string, string | undefined>>): string | false {
  if (env.CI !== undefined) return false;
  return existsSync(NGINX) && hasOpenssl()
    ? false
    : 'nginx or openssl is missing: apt-get install nginx openssl (bash .ci/run does)';
}

/** A running nginx: its ports and the lines of its access log. */
export interface Nginx {
  readonly ports: { readonly h2: number; readonly h1: number; readonly mtls: number };
  /** The access log's lines so far: `port protocol client-subject`. */
  log(): string[];
  stop(): Promise<void>;
}

function config(dir: string, ports: Nginx['ports']): string {
  const tls = (port: number, extra: string) => `
    server {
      listen 127.0.0.1:${port} ${extra};
      ssl_certificate ${dir}/server.pem;
      ssl_certificate_key ${dir}/server.key;
      location / { return 200 "ok\\n"; }
    }`;
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 256; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format barrage '$server_port $server_protocol "$ssl_client_s_dn"';
  access_log ${dir}/access.log barrage;
  ${tls(ports.h2, 'ssl http2')}
  ${tls(ports.h1, 'ssl')}
  ${tls(ports.mtls, 'ssl http2').replace('ssl_certificate ', `ssl_client_certificate ${dir}/ca.pem;\n      ssl_verify_client on;\n      ssl_certificate `)}
}
`;
}

/** Generates the PKI in `dir`, then starts nginx on three free ports and waits for them. */
export async function startNginx(dir: string): Promise<Nginx> {
  makePki(dir);
  const [h2, h1, mtls] = (await freePorts(3)) as [number, number, number];
  const ports = { h2, h1, mtls };
  writeFileSync(join(dir, 'nginx.conf'), config(dir, ports));
  writeFileSync(join(dir, 'access.log'), '');
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: 'ignore',
    },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let tries = 0; ; tries++) {
    const up = await Promise.all(Object.values(ports).map(accepting));
    if (up.every(Boolean)) break;
    if (exited || tries > 200) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    ports,
    log: () =>
      readFileSync(join(dir, 'access.log'), 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    stop: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
