import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Runs in the worker: its own connection to the database; one PASSIVE checkpoint per message.
// PASSIVE never waits for the writer or for readers: it copies what it can and reports how far it got.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (m) => {
  if (m.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ id: m.id, log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
});
`;

/** Frames in the WAL and how many of them are now in the database file. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

/**
 * A thread that checkpoints a WAL database, so that a checkpoint's page copies and its two fsyncs
 * (milliseconds each on a slow disk) never stall the event loop, which SQLite's automatic
 * checkpoint does from inside whichever COMMIT crosses its threshold. SqliteDatabase drives it
 * (see `checkpointInBackground`).
 */
export class CheckpointWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(r: CheckpointResult): void; reject(err: Error): void }>();
  private nextId = 0;
  private failure: Error | undefined;
  private stopped = false;

  constructor(path: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver } });
    this.worker.unref();
    this.worker.on('message', (m: { id: number; log?: number; checkpointed?: number; error?: string }) => {
      const waiter = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if (m.error !== undefined) waiter?.reject(new Error(m.error));
      else waiter?.resolve({ log: m.log ?? 0, checkpointed: m.checkpointed ?? 0 });
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const waiter of this.pending.values()) waiter.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the checkpoint thread exited')));
  }

  /** One PASSIVE checkpoint in the thread. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.nextId;
    // Referenced only while a checkpoint is awaited: an idle thread never keeps the process alive.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id });
    });
  }

  /** Closes the thread's connection and ends the thread. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ close: true });
    await exited;
  }
}
