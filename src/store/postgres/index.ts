import { SqlStore } from '../sql/sql-store.js';
import { PostgresDatabase, type PostgresOptions } from './database.js';

export function openPostgresStore(options: PostgresOptions): { store: SqlStore; database: PostgresDatabase } {
  const database = new PostgresDatabase(options);
  return { store: new SqlStore(database), database };
}
