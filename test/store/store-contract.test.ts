import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import type { CustomerRecord, IdempotencyRecord, PaymentRecord } from '../../src/store/records.js';
import { BACKENDS, type TestStore } from '../helpers/backends.js';

const T0 = Date.UTC(2026, 0, 1);

function customer(accountId: string, livemode = false, nowMs = T0): CustomerRecord {
  return {
    id: newId('cus', nowMs),
    accountId,
    livemode,
    email: 'ann@example.com',
    name: 'Ann Ö 中文',
    description: null,
    metadata: { plan: 'gold' },
    created: Math.floor(nowMs / 1000),
    deletedAt: null,
  };
}

function payment(accountId: string, customerId: string, nowMs: number, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: newId('pay', nowMs),
    accountId,
    livemode: false,
    customerId,
    amount: 1000,
    currency: 'USD',
    description: null,
    captureMethod: 'automatic',
    status: 'requires_payment_method',
    amountCapturable: 0,
    amountReceived: 0,
    amountRefunded: 0,
    paymentMethod: null,
    lastPaymentError: null,
    nextAction: null,
    cancellationReason: null,
    canceledAt: null,
    metadata: {},
    created: Math.floor(nowMs / 1000),
    cardId: null,
    clientSecret: null,
    captureBefore: null,
    processorReference: null,
    ...overrides,
  };
}

