import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { Mutex } from '../../lib/mutex.js';
import type { Dialect, SqlDatabase, SqlExecutor, SqlValue } from '../sql/database.js';
import { CheckpointWorker } from './checkpointer.js';

export const sqliteDialect: Dialect = { name: 'sqlite', forUpdate: '', migrationLock: null };

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** PRAGMA synchronous: NORMAL survives a process crash, FULL also an OS crash (slower). */
  synchronous?: 'NORMAL' | 'FULL';
  /** Checkpoint the WAL from a thread instead of inside COMMITs (the server's setting); file databases only. */
  backgroundCheckpoint?: BackgroundCheckpointOptions;
}

export interface BackgroundCheckpointOptions {
  /** How often the thread copies the WAL into the database while writes go on. */
  intervalMs: number;
  /** From this many frames in the WAL, a checkpoint runs with writes held back, so the WAL starts over. */
  restartFrames: number;
  /** The writer's own automatic checkpoint, kept as a safety net (0: off). Default 4 × restartFrames. */
  safetyNetFrames?: number;
  /** Told once if the thread fails; SQLite's automatic checkpoint takes over again. */
  onFailure?: (err: unknown) => void;
}

/** SQLite's own default threshold (pages), used again if the checkpoint thread fails. */
const AUTOCHECKPOINT_PAGES = 1000;

/** Builds a row object from a raw row: an object literal of fixed shape, which V8 makes and reads faster than the addon's named-property objects. */
type RowMapper = (values: unknown[]) => unknown;

function rowMapper(statement: Statement): RowMapper {
  const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as RowMapper;
}

interface Prepared {
  statement: Statement;
  /** Set for statements that return rows: they run in raw mode and this maps each row. */
  toRow: RowMapper | null;
}

/** A better-sqlite3 connection with a cache of prepared statements. */
class Connection implements SqlExecutor {
  private readonly statements = new Map<string, Prepared>();
  constructor(readonly db: Database) {}

  private prepare(sql: string): Prepared {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      const statement = this.db.prepare(sql);
      const toRow = statement.reader ? rowMapper(statement) : null;
      if (toRow) statement.raw(true);
      prepared = { statement, toRow };
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const { statement, toRow } = this.prepare(sql);
    const rows = statement.all(...params) as unknown[][];
    return (toRow ? rows.map(toRow) : rows) as T[];
  }
  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    const { statement, toRow } = this.prepare(sql);
    const row = statement.get(...params) as unknown[] | undefined;
    return (row === undefined || !toRow ? row : toRow(row)) as T | undefined;
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.prepare(sql).statement.run(...params).changes;
  }
  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }
}

/** How long a write waits for another connection's write lock (the CLI's, another process's) before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

const isBusy = (err: unknown) => (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, waiting between tries on timers. The
 * writer connection has no busy timeout of its own: SQLite's would sleep on the event loop
 * (every request stalls while another process holds the lock), and with the group commit, which
 * keeps a transaction open until the end of the loop's turn, a second connection in the same
 * process would wait for a COMMIT that cannot happen while it sleeps.
 */
async function retryWhileBusy<T>(attempt: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, 50)) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

function openConnection(path: string, options: SqliteOptions, readonly: boolean): Database {
  const db = new BetterSqlite3(path, { readonly: readonly && path !== ':memory:' });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Every group-commit member runs in a SAVEPOINT, whose undo log (the statement journal) would
  // otherwise be a temporary file created, written and deleted per transaction.
  db.pragma('temp_store = MEMORY');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 0'); // from here on, retryWhileBusy waits instead
  }
  return db;
}

