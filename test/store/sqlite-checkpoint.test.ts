import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteDatabase } from '../../src/store/sqlite/database.js';

const PAGE = 4096;

async function withDatabase(safetyNetFrames: number | undefined, fn: (db: SqliteDatabase, path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'payments-checkpoint-'));
  const path = join(dir, 'c.db');
  const failures: unknown[] = [];
  const db = new SqliteDatabase({
    path,
    backgroundCheckpoint: { intervalMs: 10, restartFrames: 200, safetyNetFrames, onFailure: (err) => failures.push(err) },
  });
  try {
    await fn(db, path);
    assert.deepEqual(failures, [], 'the checkpoint thread never failed');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('background checkpoints: COMMITs leave checkpointing to the thread (threshold raised to 4 × restartFrames)', async () => {
  await withDatabase(undefined, async (db) => {
    const row = await db.transaction((tx) => tx.get<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint'));
    assert.equal(row?.wal_autocheckpoint, 800);
  });
});

// The way the first attempt failed: a checkpoint from another connection never finishes while the
// writer keeps appending, so SQLite never rewinds the WAL and it grows with every write.
test('background checkpoints: under writes that never pause, the WAL keeps starting over and stays bounded', async () => {
  // The writer's own automatic checkpoint is off here: only the thread can keep the WAL bounded.
  await withDatabase(0, async (db, path) => {
    await db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT NOT NULL)');
    const pad = 'x'.repeat(3000); // about one page per row
    const rows = 12_000; // ~48 MB written in all
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; i < rows; i += 4) {
        await db.transaction((tx) => tx.run('INSERT INTO t (id, pad) VALUES (?, ?)', [i, pad]));
        if (i % 64 === w) await new Promise((resolve) => setImmediate(resolve)); // let timers run, as a server would
      }
    });
    await Promise.all(writers);
    const walBytes = statSync(`${path}-wal`).size;
    // Without the restart step the WAL holds everything written (~48 MB); with it, restartFrames
    // plus what arrives while a round runs, which depends on the machine's speed: a loose bound.
    assert.ok(walBytes < (rows / 2) * (PAGE + 24), `WAL file is ${walBytes} bytes`);
    assert.ok(db.checkpointRestarts > 0, 'the WAL was checkpointed to the end with writes held back');
    const count = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    assert.equal(count?.n, rows, 'every row is there');
    assert.ok(statSync(path).size > rows * 3000, 'the rows reached the database file itself');
  });
});
