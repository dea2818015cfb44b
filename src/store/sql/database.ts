/** The small SQL surface each backend provides; the store's queries are written once against it. */
export type SqlValue = string | number | null;

export interface SqlExecutor {
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs one or more statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
}

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Appended to a SELECT that must lock the rows it reads until the transaction ends. */
  readonly forUpdate: string;
  /** A statement that serialises migrations across processes, run inside the migration transaction. */
  readonly migrationLock: string | null;
}

export interface SqlDatabase extends SqlExecutor {
  readonly dialect: Dialect;
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}
