import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { recordKeyExpiries } from '../../src/domain/api-keys/key-expiry.js';
import { verifyAuditChain } from '../../src/domain/audit/verify.js';
import { DAY, HOUR, ManualClock } from '../../src/lib/clock.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type AuditEvent = {
  id: string;
  type: string;
  api_key: string;
  request: { id: string; method: string; path: string; status: number; ip: string; user_agent: string | null } | null;
  created: number;
  livemode: boolean;
  hash: string;
  previous_hash: string;
};

for (const backend of BACKENDS) {
  describe(`audit log: ${backend.name}`, () => {
    let t: TestApp;
    let secretKeyId: string;
    const scope = () => ({ accountId: t.account.account.id, livemode: false });
    const events = async (query = '') => (await t.call('GET', `/v1/audit_events?limit=100${query}`)).json().data as AuditEvent[];
    const storedUse = async (requestId: string) =>
      (await t.db.store.listAuditEvents(scope(), { type: 'api_key.used' }, { limit: 100 })).rows.find((e) => e.request?.id === requestId);

    before(async () => {
      t = await createTestApp(backend);
      const keys = (await t.call('GET', '/v1/api_keys')).json().data as { id: string; kind: string }[];
      secretKeyId = keys.find((k) => k.kind === 'secret')!.id;
    });
    after(async () => t.close());

    test('the account’s first keys were logged as created, in a hash chain starting from 64 zeros', async () => {
      const created = await events('&type=api_key.created');
      assert.equal(created.length, 2, 'test mode shows its secret and publishable key');
      const all = await t.db.store.listAuditEventsBySeq(t.account.account.id, 0, 10);
      assert.equal(all[0]?.previousHash, '0'.repeat(64));
      assert.equal(all[1]?.previousHash, all[0]?.hash);
      assert.equal(all.length >= 4, true, 'live keys too, in the same chain');
    });

    test('a write’s api_key.used event commits with the write; a read’s is batched, then committed', async () => {
      const write = await t.call('POST', '/v1/customers', { body: { name: 'Ann' }, headers: { 'user-agent': 'billing-worker/2.1' } });
      assert.equal(write.statusCode, 200);
      const writeEvent = await storedUse(write.headers['request-id'] as string);
      assert.ok(writeEvent, 'in the database before any batch is flushed');
      assert.deepEqual(writeEvent.request, {
        id: write.headers['request-id'],
        method: 'POST',
        path: '/v1/customers',
        status: 200,
        ip: '127.0.0.1',
        user_agent: 'billing-worker/2.1',
      });
      assert.equal(writeEvent.apiKeyId, secretKeyId);

      const read = await t.call('GET', '/v1/customers?limit=3', { remoteAddress: '10.1.2.3' });
      assert.equal(await storedUse(read.headers['request-id'] as string), undefined, 'queued, not yet committed');
      assert.ok((t.app.auditBatcher?.pending ?? 0) > 0);
      await t.app.auditBatcher?.flush();
      const readEvent = await storedUse(read.headers['request-id'] as string);
      assert.equal(readEvent?.request?.path, '/v1/customers', 'no query string');
      assert.equal(readEvent?.request?.ip, '10.1.2.3');
      assert.equal(readEvent?.request?.status, 200);
      assert.equal(readEvent?.request?.user_agent, 'lightMyRequest', 'what inject sends');
    });

    test('failed requests are logged with their status: 400, 404, and 403 (an authenticated refusal)', async () => {
      const bad = await t.call('POST', '/v1/customers', { body: { email: 42 } });
      const missing = await t.call('GET', '/v1/customers/cus_nope');
      const worker = (await t.call('POST', '/v1/api_keys', { body: { kind: 'restricted', permissions: { payments: 'read' } } })).json();
      const forbidden = await t.call('GET', '/v1/customers', { key: worker.secret });
      assert.deepEqual([bad.statusCode, missing.statusCode, forbidden.statusCode], [400, 404, 403]);
      const used = await events('&type=api_key.used');
      const byRequest = (res: { headers: Record<string, unknown> }) => used.find((e) => e.request?.id === res.headers['request-id']);
      assert.equal(byRequest(bad)?.request?.status, 400);
      assert.equal(byRequest(missing)?.request?.status, 404);
      assert.equal(byRequest(forbidden)?.request?.status, 403);
      assert.equal(byRequest(forbidden)?.api_key, worker.id);
    });

    test('rolled, revoked and expired keys, and refused uses of revoked and expired keys, are logged', async () => {
      const key = (await t.call('POST', '/v1/api_keys', { body: { kind: 'restricted', permissions: { events: 'read' } } })).json();
      const roll = await t.call('POST', `/v1/api_keys/${key.id}/roll`);
      const fresh = roll.json();
      const revoke = await t.call('POST', `/v1/api_keys/${fresh.id}/revoke`);
      const refusedRevoked = await t.call('GET', '/v1/events', { key: fresh.secret });
      assert.equal(refusedRevoked.statusCode, 401);

      t.clock.advance(24 * HOUR);
      const refusedExpired = await t.call('GET', '/v1/events', { key: key.secret });
      assert.equal(refusedExpired.json().error.code, 'api_key_expired');
      await t.call('GET', '/v1/events', { key: key.secret });

      const aboutOld = await events(`&api_key=${key.id}`);
      const aboutFresh = await events(`&api_key=${fresh.id}`);
      const types = (list: AuditEvent[]) => list.map((e) => e.type).reverse();
      assert.deepEqual(types(aboutOld), ['api_key.created', 'api_key.rolled', 'api_key.expired', 'api_key.used', 'api_key.used']);
      assert.deepEqual(types(aboutFresh), ['api_key.created', 'api_key.revoked', 'api_key.used']);
      const rolled = aboutOld.find((e) => e.type === 'api_key.rolled');
      assert.equal(rolled?.request?.id, roll.headers['request-id']);
      assert.equal(aboutFresh.find((e) => e.type === 'api_key.revoked')?.request?.id, revoke.headers['request-id']);
      assert.equal(aboutFresh.find((e) => e.type === 'api_key.used')?.request?.status, 401);
      assert.deepEqual(
        aboutOld.filter((e) => e.type === 'api_key.used').map((e) => e.request?.status),
        [401, 401],
      );
      assert.equal(aboutOld.find((e) => e.type === 'api_key.expired')?.created, Math.floor(t.clock.now() / 1000));
    });

    test('keys that expire unused get their api_key.expired event from the sweep, once', async () => {
      const fresh = await createTestApp(backend);
      try {
        const auditor = (
          await fresh.call('POST', '/v1/api_keys', { body: { kind: 'restricted', permissions: { audit_events: 'read' } } })
        ).json();
        fresh.clock.advance(91 * DAY);
        assert.equal(await recordKeyExpiries(fresh.db.store, fresh.clock.now()), 2, 'both secret keys of the account');
        assert.equal(await recordKeyExpiries(fresh.db.store, fresh.clock.now()), 0);
        const list = await fresh.call('GET', '/v1/audit_events?type=api_key.expired', { key: auditor.secret });
        const expired = list.json().data as AuditEvent[];
        assert.equal(expired.length, 1, 'the test-mode one');
        assert.equal(expired[0]?.created, Math.floor(fresh.clock.now() / 1000) - 24 * 3600, 'dated when the key expired');
      } finally {
        await fresh.close();
      }
    });

    test('lists filter by type, key and created, page with cursors, and cannot be altered through the API', async () => {
      const fresh = await createTestApp(backend);
      try {
        for (let i = 0; i < 7; i++) {
          await fresh.call('GET', '/v1/account');
          fresh.clock.advance(1000);
        }
        const page1 = (await fresh.call('GET', '/v1/audit_events?type=api_key.used&limit=3')).json();
        assert.equal(page1.data.length, 3);
        assert.equal(page1.has_more, true);
        assert.equal(page1.url, '/v1/audit_events');
        const page2 = (await fresh.call('GET', `/v1/audit_events?type=api_key.used&limit=3&starting_after=${page1.data[2].id}`)).json();
        assert.ok(page2.data.every((e: AuditEvent) => e.created < page1.data[2].created || e.id < page1.data[2].id));
        const since = page1.data[1].created;
        const recent = (await fresh.call('GET', `/v1/audit_events?type=api_key.used&created[gte]=${since}`)).json();
        assert.ok(recent.data.length >= 2 && recent.data.every((e: AuditEvent) => e.created >= since));
        assert.equal((await fresh.call('GET', '/v1/audit_events?type=api_key.stolen')).statusCode, 400);
        assert.equal((await fresh.call('DELETE', `/v1/audit_events/${page1.data[0].id}`)).statusCode, 405);
        assert.equal((await fresh.call('POST', `/v1/audit_events/${page1.data[0].id}`, { body: {} })).statusCode, 405);
        const one = await fresh.call('GET', `/v1/audit_events/${page1.data[0].id}`);
        assert.deepEqual(one.json(), page1.data[0]);
        assert.equal(one.json().object, 'audit_event');
      } finally {
        await fresh.close();
      }
    });

    test('the chain of a busy account verifies: concurrent writes and reads append in commit order', async () => {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? t.call('POST', '/v1/customers', { body: {} }) : t.call('GET', '/v1/customers'))),
      );
      await t.app.auditBatcher?.flush();
      const report = await verifyAuditChain(t.db.store, t.account.account.id);
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.ok(report.checked > 30);
    });
  });

  describe(`audit log on shutdown: ${backend.name}`, () => {
    test('a clean shutdown commits every queued event', async () => {
      const db = await backend.open();
      try {
        const clock = new ManualClock(Date.UTC(2026, 10, 1));
        const { account, keys } = await createAccount(db.store, clock, 'A');
        const app = await buildApp({ store: db.store, clock, logLevel: 'silent', audit: { flushIntervalMs: 3_600_000, maxBatch: 10_000 } });
        const reads = 25;
        for (let i = 0; i < reads; i++) {
          const res = await app.inject({ method: 'GET', url: '/v1/account', headers: { authorization: `Bearer ${keys.secret_test}` } });
          assert.equal(res.statusCode, 200);
        }
        const scope = { accountId: account.id, livemode: false };
        assert.equal((await db.store.listAuditEvents(scope, { type: 'api_key.used' }, { limit: 100 })).rows.length, 0, 'all queued');
        await app.close();
        const used = await db.store.listAuditEvents(scope, { type: 'api_key.used' }, { limit: 100 });
        assert.equal(used.rows.length, reads);
        assert.ok(used.rows.every((e) => e.request?.status === 200));
      } finally {
        await db.destroy();
      }
    });
  });
}
