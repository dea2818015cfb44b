import type { Migration, SqlDatabase } from './database.js';

/** Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction. */
export async function applyMigrations(db: SqlDatabase, migrations: readonly Migration[], nowMs: number): Promise<number[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const done = await db.transaction(async (tx) => {
      if (db.dialect.migrationLock) await tx.exec(db.dialect.migrationLock);
      const row = await tx.get('SELECT version FROM schema_migrations WHERE version = ?', [migration.version]);
      if (row) return false;
      await tx.exec(migration.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        nowMs,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
