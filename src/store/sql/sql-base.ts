import type { Page, PageQuery, Scope } from '../records.js';
import type { SqlDatabase, SqlExecutor, SqlValue } from './database.js';
import { pageClause, toPage } from './pagination.js';
import { bool, setClause } from './rows.js';

export type Row = Record<string, unknown>;
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** A table that holds one kind of object of an account, in one mode. */
export interface ScopedTable<T> {
  name: string;
  columns: string;
  fromRow: (row: Row) => T;
  /** A condition every read adds (e.g. `deleted_at IS NULL`). */
  visible?: string;
}

/** Column filters for a list: `{ customer_id: 'cus_...' }`; undefined values are left out. */
export type Filters = Record<string, SqlValue | undefined>;

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

  /** One object of the scope by id (`lock`: read it FOR UPDATE on PostgreSQL). */
  protected async findInScope<T>(table: ScopedTable<T>, scope: Scope, id: string, lock = false): Promise<T | undefined> {
    const visible = table.visible ? ` AND ${table.visible}` : '';
    const forUpdate = lock ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(
      `SELECT ${table.columns} FROM ${table.name} WHERE id = ? AND account_id = ? AND livemode = ?${visible}${forUpdate}`,
      [id, scope.accountId, bool(scope.livemode)],
    );
    return row && table.fromRow(row);
  }

  /** Sets the patch's fields (mapped to columns by `updatable`) on one object of the scope. */
  protected async updateInScope(
    table: string,
    scope: Scope,
    id: string,
    patch: object,
    updatable: Parameters<typeof setClause>[1],
  ): Promise<void> {
    const { sql, params } = setClause(patch, updatable);
    if (!sql) return;
    await this.ex.run(`UPDATE ${table} SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
  }

  /** A page of the scope's objects, newest first, narrowed by column filters. */
  protected async listInScope<T>(table: ScopedTable<T>, scope: Scope, filters: Filters, page: PageQuery): Promise<Page<T>> {
    let where = `account_id = ? AND livemode = ?${table.visible ? ` AND ${table.visible}` : ''}`;
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    for (const [column, value] of Object.entries(filters)) {
      if (value === undefined) continue;
      where += ` AND ${column} = ?`;
      params.push(value);
    }
    const clause = pageClause(page);
    const rows = await this.ex.all<Row>(`SELECT ${table.columns} FROM ${table.name} WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(table.fromRow), page.limit, clause.reversed);
  }

  /** Runs `fn` in this store's transaction, or in a new one when the store is not in one. */
  protected withTransaction<T>(fn: (ex: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inTransaction ? fn(this.ex) : this.db.transaction(fn);
  }
}
