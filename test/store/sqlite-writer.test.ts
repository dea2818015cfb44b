import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteDatabase } from '../../src/store/sqlite/database.js';

// The writer waits for another connection's lock on timers, not inside SQLite (which would sleep on
// the event loop): two databases on one file in one process both get their writes through, even
// while the first keeps its group transaction open until the end of the loop's turn.
test('sqlite writer: a second connection in the same process waits for the lock without stalling the event loop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-writer-'));
  const path = join(dir, 'w.db');
  const first = new SqliteDatabase({ path });
  const second = new SqliteDatabase({ path });
  try {
    await first.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT NOT NULL)');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const writes = [];
    for (let i = 0; i < 50; i++) {
      writes.push(first.transaction((tx) => tx.run('INSERT INTO t (id, who) VALUES (?, ?)', [i * 2, 'first'])));
      writes.push(second.transaction((tx) => tx.run('INSERT INTO t (id, who) VALUES (?, ?)', [i * 2 + 1, 'second'])));
    }
    const started = Date.now();
    await Promise.all(writes);
    clearInterval(ticker);
    const counts = await first.all<{ who: string; n: number }>('SELECT who, COUNT(*) AS n FROM t GROUP BY who ORDER BY who');
    assert.deepEqual(counts, [
      { who: 'first', n: 50 },
      { who: 'second', n: 50 },
    ]);
    assert.ok(Date.now() - started < 4000, 'no write waited out the busy timeout');
    assert.ok(ticks > 0, 'timers kept running while the connections took turns');
  } finally {
    await second.close();
    await first.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
