import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './server-process.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisAvailable = existsSync(REDIS_SERVER);

/** A throwaway redis-server of the test's own (never the machine's shared one), without persistence. */
export interface RedisProcess {
  port: number;
  url: string;
  /** Kills it (SIGKILL: as abrupt as a crash). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

function waitForPort(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve();
      });
      socket.on('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis on ${port} did not start`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    restart: start,
  };
}
