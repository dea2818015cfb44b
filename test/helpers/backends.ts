import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type OpenedStore, openStore } from '../../src/store/open-store.js';

/**
 * The backends every store and HTTP suite runs against: SQLite always; PostgreSQL when
 * TEST_DATABASE_URL or DATABASE_URL names one (.ci/run sets it). Each opened store gets a
 * fresh SQLite file or a fresh PostgreSQL schema, so test files can run in parallel.
 */
export interface Backend {
  name: 'sqlite' | 'postgres';
  open(): Promise<TestStore>;
}

export interface TestStore extends OpenedStore {
  /** Closes the store and deletes its file or schema. */
  destroy(): Promise<void>;
  /** Where the data lives: the SQLite file, or the PostgreSQL schema. */
  location: string;
}

export const postgresUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((u) => u && /^postgres(ql)?:\/\//.test(u));

const sqlite: Backend = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'payments-test-'));
    const opened = openStore({ dataDir: dir });
    await opened.migrate();
    return {
      ...opened,
      location: join(dir, 'payments.db'),
      async destroy() {
        await opened.store.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: Backend = {
  name: 'postgres',
  async open() {
    const url = postgresUrl as string;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const opened = openStore({ databaseUrl: url, dataDir: tmpdir(), schema });
    await opened.migrate();
    return {
      ...opened,
      location: schema,
      async destroy() {
        await opened.store.close().catch(() => {});
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.end();
      },
    };
  },
};

export const BACKENDS: Backend[] = postgresUrl ? [sqlite, postgres] : [sqlite];

if (!postgresUrl && !process.env.PAYMENTS_QUIET_SKIP) {
  process.stderr.write('note: PostgreSQL suites skipped (set DATABASE_URL or TEST_DATABASE_URL=postgres://... to run them)\n');
}
