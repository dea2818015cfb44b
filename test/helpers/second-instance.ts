import { tmpdir } from 'node:os';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { postgresUrl, type TestStore } from './backends.js';

/**
 * The store a second service instance would have: on PostgreSQL its own pool on the same
 * schema. SQLite serves one process (better-sqlite3 blocks the thread while another connection
 * in the same process holds the write lock), so there the "second instance" shares the store.
 */
export function openSecondInstance(db: TestStore): { store: Store; close(): Promise<void> } {
  if (db.store.backend !== 'postgres') return { store: db.store, close: async () => {} };
  const opened = openStore({ databaseUrl: postgresUrl, dataDir: tmpdir(), schema: db.location });
  return { store: opened.store, close: () => opened.store.close() };
}
