import { tmpdir } from 'node:os';
import { type OpenedStore, openStore } from '../../src/store/open-store.js';
import { type Backend, postgresUrl, type TestStore } from './backends.js';

/** Another connection to the same data (SQLite file or PostgreSQL schema): a restart, or a second instance. */
export function reopenStore(backend: Backend, db: TestStore): OpenedStore {
  if (backend.name === 'sqlite') return openStore({ databaseUrl: `sqlite://${db.location}`, dataDir: tmpdir() });
  return openStore({ databaseUrl: postgresUrl, dataDir: tmpdir(), schema: db.location });
}
