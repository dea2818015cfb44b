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
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
  }
  return db;
}

/**
 * SQLite through better-sqlite3. One writer connection, used by one transaction at a time
 * (a mutex keeps other async work out of an open transaction), and one reader connection for
 * plain reads, which in WAL mode see only committed data.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = sqliteDialect;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly writeLock = new Mutex();

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
    return this.writeLock.run(() => this.writer.run(sql, params));
  }
  exec(sql: string): Promise<void> {
    return this.writeLock.run(() => this.writer.exec(sql));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.writeLock.run(async () => {
      const db = this.writer.db;
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.writer);
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    await this.writeLock.run(async () => {
      if (this.reader !== this.writer) this.reader.db.close();
      this.writer.db.close();
    });
  }
}
