import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { Mutex } from '../../lib/mutex.js';
import type { Dialect, SqlDatabase, SqlExecutor, SqlValue } from '../sql/database.js';

export const sqliteDialect: Dialect = { name: 'sqlite', forUpdate: '', migrationLock: null };

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** PRAGMA synchronous: NORMAL survives a process crash, FULL also an OS crash (slower). */
  synchronous?: 'NORMAL' | 'FULL';
}

/** A better-sqlite3 connection with a cache of prepared statements. */
class Connection implements SqlExecutor {
  private readonly statements = new Map<string, Statement>();
  constructor(readonly db: Database) {}

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.prepare(sql).all(...params) as T[];
  }
  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.prepare(sql).get(...params) as T | undefined;
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.prepare(sql).run(...params).changes;
  }
  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }
}

function openConnection(path: string, options: SqliteOptions, readonly: boolean): Database {
  const db = new BetterSqlite3(path, { readonly: readonly && path !== ':memory:' });
  db.pragma('busy_timeout = 5000');
  // Every group-commit member runs in a SAVEPOINT, whose undo log (the statement journal) would
  // otherwise be a temporary file created, written and deleted per transaction.
  db.pragma('temp_store = MEMORY');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
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
 * group's transaction (a failing one rolls back alone); the group commits when nobody else is
 * waiting for the writer, or when it is full; and each member resolves only after that COMMIT,
 * so nobody is ever answered with data that is not durable. Alone, a transaction commits at once.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = sqliteDialect;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly writeLock = new Mutex();
  private group: CommitGroup | undefined;

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.writer = new Connection(openConnection(options.path, options, false));
    this.reader = options.path === ':memory:' ? this.writer : new Connection(openConnection(options.path, options, true));
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
      return this.writer.run(sql, params);
    });
  }
  exec(sql: string): Promise<void> {
    return this.writeLock.run(() => {
      this.commitGroup();
      return this.writer.exec(sql);
    });
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const { result, committed } = await this.writeLock.run(async () => {
      const db = this.writer.db;
      if (!this.group) {
        db.exec('BEGIN IMMEDIATE');
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
        if (this.writeLock.waiting === 0 || (this.group?.members ?? 0) >= MAX_GROUP) this.commitGroup();
      }
    });
    await committed;
    return result;
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
    await this.writeLock.run(async () => {
      this.commitGroup();
      if (this.reader !== this.writer) this.reader.db.close();
      this.writer.db.close();
    });
  }
}
