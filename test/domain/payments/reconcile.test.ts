import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OperationContext } from '../../../src/domain/context.js';
import { findPaymentOrThrow } from '../../../src/domain/payments/find-payment.js';
import { reconcileOperations } from '../../../src/domain/payments/reconcile.js';
import type { PaymentServices } from '../../../src/domain/payments/services.js';
import { createProcessors } from '../../../src/domain/processor/processors.js';
import { ephemeralKeyring } from '../../../src/domain/tokens/keyring.js';
import { BACKENDS } from '../../helpers/backends.js';
import { newCustomer } from '../../helpers/payments.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`reconciliation of pending processor calls: ${backend.name}`, () => {
    let t: TestApp;
    let services: PaymentServices;
    let ctx: OperationContext;
    before(async () => {
      t = await createTestApp(backend);
      // The processors of "the restarted process": the same database, a fresh connector.
      services = {
        processors: createProcessors(t.db.store, t.clock, undefined),
        keyring: ephemeralKeyring(),
        publicBaseUrl: 'http://localhost',
      };
      ctx = { scope: { accountId: t.account.account.id, livemode: false }, nowMs: t.clock.now() };
    });
    after(async () => t.close());

    test('an authorisation the processor made but nobody recorded is recorded on reconcile', async () => {
      const customer = await newCustomer(t);
      const created = (
        await t.call('POST', '/v1/payments', { body: { amount: 3000, currency: 'USD', customer, capture_method: 'manual' } })
      ).json();
      // Write the intent as confirm does, then let the processor answer, then "crash".
      const operationId = await t.db.store.transaction(async (tx) => {
        const p = await findPaymentOrThrow(tx, ctx, created.id, { forUpdate: true });
        await tx.updatePayment(ctx.scope, p.id, { status: 'processing' });
        const op = {
          id: `pop_test${Date.now()}`,
          accountId: p.accountId,
          livemode: false,
          paymentId: p.id,
          refundId: null,
          kind: 'authorize' as const,
          amount: p.amount,
          processor: 'simulated',
          state: 'pending' as const,
          reference: null,
          outcome: null,
          created: t.clock.now(),
          updated: t.clock.now(),
        };
        await tx.insertProcessorOperation(op);
        return op.id;
      });
      const connector = services.processors.forMode(false);
      await connector.authorize({
        operationId,
        amount: 3000,
        currency: 'USD',
        card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: null },
        capture: false,
      });
      assert.equal((await t.call('GET', `/v1/payments/${created.id}`)).json().status, 'processing');

      assert.equal(await reconcileOperations(t.db.store, t.clock, services.processors, 'http://localhost', 60_000), 0, 'within grace');
      t.clock.advance(61_000);
      assert.equal(await reconcileOperations(t.db.store, t.clock, services.processors, 'http://localhost', 60_000), 1);
      const p = (await t.call('GET', `/v1/payments/${created.id}`)).json();
      assert.equal(p.status, 'requires_capture');
      assert.equal(p.amount_capturable, 3000);
      assert.equal(await reconcileOperations(t.db.store, t.clock, services.processors, 'http://localhost', 0), 0, 'settled once');
    });

    test('an intent the processor never received: the payment returns to requires_payment_method, nothing charged', async () => {
      const customer = await newCustomer(t);
      const created = (await t.call('POST', '/v1/payments', { body: { amount: 3000, currency: 'USD', customer } })).json();
      await t.db.store.transaction(async (tx) => {
        await tx.updatePayment(ctx.scope, created.id, { status: 'processing' });
        await tx.insertProcessorOperation({
          id: `pop_lost${Date.now()}`,
          accountId: t.account.account.id,
          livemode: false,
          paymentId: created.id,
          refundId: null,
          kind: 'authorize',
          amount: 3000,
          processor: 'simulated',
          state: 'pending',
          reference: null,
          outcome: null,
          created: t.clock.now(),
          updated: t.clock.now(),
        });
      });
      assert.equal(await reconcileOperations(t.db.store, t.clock, services.processors, 'http://localhost', 0), 1);
      const p = (await t.call('GET', `/v1/payments/${created.id}`)).json();
      assert.equal(p.status, 'requires_payment_method');
      assert.equal(p.last_payment_error.code, 'processing_error');
      assert.equal(p.amount_received, 0);
    });
  });
}
