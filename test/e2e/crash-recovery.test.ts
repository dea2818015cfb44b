import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openStore } from '../../src/store/open-store.js';
import { postgresUrl } from '../helpers/backends.js';
import { freePort, type ServerProcess, startServerProcess } from '../helpers/server-process.js';

/**
 * Kills the real server between the processor's answer and the commit of that answer
 * (PAYMENTS_FAULT_CRASH_AFTER, honoured only with NODE_ENV=test), restarts it, and checks that
 * reconciliation records the authorisation the processor made.
 */
async function waitUntil<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const backends: { name: string; url?: () => Promise<{ url: string; drop: () => Promise<void> }> }[] = [{ name: 'sqlite' }];
if (postgresUrl) {
  backends.push({
    name: 'postgres',
    url: async () => {
      const name = `crash_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(postgresUrl as string);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        drop: async () => {
          const c = new pg.Client({ connectionString: postgresUrl });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  });
}

for (const backend of backends) {
  describe(`crash between authorisation and commit: ${backend.name}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payments-crash-'));
    let databaseUrl: string | undefined;
    let drop = async () => {};
    let server: ServerProcess | undefined;

    before(async () => {
      if (backend.url) ({ url: databaseUrl, drop } = await backend.url());
    });
    after(async () => {
      await server?.stop();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('the process dies after the processor authorised; on restart the payment is recorded', { timeout: 90_000 }, async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // DATABASE_URL is always set: empty means the SQLite file in DATA_DIR, whatever the parent's environment says.
      const env = { PORT: String(port), DATA_DIR: dataDir, RECONCILE_GRACE_MS: '0', DATABASE_URL: databaseUrl ?? '' };

      server = await startServerProcess({ ...env, NODE_ENV: 'test', PAYMENTS_FAULT_CRASH_AFTER: 'authorize' }, dataDir, port);
      const first = server;
      assert.ok(first.keys, first.output());
      const { secret, publishable } = first.keys;
      assert.match(first.output(), /card encryption key/);

      let n = 0;
      const call = async (key: string, path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `crash-${++n}` },
          body: JSON.stringify(body),
        });
        return (await res.json()) as Record<string, unknown>;
      };
      const customer = await call(secret, '/v1/customers', { email: 'crash@example.com' });
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' };
      const token = await call(publishable, '/v1/tokens', { card });
      const payment = {
        amount: 4200,
        currency: 'USD',
        customer: customer.id,
        payment_method: token.id,
        capture_method: 'manual',
        confirm: true,
      };
      await assert.rejects(call(secret, '/v1/payments', payment));
      assert.equal(await first.exited, 137);

      // What the dead process left: the intent, committed, and the payment in processing.
      const inspect = openStore({ databaseUrl: databaseUrl ?? `sqlite://${join(dataDir, 'payments.db')}`, dataDir });
      const left = await inspect.database.get<{ id: string; status: string; state: string }>(
        `SELECT p.id, p.status, o.state FROM payments p JOIN processor_operations o ON o.payment_id = p.id WHERE o.kind = 'authorize'`,
      );
      await inspect.store.close();
      assert.equal(left?.status, 'processing');
      assert.equal(left?.state, 'pending');

      server = await startServerProcess({ ...env, NODE_ENV: 'test' }, dataDir, port);
      const restarted = await waitUntil('the reconciled payment', async () => {
        const res = await fetch(`${base}/v1/payments/${left?.id}`, { headers: { authorization: `Bearer ${secret}` } });
        const body = (await res.json()) as Record<string, unknown>;
        return body.status === 'processing' ? undefined : body;
      });
      assert.equal(restarted.status, 'requires_capture');
      assert.equal(restarted.amount_capturable, 4200);
      assert.equal(restarted.amount_received, 0);

      const captured = await call(secret, `/v1/payments/${left?.id}/capture`, {});
      assert.equal(captured.status, 'succeeded');
      assert.equal(captured.amount_received, 4200);
      assert.equal(await server.stop('SIGTERM'), 0);
    });
  });
}
