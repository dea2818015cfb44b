import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

test('startServer listens, answers /healthz and closes its database', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-server-'));
  const write = process.stdout.write;
  process.stdout.write = () => true; // the sandbox keys printed at first start
  try {
    const server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    process.stdout.write = write;
    const res = await fetch(`${server.url}/healthz`);
    assert.equal(res.status, 200);
    const body = await res.json();
    await server.close();
    assert.deepEqual(body, { status: 'ok', database: 'ok', rate_limiter: 'ok: per-instance limits (no REDIS_URL)' });
    await assert.rejects(fetch(`${server.url}/healthz`));
  } finally {
    process.stdout.write = write;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
