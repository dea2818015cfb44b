import { join } from 'node:path';
import { openPostgresStore } from './postgres/index.js';
import type { SqlDatabase } from './sql/database.js';
import { applyMigrations } from './sql/migrate.js';
import { MIGRATIONS } from './sql/migrations.js';
import type { BackgroundCheckpointOptions } from './sqlite/database.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

export interface StoreLocation {
  /** `postgres://...`, `sqlite:///absolute/path.db`, or unset for `dataDir/payments.db`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema (tests use one each). */
  schema?: string | undefined;
  sqliteSynchronous?: 'NORMAL' | 'FULL';
  /** SQLite files: checkpoint the WAL from a thread (the server sets this; the CLI does not). */
  sqliteBackgroundCheckpoint?: BackgroundCheckpointOptions | undefined;
}

export interface OpenedStore {
  store: Store;
  database: SqlDatabase;
  /** Human-readable description without credentials, for logs. */
  description: string;
  migrate(nowMs?: number): Promise<number[]>;
}

export function openStore(location: StoreLocation): OpenedStore {
  const url = location.databaseUrl;
  let opened: { store: Store; database: SqlDatabase };
  let description: string;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    opened = openPostgresStore({ connectionString: url, schema: location.schema });
    const parsed = new URL(url);
    description = `postgresql://${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } else {
    let path = join(location.dataDir, 'payments.db');
    if (url) {
      if (!url.startsWith('sqlite://')) throw new Error('DATABASE_URL must start with postgres://, postgresql:// or sqlite://');
      path = url.slice('sqlite://'.length) || ':memory:';
    }
    opened = openSqliteStore({
      path,
      synchronous: location.sqliteSynchronous ?? 'NORMAL',
      ...(location.sqliteBackgroundCheckpoint ? { backgroundCheckpoint: location.sqliteBackgroundCheckpoint } : {}),
    });
    description = `sqlite:${path}`;
  }
  return {
    ...opened,
    description,
    migrate: (nowMs = Date.now()) => applyMigrations(opened.database, MIGRATIONS, nowMs),
  };
}
