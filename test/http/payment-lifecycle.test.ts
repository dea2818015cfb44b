import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { assertAmountsConsistent, card, newCustomer, paymentWith, tokenFor } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`payment lifecycle: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    const eventsOf = async (paymentId: string) =>
      (await t.call('GET', '/v1/events?limit=100'))
        .json()
        .data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === paymentId);

    test('confirm: true with 4242 and automatic capture succeeds; amounts and events follow', async () => {
      const res = await paymentWith(t, { amount: 2000 });
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json();
      assert.equal(p.status, 'succeeded');
      assert.equal(p.amount_received, 2000);
      assert.equal(p.amount_capturable, 0);
      assert.equal(p.payment_method.brand, 'visa');
      assert.match(p.client_secret, new RegExp(`^${p.id}_secret_`));
      assertAmountsConsistent(p);
      const types = (await eventsOf(p.id)).map((e: { type: string }) => e.type);
      assert.deepEqual(types.sort(), ['payment.created', 'payment.succeeded']);
    });

    test('manual capture: requires_capture, then a partial capture releases the rest', async () => {
      const p = (await paymentWith(t, { amount: 5000, capture_method: 'manual' })).json();
      assert.equal(p.status, 'requires_capture');
      assert.equal(p.amount_capturable, 5000);
      assert.equal(p.amount_received, 0);
      assertAmountsConsistent(p);

      const tooMuch = await t.call('POST', `/v1/payments/${p.id}/capture`, { body: { amount_to_capture: 5001 } });
      assert.equal(tooMuch.statusCode, 400);
      assert.equal(tooMuch.json().error.code, 'amount_too_large');
      assert.equal(tooMuch.json().error.param, 'amount_to_capture');
      assert.equal((await t.call('GET', `/v1/payments/${p.id}`)).json().status, 'requires_capture');

      const captured = await t.call('POST', `/v1/payments/${p.id}/capture`, { body: { amount_to_capture: 3000 } });
      assert.equal(captured.statusCode, 200, captured.body);
      assert.equal(captured.json().status, 'succeeded');
      assert.equal(captured.json().amount_received, 3000);
      assert.equal(captured.json().amount_capturable, 0);
      assertAmountsConsistent(captured.json());

      const again = await t.call('POST', `/v1/payments/${p.id}/capture`, { body: {} });
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().error.code, 'payment_unexpected_state');
      const types = (await eventsOf(p.id)).map((e: { type: string }) => e.type);
      assert.deepEqual(types.sort(), ['payment.amount_capturable_updated', 'payment.created', 'payment.succeeded']);
    });

    test('capture without a body captures everything', async () => {
      const p = (await paymentWith(t, { amount: 700, capture_method: 'manual' })).json();
      const res = await t.call('POST', `/v1/payments/${p.id}/capture`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().amount_received, 700);
    });

    test('capturing an automatic payment, confirming twice: payment_unexpected_state, nothing changed', async () => {
      const p = (await paymentWith(t)).json();
      const capture = await t.call('POST', `/v1/payments/${p.id}/capture`, { body: {} });
      assert.equal(capture.statusCode, 400);
      assert.equal(capture.json().error.code, 'payment_unexpected_state');
      const confirm = await t.call('POST', `/v1/payments/${p.id}/confirm`, { body: {} });
      assert.equal(confirm.statusCode, 400);
      assert.equal(confirm.json().error.code, 'payment_unexpected_state');
      assert.deepEqual((await t.call('GET', `/v1/payments/${p.id}`)).json(), p);
    });

    test('create, then confirm with a payment_method in a second call', async () => {
      const customer = await newCustomer(t);
      const created = (await t.call('POST', '/v1/payments', { body: { amount: 1200, currency: 'EUR', customer } })).json();
      assert.equal(created.status, 'requires_payment_method');
      const noMethod = await t.call('POST', `/v1/payments/${created.id}/confirm`, { body: {} });
      assert.equal(noMethod.statusCode, 400);
      assert.equal(noMethod.json().error.code, 'payment_unexpected_state');
      const token = await tokenFor(t);
      const res = await t.call('POST', `/v1/payments/${created.id}/confirm`, { body: { payment_method: token } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'succeeded');
    });

    const declines: [string, string, string][] = [
      ['4000000000000002', 'card_declined', 'generic_decline'],
      ['4000000000009995', 'card_declined', 'insufficient_funds'],
      ['4000000000000069', 'expired_card', 'expired_card'],
      ['4000000000000127', 'incorrect_cvc', 'incorrect_cvc'],
    ];
    for (const [number, code, declineCode] of declines) {
      test(`${number} is declined: 402 ${code}/${declineCode}, payment back to requires_payment_method with last_payment_error`, async () => {
        const idempotencyKey = `decline-${number}-${backend.name}`;
        const customer = await newCustomer(t);
        const token = await tokenFor(t, number);
        const body = { amount: 1500, currency: 'USD', customer, payment_method: token, confirm: true };
        const res = await t.call('POST', '/v1/payments', { body, idempotencyKey });
        assert.equal(res.statusCode, 402, res.body);
        const { error } = res.json();
        assert.equal(error.type, 'card_error');
        assert.equal(error.code, code);
        assert.equal(error.decline_code, declineCode);
        assert.ok(!res.body.includes(number));

        const replay = await t.call('POST', '/v1/payments', { body, idempotencyKey });
        assert.equal(replay.statusCode, 402);
        assert.equal(replay.body, res.body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');

        const list = (await t.call('GET', `/v1/payments?customer=${customer}`)).json().data;
        assert.equal(list.length, 1);
        const p = list[0];
        assert.equal(p.status, 'requires_payment_method');
        assert.equal(p.last_payment_error.code, code);
        assert.equal(p.last_payment_error.decline_code, declineCode);
        assert.equal(p.payment_method, null);
        assertAmountsConsistent(p);
        const types = (await eventsOf(p.id)).map((e: { type: string }) => e.type);
        assert.ok(types.includes('payment.payment_failed'));

        const retry = await t.call('POST', `/v1/payments/${p.id}/confirm`, { body: { payment_method: await tokenFor(t) } });
        assert.equal(retry.statusCode, 200, retry.body);
        assert.equal(retry.json().status, 'succeeded');
        assert.equal(retry.json().last_payment_error, null);
      });
    }

    test('cancel: with a reason before confirmation; an authorisation is released; a succeeded payment cannot be', async () => {
      const customer = await newCustomer(t);
      const open = (await t.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer } })).json();
      const canceled = await t.call('POST', `/v1/payments/${open.id}/cancel`, { body: { cancellation_reason: 'abandoned' } });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().status, 'canceled');
      assert.equal(canceled.json().cancellation_reason, 'abandoned');
      assert.equal(canceled.json().canceled_at, Math.floor(t.clock.now() / 1000));

      const held = (await paymentWith(t, { capture_method: 'manual' })).json();
      const released = await t.call('POST', `/v1/payments/${held.id}/cancel`, { body: {} });
      assert.equal(released.statusCode, 200, released.body);
      assert.equal(released.json().status, 'canceled');
      assert.equal(released.json().amount_capturable, 0);
      const pending = await t.db.database.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM processor_operations WHERE payment_id = ? AND kind = 'cancel' AND state = 'succeeded'`,
        [held.id],
      );
      assert.equal(Number(pending?.n), 1);

      const done = (await paymentWith(t)).json();
      const refused = await t.call('POST', `/v1/payments/${done.id}/cancel`, { body: {} });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().error.code, 'payment_unexpected_state');
      const bad = await t.call('POST', `/v1/payments/${open.id}/cancel`, { body: { cancellation_reason: 'expired' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.param, 'cancellation_reason');
    });

    test('4000002500003155 requires action: a next_action URL on the service, then test_authentication succeeds', async () => {
      const res = await paymentWith(t, { number: '4000002500003155', capture_method: 'manual' });
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json();
      assert.equal(p.status, 'requires_action');
      assert.equal(p.next_action.type, 'redirect_to_url');
      const url = new URL(p.next_action.redirect_to_url.url);
      assert.equal(url.pathname, `/authenticate/${p.id}`);
      assert.equal(url.searchParams.get('client_secret'), p.client_secret);

      const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /text\/html/);
      assert.match(page.body, /Complete/);
      const wrongSecret = await t.app.inject({ method: 'GET', url: `${url.pathname}?client_secret=${p.id}_secret_nope` });
      assert.equal(wrongSecret.statusCode, 404);

      const done = await t.call('POST', `/v1/payments/${p.id}/test_authentication`, { body: { outcome: 'succeed' } });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().status, 'requires_capture');
      assert.equal(done.json().next_action, null);
      assert.equal(done.json().amount_capturable, p.amount);
      const types = (await eventsOf(p.id)).map((e: { type: string }) => e.type);
      assert.ok(types.includes('payment.requires_action'));
    });

    test('the hosted page’s Fail button: the payment returns to requires_payment_method', async () => {
      const p = (await paymentWith(t, { number: '4000002500003155' })).json();
      const res = await t.app.inject({
        method: 'POST',
        url: `/authenticate/${p.id}`,
        headers: { 'content-type': 'application/json' },
        payload: { client_secret: p.client_secret, outcome: 'fail' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'requires_payment_method');
      const after = (await t.call('GET', `/v1/payments/${p.id}`)).json();
      assert.equal(after.last_payment_error.code, 'payment_intent_authentication_failure');
      const twice = await t.call('POST', `/v1/payments/${p.id}/test_authentication`, { body: { outcome: 'succeed' } });
      assert.equal(twice.statusCode, 400);
      assert.equal(twice.json().error.code, 'payment_unexpected_state');
    });

    test('the hosted page’s Complete button with automatic capture: succeeded', async () => {
      const p = (await paymentWith(t, { number: '4000002500003155' })).json();
      const res = await t.app.inject({
        method: 'POST',
        url: `/authenticate/${p.id}`,
        headers: { 'content-type': 'application/json' },
        payload: { client_secret: p.client_secret, outcome: 'succeed' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'succeeded');
    });

    test('the CVC is erased once the confirmation used it', async () => {
      const p = (await paymentWith(t)).json();
      const row = await t.db.database.get<{ cvc_sealed: string | null }>(
        'SELECT t.cvc_sealed FROM tokens t JOIN payments p ON p.card_id = t.card_id WHERE p.id = ?',
        [p.id],
      );
      assert.equal(row?.cvc_sealed, null);
    });

    test('live mode without a processor: 503 processor_not_configured, nothing created', async () => {
      const live = t.account.keys.secret_live;
      const customer = await newCustomer(t, live);
      const token = (await t.call('POST', '/v1/tokens', { key: t.account.keys.publishable_live, body: { card: card() } })).json().id;
      const res = await t.call('POST', '/v1/payments', {
        key: live,
        body: { amount: 1000, currency: 'USD', customer, payment_method: token, confirm: true },
      });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().error.type, 'api_error');
      assert.equal(res.json().error.code, 'processor_not_configured');
      assert.equal((await t.call('GET', '/v1/payments', { key: live })).json().data.length, 0);
    });

    test('test_authentication is test-mode only', async () => {
      const live = t.account.keys.secret_live;
      const customer = await newCustomer(t, live);
      const p = (await t.call('POST', '/v1/payments', { key: live, body: { amount: 1000, currency: 'USD', customer } })).json();
      const res = await t.call('POST', `/v1/payments/${p.id}/test_authentication`, { key: live, body: { outcome: 'succeed' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'test_mode_only');
    });
  });
}
