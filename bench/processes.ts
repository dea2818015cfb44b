// The three kinds of process a bench run starts: the service, the baseline and the load generator.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec } from './load.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Node flags of all three processes (service, baseline, load generator). A run keeps two
 * processes busy at once, a server and the generator, so each has half the machine; V8's default
 * pool of four helper threads per process (concurrent marking, parallel scavenges, background
 * compilation) would take turns with the main threads on those cores. On the 2-core machine the
 * targets are set for, one helper each: the service's create p99 at half load fell from 12.8 and
 * 12.5 ms to 7.5 and 7.0 ms (docs/performance.md). docs/deploy.md gives the same advice.
 */
export const NODE_FLAGS = [`--v8-pool-size=${Math.max(1, Math.floor(availableParallelism() / 2) - 1)}`];

export interface Running {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

async function waitForHealth(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${stderr().slice(-2000)}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become healthy within 60 s');
}

export interface ServiceOptions {
  env: NodeJS.ProcessEnv;
  /** Directory for --cpu-prof output; no profiling when absent. */
  cpuProfDir?: string | undefined;
}

/** The compiled service (`npm run build` first), as `npm start` runs it. */
export async function startService(options: ServiceOptions): Promise<Running> {
  const port = await freePort();
  const args = [
    ...NODE_FLAGS,
    ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
    fileURLToPath(new URL('../dist/src/main.js', import.meta.url)),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...options.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 20_000) err = err.slice(-10_000);
  });
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, () => err);
  return { child, url, stop: stopper(child) };
}

/** The bare Fastify server of bench/baseline-server.ts. */
export async function startBaseline(): Promise<Running> {
  const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'bench/baseline-server.ts', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`the baseline exited (${code})`)));
  });
  return { child, url, stop: stopper(child) };
}

/** Runs bench/load.ts in its own process: the load generator shares no event loop with a server. */
export function runLoadProcess(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'bench/load.ts'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch (err) {
        reject(err);
      }
    });
    child.stdin?.end(JSON.stringify(spec));
  });
}

/** Resident memory of a process in MiB from /proc: `VmRSS` now, `VmHWM` the peak so far. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms until stopped; answers the highest sample and the CPU used meanwhile. */
export function sampleProcess(pid: number): () => { peakRssMb: number; cpuSeconds: number } {
  let max = memoryOf(pid)?.rssMb ?? 0;
  const cpuBefore = cpuSecondsOf(pid);
  const timer = setInterval(() => {
    const m = memoryOf(pid);
    if (m && m.rssMb > max) max = m.rssMb;
  }, 100);
  return () => {
    clearInterval(timer);
    const m = memoryOf(pid);
    return { peakRssMb: Math.max(max, m?.rssMb ?? 0), cpuSeconds: cpuSecondsOf(pid) - cpuBefore };
  };
}
