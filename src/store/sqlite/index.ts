import { SqlStore } from '../sql/sql-store.js';
import { SqliteDatabase, type SqliteOptions } from './database.js';

export function openSqliteStore(options: SqliteOptions): { store: SqlStore; database: SqliteDatabase } {
  const database = new SqliteDatabase(options);
  return { store: new SqlStore(database), database };
}
