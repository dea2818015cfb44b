import pg from 'pg';
import type { Dialect, SqlDatabase, SqlExecutor, SqlValue } from '../sql/database.js';

export const postgresDialect: Dialect = {
  name: 'postgres',
  forUpdate: ' FOR UPDATE',
  migrationLock: 'SELECT pg_advisory_xact_lock(724242)',
};

export interface PostgresOptions {
  connectionString: string;
  /** Schema to work in (tests give each run its own); default: the server's search_path. */
  schema?: string;
  maxConnections?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
// Amounts and timestamps are BIGINT; every value we store fits a double exactly.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
};

/** Queries are written with `?` placeholders; PostgreSQL wants `$1, $2, ...`. */
const converted = new Map<string, { text: string; name: string }>();
function toPostgres(sql: string): { text: string; name: string } {
  let entry = converted.get(sql);
  if (!entry) {
    let n = 0;
    entry = { text: sql.replace(/\?/g, () => `$${++n}`), name: `q${converted.size + 1}` };
    converted.set(sql, entry);
  }
  return entry;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

class Executor implements SqlExecutor {
  constructor(private readonly target: Queryable) {}

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const { text, name } = toPostgres(sql);
    const result = await this.target.query({ text, name, values: params as SqlValue[] });
    return result.rows as T[];
  }
  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    const { text, name } = toPostgres(sql);
    const result = await this.target.query({ text, name, values: params as SqlValue[] });
    return result.rowCount ?? 0;
  }
  async exec(sql: string): Promise<void> {
    await this.target.query(sql);
  }
}

/** PostgreSQL through a node-postgres pool; a transaction holds one pooled client. */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = postgresDialect;
  private readonly pool: pg.Pool;
  private readonly root: Executor;

  constructor(options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      types,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client that loses its connection must not crash the process.
    this.pool.on('error', () => {});
    this.root = new Executor(this.pool);
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.root.all<T>(sql, params);
  }
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.root.get<T>(sql, params);
  }
  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.root.run(sql, params);
  }
  exec(sql: string): Promise<void> {
    return this.root.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new Executor(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