for (const backend of BACKENDS) {
  describe(`store contract: ${backend.name}`, () => {
    let db: TestStore;
    const accountId = newId('acct');
    const otherAccountId = newId('acct');

    before(async () => {
      db = await backend.open();
      for (const id of [accountId, otherAccountId]) {
        await db.store.insertAccount({ id, name: 'A', defaultVersion: '2026-09-01', created: 1 });
      }
    });
    after(async () => db.destroy());

    test('migrations are recorded and re-running them applies nothing', async () => {
      assert.deepEqual(await db.migrate(), []);
    });

    test('accounts: insert, find, count, update', async () => {
      const found = await db.store.findAccountById(accountId);
      assert.equal(found?.defaultVersion, '2026-09-01');
      assert.ok((await db.store.countAccounts()) >= 2);
      await db.store.updateAccount(accountId, { defaultVersion: '2025-06-01' });
      assert.equal((await db.store.findAccountById(accountId))?.defaultVersion, '2025-06-01');
      await db.store.updateAccount(accountId, { defaultVersion: '2026-09-01' });
      assert.equal(await db.store.findAccountById('acct_nope'), undefined);
    });

    test('api keys: found by hash and by id only within their account', async () => {
      const key = {
        id: newId('key'),
        accountId,
        livemode: false,
        kind: 'restricted' as const,
        prefix: 'rk_test_',
        last4: 'abcd',
        secretHash: 'f'.repeat(63) + '1',
        name: 'worker',
        note: null,
        permissions: { payments: 'read' as const },
        created: 5,
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
      };
      await db.store.insertApiKey(key);
      assert.deepEqual(await db.store.findApiKeyByHash(key.secretHash), key);
      assert.deepEqual(await db.store.findApiKeyById(accountId, key.id), key);
      assert.equal(await db.store.findApiKeyById(otherAccountId, key.id), undefined);
      await db.store.updateApiKey(key.id, { revokedAt: 9 });
      assert.equal((await db.store.findApiKeyById(accountId, key.id))?.revokedAt, 9);
      assert.equal((await db.store.listApiKeys(accountId, false)).length, 1);
      assert.equal((await db.store.listApiKeys(accountId, true)).length, 0);
    });

    test('customers: scope separates accounts and modes; deleted ones vanish', async () => {
      const c = customer(accountId);
      await db.store.insertCustomer(c);
      assert.deepEqual(await db.store.findCustomerById({ accountId, livemode: false }, c.id), c);
      assert.equal(await db.store.findCustomerById({ accountId, livemode: true }, c.id), undefined);
      assert.equal(await db.store.findCustomerById({ accountId: otherAccountId, livemode: false }, c.id), undefined);
      assert.equal(await db.store.objectExistsInOtherMode({ accountId, livemode: true }, 'customers', c.id), true);
      assert.equal(await db.store.objectExistsInOtherMode({ accountId: otherAccountId, livemode: true }, 'customers', c.id), false);
      await db.store.updateCustomer({ accountId, livemode: false }, c.id, { name: null, metadata: {} });
      const updated = await db.store.findCustomerById({ accountId, livemode: false }, c.id);
      assert.equal(updated?.name, null);
      assert.deepEqual(updated?.metadata, {});
      await db.store.updateCustomer({ accountId, livemode: false }, c.id, { deletedAt: 10 });
      assert.equal(await db.store.findCustomerById({ accountId, livemode: false }, c.id), undefined);
    });

    test('payments: pagination is newest first, both directions, with filters', async () => {
      const scope = { accountId: otherAccountId, livemode: false };
      const c = customer(otherAccountId);
      await db.store.insertCustomer(c);
      const made: PaymentRecord[] = [];
      for (let i = 0; i < 25; i++) {
        const p = payment(otherAccountId, c.id, T0 + i * 1000, { status: i % 2 ? 'succeeded' : 'requires_payment_method' });
        made.push(p);
      }
      await db.store.bulkInsertPayments(made.slice(0, 20));
      for (const p of made.slice(20)) await db.store.insertPayment(p);
      const newestFirst = [...made].reverse().map((p) => p.id);

      const first = await db.store.listPayments(scope, {}, { limit: 10 });
      assert.deepEqual(
        first.rows.map((p) => p.id),
        newestFirst.slice(0, 10),
      );
      assert.equal(first.hasMore, true);
      const second = await db.store.listPayments(scope, {}, { limit: 10, startingAfter: first.rows[9]?.id });
      assert.deepEqual(
        second.rows.map((p) => p.id),
        newestFirst.slice(10, 20),
      );
      const third = await db.store.listPayments(scope, {}, { limit: 10, startingAfter: second.rows[9]?.id });
      assert.deepEqual(
        third.rows.map((p) => p.id),
        newestFirst.slice(20),
      );
      assert.equal(third.hasMore, false);
      const back = await db.store.listPayments(scope, {}, { limit: 10, endingBefore: second.rows[0]?.id });
      assert.deepEqual(
        back.rows.map((p) => p.id),
        newestFirst.slice(0, 10),
      );
      assert.equal(back.hasMore, false);

      const succeeded = await db.store.listPayments(scope, { status: 'succeeded' }, { limit: 100 });
      assert.equal(succeeded.rows.length, 12);
      assert.ok(succeeded.rows.every((p) => p.status === 'succeeded'));
      const byCustomer = await db.store.listPayments(scope, { customerId: c.id }, { limit: 100 });
      assert.equal(byCustomer.rows.length, 25);
      assert.equal((await db.store.listPayments({ accountId, livemode: false }, {}, { limit: 100 })).rows.length, 0);
    });

    test('payments: update changes only the named fields, JSON round-trips', async () => {
      const scope = { accountId, livemode: false };
      const c = customer(accountId, false, T0 + 5);
      await db.store.insertCustomer(c);
      const p = payment(accountId, c.id, T0 + 5);
      await db.store.insertPayment(p);
      await db.store.updatePayment(scope, p.id, {
        status: 'requires_capture',
        amountCapturable: 1000,
        lastPaymentError: { code: 'card_declined', message: 'x' },
        metadata: { a: 'b' },
      });
      const found = await db.store.findPaymentById(scope, p.id, { forUpdate: true });
      assert.deepEqual(found, {
        ...p,
        status: 'requires_capture',
        amountCapturable: 1000,
        lastPaymentError: { code: 'card_declined', message: 'x' },
        metadata: { a: 'b' },
      });
    });

    test('transactions roll back every write when the function throws', async () => {
      const c = customer(accountId, false, T0 + 9);
      await assert.rejects(
        db.store.transaction(async (tx) => {
          await tx.insertCustomer(c);
          assert.ok(await tx.findCustomerById({ accountId, livemode: false }, c.id), 'visible inside the transaction');
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await db.store.findCustomerById({ accountId, livemode: false }, c.id), undefined);
    });

    test('idempotency: one claim wins, even among concurrent claimers; stale claims are retaken', async () => {
      const base: IdempotencyRecord = {
        accountId,
        livemode: false,
        key: `k-${Math.random()}`,
        method: 'POST',
        path: '/v1/payments',
        requestHash: 'h1',
        state: 'in_progress',
        responseStatus: null,
        responseBody: null,
        created: 1000,
        lockedAt: 1000,
      };
      const results = await Promise.all(Array.from({ length: 8 }, () => db.store.claimIdempotencyKey(base, 0)));
      assert.equal(results.filter((r) => r.claimed).length, 1);
      assert.ok(results.filter((r) => !r.claimed).every((r) => r.record.state === 'in_progress'));

      const retaken = await db.store.claimIdempotencyKey({ ...base, lockedAt: 9000 }, 5000);
      assert.equal(retaken.claimed, true, 'a claim older than staleBefore is taken over');

      const scope = { accountId, livemode: false };
      await db.store.completeIdempotencyKey(scope, base.key, 200, '{"ok":true}');
      const again = await db.store.claimIdempotencyKey({ ...base, lockedAt: 99_999 }, 99_000);
      assert.equal(again.claimed, false, 'a finished key is never retaken');
      assert.equal(again.record.responseBody, '{"ok":true}');
      assert.equal(again.record.state, 'done');
      const found = await db.store.findIdempotencyKey(scope, base.key);
      assert.equal(found?.state, 'done', 'a finished key is found without claiming it');
      assert.equal(found?.responseStatus, 200);
      assert.equal(found?.responseBody, '{"ok":true}');
      assert.equal(await db.store.findIdempotencyKey(scope, 'never-used'), undefined);

      const other = { ...base, key: `k-${Math.random()}` };
      await db.store.claimIdempotencyKey(other, 0);
      await db.store.releaseIdempotencyKey(scope, other.key);
      assert.equal((await db.store.claimIdempotencyKey(other, 0)).claimed, true, 'a released key can be claimed again');

      assert.ok((await db.store.purgeIdempotencyKeys(2000)) >= 2);
      assert.equal((await db.store.claimIdempotencyKey(base, 0)).claimed, true, 'purged keys are forgotten');
    });
  });
}
