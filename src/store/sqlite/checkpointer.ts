import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Runs in the worker: its own connection to the database, checkpointing the WAL on a timer.
// PASSIVE never waits for the writer or the readers; it copies what it can and tries again later.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage({ error: String(err && err.message) }); }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); } finally { db.close(); }
  parentPort.postMessage('stopped');
});
`;

/**
 * Checkpoints a WAL database from a worker thread, so that the checkpoint's writes and fsyncs
 * (milliseconds each) never block the event loop in the middle of a COMMIT, which is where
 * SQLite's automatic checkpoint runs. The writer connection turns its automatic checkpoint off
 * while this runs, and back on if the worker fails.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped = false;

  constructor(path: string, intervalMs: number, onFailure: (err: unknown) => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs, driver } });
    this.worker.unref();
    this.worker.on('message', (m: unknown) => {
      if (m && typeof m === 'object' && 'error' in m) onFailure(new Error(String((m as { error: unknown }).error)));
    });
    this.worker.on('error', (err) => {
      if (!this.stopped) onFailure(err);
    });
  }

  /** Stops the timer after one last checkpoint, and ends the thread. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const done = new Promise<void>((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.once('exit', () => resolve());
    });
    this.worker.postMessage('stop');
    await done;
    await this.worker.terminate();
  }
}
