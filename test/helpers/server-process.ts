import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  dataDir: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sandbox keys printed on first start, if any. */
  keys: { secret: string; publishable: string } | undefined;
  /** Resolves with the exit code when the process ends, however it ends. */
  exited: Promise<number | null>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real service (`src/main.ts` under tsx) as a child process and waits until it listens.
 * DATABASE_URL is empty (the SQLite file in DATA_DIR) unless `env` names one, whatever the parent's is.
 */
export async function startServerProcess(env: Record<string, string> = {}, dataDir?: string, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'payments-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const scheme = env.TLS_CERT_FILE ? 'https' : 'http';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      if (output.includes('payments service ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const secret = /secret:\s+(service_test_\w+)/.exec(output)?.[1];
  const publishable = /publishable:\s+(pk_test_\w+)/.exec(output)?.[1];
  return {
    child,
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    dataDir: dir,
    output: () => output,
    exited,
    keys: secret && publishable ? { secret, publishable } : undefined,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