/** Transactions that share one COMMIT; each member answers only once that COMMIT is done. */
interface CommitGroup {
  members: number;
  committed: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function newGroup(): CommitGroup {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  committed.catch(() => {}); // members await it; a group with no member left must not be "unhandled"
  return { members: 0, committed, resolve, reject };
}

/** At most this many transactions share one COMMIT, so that a member's answer waits for few others. */
const MAX_GROUP = 32;

/**
 * SQLite through better-sqlite3. One writer connection, used by one transaction at a time
 * (a mutex keeps other async work out of an open transaction), and one reader connection for
 * plain reads, which in WAL mode see only committed data.
 *
 * Group commit: a COMMIT costs a WAL write (and the lock round trip) whatever it carries, so
 * transactions that queue up behind each other share one. Each runs in a SAVEPOINT inside the
 * group's transaction (a failing one rolls back alone); the group commits when it is full, or
 * at the end of the event loop's turn in which nobody else waited for the writer (scheduleCommit);
 * and each member resolves only after that COMMIT, so nobody is ever answered with data that is
 * not durable.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = sqliteDialect;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly writeLock = new Mutex();
  private group: CommitGroup | undefined;
  private commitScheduled = false;

  private checkpointer: CheckpointWorker | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> | undefined;
  /** Checkpoints that copied the whole WAL with writes held back (after each, the WAL starts over). */
  checkpointRestarts = 0;

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.writer = new Connection(openConnection(options.path, options, false));
    this.reader = options.path === ':memory:' ? this.writer : new Connection(openConnection(options.path, options, true));
    if (options.backgroundCheckpoint && options.path !== ':memory:')
      this.checkpointInBackground(options.path, options.backgroundCheckpoint);
  }

  /**
   * SQLite checkpoints inside the COMMIT that takes the WAL past 1000 pages, blocking the event
   * loop for the copy and two fsyncs. Here a thread does it instead, in two steps:
   * - every `intervalMs`, a PASSIVE checkpoint while writes go on: it copies most of the WAL, but
   *   cannot finish while the writer keeps appending, and SQLite rewinds the WAL only after a
   *   checkpoint that finished (a WAL checkpointed this way alone grows without end);
   * - past `restartFrames`, one more with the write lock held (writes queue, reads and everything
   *   else go on): little is left to copy, it finishes, and the next write starts the WAL over.
   * The writer's automatic checkpoint stays as a safety net (by default at four times the restart threshold).
   */
  private checkpointInBackground(path: string, options: BackgroundCheckpointOptions): void {
    const worker = new CheckpointWorker(path);
    this.checkpointer = worker;
    this.writer.db.pragma(`wal_autocheckpoint = ${options.safetyNetFrames ?? options.restartFrames * 4}`);
    const round = async () => {
      const { log } = await worker.checkpoint();
      if (log < options.restartFrames) return;
      await this.writeLock.run(async () => {
        this.commitGroup();
        const done = await worker.checkpoint();
        if (done.checkpointed === done.log) this.checkpointRestarts++;
      });
    };
    this.checkpointTimer = setInterval(() => {
      if (this.checkpointing) return;
      this.checkpointing = round()
        .catch((err: unknown) => {
          this.stopBackgroundCheckpoint();
          if (this.writer.db.open) this.writer.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
          options.onFailure?.(err);
        })
        .finally(() => {
          this.checkpointing = undefined;
        });
    }, options.intervalMs);
    this.checkpointTimer.unref();
  }

  private stopBackgroundCheckpoint(): Promise<void> | undefined {
    clearInterval(this.checkpointTimer);
    const worker = this.checkpointer;
    this.checkpointer = undefined;
    return worker?.stop();
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.reader.all<T>(sql, params);
  }
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.reader.get<T>(sql, params);
  }
  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.writeLock.run(() => {
      this.commitGroup();
      return retryWhileBusy(() => this.writer.run(sql, params));
    });
  }
  exec(sql: string): Promise<void> {
    return this.writeLock.run(() => {
      this.commitGroup();
      return retryWhileBusy(() => this.writer.exec(sql));
    });
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const { result, committed } = await this.writeLock.run(async () => {
      const db = this.writer.db;
      if (!this.group) {
        await retryWhileBusy(() => db.exec('BEGIN IMMEDIATE'));
        this.group = newGroup();
      }
      const group = this.group;
      db.exec('SAVEPOINT member');
      try {
        const value = await fn(this.writer);
        db.exec('RELEASE member');
        group.members++;
        return { result: value, committed: group.committed };
      } catch (err) {
        if (db.inTransaction) {
          db.exec('ROLLBACK TO member');
          db.exec('RELEASE member');
        } else {
          // SQLite rolled the whole transaction back (e.g. disk full): the group's work is lost.
          this.group = undefined;
          group.reject(err);
        }
        throw err;
      } finally {
        if ((this.group?.members ?? 0) >= MAX_GROUP) this.commitGroup();
        else if (this.writeLock.waiting === 0) this.scheduleCommit();
      }
    });
    await committed;
    return result;
  }

  /**
   * Commits the open group once the event loop has run the I/O callbacks of this turn, so that
   * transactions of requests that arrived together share the COMMIT. Committing as soon as nobody
   * waits for the lock would commit almost every transaction alone: requests reach their
   * transaction one after the other, each after the previous one has finished.
   */
  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.writeLock
        .run(async () => {
          this.commitScheduled = false;
          this.commitGroup();
        })
        .catch(() => {}); // commitGroup rejects the group's members; nothing else to report
    });
  }

  /** Commits the open group, if any. Called with the write lock held. */
  private commitGroup(): void {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    const db = this.writer.db;
    try {
      db.exec('COMMIT');
      group.resolve();
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      group.reject(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.checkpointTimer);
    await this.checkpointing;
    await this.stopBackgroundCheckpoint();
    await this.writeLock.run(async () => {
      this.commitGroup();
      if (this.reader !== this.writer) this.reader.db.close();
      this.writer.db.close();
    });
  }
}
