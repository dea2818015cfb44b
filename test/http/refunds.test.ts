import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { assertAmountsConsistent, newCustomer, paymentWith } from '../helpers/payments.js';
import { openSecondInstance } from '../helpers/second-instance.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`refunds: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    const getPayment = async (id: string) => (await t.call('GET', `/v1/payments/${id}`)).json();

    test('a refund without amount refunds everything; then nothing is left', async () => {
      const p = (await paymentWith(t, { amount: 2500 })).json();
      const res = await t.call('POST', '/v1/refunds', { body: { payment: p.id, reason: 'requested_by_customer' } });
      assert.equal(res.statusCode, 200, res.body);
      const refund = res.json();
      assert.match(refund.id, /^re_/);
      assert.equal(refund.object, 'refund');
      assert.equal(refund.amount, 2500);
      assert.equal(refund.status, 'succeeded');
      assert.equal(refund.payment, p.id);
      assert.equal((await getPayment(p.id)).amount_refunded, 2500);
      const again = await t.call('POST', '/v1/refunds', { body: { payment: p.id } });
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().error.code, 'charge_already_refunded');
      const events = (await t.call('GET', '/v1/events?type=refund.created')).json().data;
      assert.ok(events.some((e: { data: { object: { id: string } } }) => e.data.object.id === refund.id));
    });

    test('several partial refunds up to the captured amount, never beyond', async () => {
      const p = (await paymentWith(t, { amount: 1000 })).json();
      for (const amount of [300, 300, 300]) {
        const res = await t.call('POST', '/v1/refunds', { body: { payment: p.id, amount } });
        assert.equal(res.statusCode, 200, res.body);
      }
      const over = await t.call('POST', '/v1/refunds', { body: { payment: p.id, amount: 101 } });
      assert.equal(over.statusCode, 400);
      assert.equal(over.json().error.code, 'amount_too_large');
      assert.equal(over.json().error.param, 'amount');
      const rest = await t.call('POST', '/v1/refunds', { body: { payment: p.id } });
      assert.equal(rest.json().amount, 100);
      const payment = await getPayment(p.id);
      assert.equal(payment.amount_refunded, 1000);
      assertAmountsConsistent(payment);
      const list = (await t.call('GET', `/v1/refunds?payment=${p.id}`)).json();
      assert.equal(list.object, 'list');
      assert.equal(list.url, '/v1/refunds');
      assert.deepEqual(
        list.data.map((r: { amount: number }) => r.amount),
        [100, 300, 300, 300],
      );
    });

    test('a partial capture bounds the refunds by what was captured', async () => {
      const p = (await paymentWith(t, { amount: 1000, capture_method: 'manual' })).json();
      await t.call('POST', `/v1/payments/${p.id}/capture`, { body: { amount_to_capture: 400 } });
      const over = await t.call('POST', '/v1/refunds', { body: { payment: p.id, amount: 401 } });
      assert.equal(over.json().error.code, 'amount_too_large');
      const full = await t.call('POST', '/v1/refunds', { body: { payment: p.id } });
      assert.equal(full.json().amount, 400);
    });

    test('refunding a canceled or uncaptured payment: payment_unexpected_state, nothing changed', async () => {
      const held = (await paymentWith(t, { capture_method: 'manual' })).json();
      const uncaptured = await t.call('POST', '/v1/refunds', { body: { payment: held.id } });
      assert.equal(uncaptured.statusCode, 400);
      assert.equal(uncaptured.json().error.code, 'payment_unexpected_state');
      await t.call('POST', `/v1/payments/${held.id}/cancel`, { body: {} });
      const canceled = await t.call('POST', '/v1/refunds', { body: { payment: held.id } });
      assert.equal(canceled.statusCode, 400);
      assert.equal(canceled.json().error.code, 'payment_unexpected_state');
      assert.equal((await getPayment(held.id)).amount_refunded, 0);
      assert.equal((await t.call('GET', `/v1/refunds?payment=${held.id}`)).json().data.length, 0);
    });

    test('unknown payment in the body is 400 resource_missing; unknown refund id 404', async () => {
      const res = await t.call('POST', '/v1/refunds', { body: { payment: 'pay_0000000000000000000000000000000' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'resource_missing');
      assert.equal(res.json().error.param, 'payment');
      const missing = await t.call('GET', '/v1/refunds/re_0000000000000000000000000000000');
      assert.equal(missing.statusCode, 404);
    });

    test('retrieve a refund; another account cannot see it', async () => {
      const p = (await paymentWith(t, { amount: 900 })).json();
      const refund = (await t.call('POST', '/v1/refunds', { body: { payment: p.id, amount: 100 } })).json();
      const got = await t.call('GET', `/v1/refunds/${refund.id}`);
      assert.deepEqual(got.json(), refund);
      const other = await createTestApp(backend);
      try {
        const cross = await other.call('POST', '/v1/refunds', { body: { payment: p.id } });
        assert.equal(cross.statusCode, 400);
        assert.equal(cross.json().error.code, 'resource_missing');
      } finally {
        await other.close();
      }
    });

    test('concurrent refunds never exceed the captured amount', async () => {
      const customer = await newCustomer(t);
      const p = (await paymentWith(t, { amount: 1000, customer })).json();
      const results = await Promise.all(
        Array.from({ length: 12 }, () => t.call('POST', '/v1/refunds', { body: { payment: p.id, amount: 300 } })),
      );
      const ok = results.filter((r) => r.statusCode === 200);
      assert.equal(ok.length, 3, results.map((r) => r.body).join('\n'));
      for (const r of results.filter((x) => x.statusCode !== 200)) {
        assert.equal(r.statusCode, 400);
        assert.equal(r.json().error.code, 'amount_too_large');
      }
      const payment = await getPayment(p.id);
      assert.equal(payment.amount_refunded, 900);
      assertAmountsConsistent(payment);
      const total = (await t.call('GET', `/v1/refunds?payment=${p.id}&limit=100`))
        .json()
        .data.reduce((s: number, r: { amount: number }) => s + r.amount, 0);
      assert.equal(total, 900);
    });

    test('concurrent refunds through two service instances on one database', async () => {
      const second = openSecondInstance(t.db);
      const other = await buildApp({ store: second.store, clock: t.clock, logLevel: 'silent', keyCacheTtlMs: 0 });
      try {
        const p = (await paymentWith(t, { amount: 1000 })).json();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : t.app).inject({
              method: 'POST',
              url: '/v1/refunds',
              headers: {
                authorization: `Bearer ${t.account.keys.secret_test}`,
                'content-type': 'application/json',
                'idempotency-key': `two-instances-${backend.name}-${i}`,
              },
              payload: { payment: p.id, amount: 250 },
            }),
          ),
        );
        assert.equal(results.filter((r) => r.statusCode === 200).length, 4, results.map((r) => r.body).join('\n'));
        const payment = await getPayment(p.id);
        assert.equal(payment.amount_refunded, 1000);
        assertAmountsConsistent(payment);
      } finally {
        await other.close();
        await second.close();
      }
    });

    test('concurrent full refunds: exactly one succeeds', async () => {
      const p = (await paymentWith(t, { amount: 1000 })).json();
      const results = await Promise.all(Array.from({ length: 8 }, () => t.call('POST', '/v1/refunds', { body: { payment: p.id } })));
      assert.equal(results.filter((r) => r.statusCode === 200).length, 1);
      assert.equal((await getPayment(p.id)).amount_refunded, 1000);
    });
  });
}
