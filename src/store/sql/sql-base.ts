import type { SqlDatabase, SqlExecutor } from './database.js';

export type Row = Record<string, unknown>;
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * What every part of the SQL store shares: the database, the executor its statements run on
 * (the database itself, or one transaction's connection), and whether that is a transaction.
 */
export abstract class SqlBase {
  constructor(
    protected readonly db: SqlDatabase,
    protected readonly ex: SqlExecutor = db,
    protected readonly inTransaction = false,
  ) {}

  /** Runs `fn` in this store's transaction, or in a new one when the store is not in one. */
  protected withTransaction<T>(fn: (ex: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inTransaction ? fn(this.ex) : this.db.transaction(fn);
  }
}
