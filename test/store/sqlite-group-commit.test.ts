import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteDatabase } from '../../src/store/sqlite/database.js';

function open(): { db: SqliteDatabase; other: SqliteDatabase; cleanup(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'payments-group-'));
  const db = new SqliteDatabase({ path: join(dir, 'g.db') });
  const other = new SqliteDatabase({ path: join(dir, 'g.db') });
  return {
    db,
    other,
    async cleanup() {
      await db.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('concurrent transactions share commits, and each resolves only once its data is committed', async () => {
  const { db, other, cleanup } = open();
  try {
    await db.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const values = Array.from({ length: 50 }, (_, i) => i);
    await Promise.all(
      values.map(async (v) => {
        await db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (v) VALUES (?)', [v]);
        });
        // Another connection (another process, as far as SQLite knows) already sees it.
        assert.deepEqual(await other.get('SELECT v FROM t WHERE v = ?', [v]), { v });
      }),
    );
    assert.deepEqual(await other.get('SELECT COUNT(*) AS n FROM t'), { n: 50 });
  } finally {
    await cleanup();
  }
});

test('a failing transaction in a group rolls back alone', async () => {
  const { db, other, cleanup } = open();
  try {
    await db.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((v) =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (v) VALUES (?)', [v * 10]);
          if (v === 2) throw new Error('refused');
          await tx.run('INSERT INTO t (v) VALUES (?)', [v * 10 + 1]);
          return v;
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    const rows = await other.all<{ v: number }>('SELECT v FROM t ORDER BY v');
    assert.deepEqual(
      rows.map((r) => r.v),
      [10, 11, 30, 31, 40, 41],
    );
  } finally {
    await cleanup();
  }
});

test('a plain write after queued transactions commits them first', async () => {
  const { db, other, cleanup } = open();
  try {
    await db.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const tx = db.transaction(async (ex) => ex.run('INSERT INTO t (v) VALUES (1)'));
    const plain = db.run('INSERT INTO t (v) VALUES (2)');
    await Promise.all([tx, plain]);
    assert.deepEqual(await other.get('SELECT COUNT(*) AS n FROM t'), { n: 2 });
  } finally {
    await cleanup();
  }
});
