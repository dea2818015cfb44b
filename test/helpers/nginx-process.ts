import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';

/** Debian's nginx (`apt-get install nginx`); NGINX_BIN points elsewhere. */
export const NGINX_BIN = process.env.NGINX_BIN || '/usr/sbin/nginx';
export const nginxAvailable = existsSync(NGINX_BIN);

const TEMPLATE = new URL('../../deploy/nginx.conf', import.meta.url);

export interface NginxProcess {
  url: string;
  port: number;
  dir: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** Renders deploy/nginx.conf's placeholders: the committed configuration, with loopback ports. */
export function renderNginxConf(values: { listen: string; upstreams: string[]; runDir: string; tls?: string }): string {
  return readFileSync(TEMPLATE, 'utf8')
    .replaceAll('{{LISTEN}}', values.listen)
    .replaceAll('{{TLS}}', values.tls ?? '')
    .replaceAll('{{UPSTREAM_SERVERS}}', values.upstreams.map((u) => `server ${u} max_fails=1 fail_timeout=5s;`).join('\n    '))
    .replaceAll('{{RUN_DIR}}', values.runDir);
}

/** Starts nginx in the foreground on a free loopback port in front of `upstreams` (host:port). */
export async function startNginx(upstreams: string[]): Promise<NginxProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'payments-nginx-'));
  // Workers may run as another user when the test runs as root: let them use the temp dirs.
  chmodSync(dir, 0o777);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, renderNginxConf({ listen: `127.0.0.1:${port}`, upstreams, runDir: dir }));
  const child: ChildProcess = spawn(NGINX_BIN, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const errorLog = () => {
    try {
      return `${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`;
    } catch {
      return stderr;
    }
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${errorLog()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen:\n${errorLog()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    errorLog,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
