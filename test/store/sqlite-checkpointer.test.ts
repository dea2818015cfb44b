import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteDatabase } from '../../src/store/sqlite/database.js';

const walPages = (db: SqliteDatabase) => db.all<{ log: number; checkpointed: number }>('PRAGMA wal_checkpoint(PASSIVE)');

test('the background checkpointer copies the WAL into the database while COMMITs no longer do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-ckpt-'));
  const path = join(dir, 'c.db');
  const db = new SqliteDatabase({ path, backgroundCheckpointMs: 20 });
  try {
    const setting = await db.transaction((tx) => tx.get('PRAGMA wal_autocheckpoint'));
    assert.deepEqual(setting, { wal_autocheckpoint: 0 }, 'the writer’s COMMITs do not checkpoint');
    await db.exec('CREATE TABLE t (v INTEGER PRIMARY KEY, pad TEXT)');
    const before = statSync(path).size;
    for (let i = 0; i < 20; i++) {
      await db.transaction(async (tx) => {
        for (let j = 0; j < 50; j++) await tx.run('INSERT INTO t (v, pad) VALUES (?, ?)', [i * 50 + j, 'x'.repeat(500)]);
      });
    }
    // The worker's checkpoints grow the main file; the data is there through a fresh connection.
    for (let waited = 0; statSync(path).size <= before + 400_000 && waited < 5000; waited += 20) await sleep(20);
    assert.ok(statSync(path).size > before + 400_000, 'the database file received the WAL’s pages');
    const [status] = await walPages(db);
    assert.equal(status?.log, status?.checkpointed, 'nothing is left to checkpoint');
    assert.equal(db.checkpointFailure, undefined);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
