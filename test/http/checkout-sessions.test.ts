import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { newCustomer, tokenFor } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const HOUR_MS = 3600_000;

for (const backend of BACKENDS) {
  describe(`checkout sessions: ${backend.name}`, () => {
    let t: TestApp;
    let customer: string;
    before(async () => {
      t = await createTestApp(backend);
      customer = await newCustomer(t);
    });
    after(async () => t.close());

    const pk = () => t.account.keys.publishable_test;
    const newSession = async (extra: Record<string, unknown> = {}) => {
      const res = await t.call('POST', '/v1/checkout/sessions', {
        body: {
          amount: 1500,
          currency: 'USD',
          customer,
          description: 'One mug',
          success_url: 'http://shop.test/thanks',
          cancel_url: 'http://shop.test/cart',
          ...extra,
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const confirm = async (s: { id: string; client_secret: string }, number: string) =>
      t.call('POST', `/v1/checkout/sessions/${s.id}/confirm`, {
        key: pk(),
        body: { client_secret: s.client_secret, payment_method: await tokenFor(t, number) },
      });
    const eventsOfType = async (type: string) =>
      (await t.call('GET', `/v1/events?type=${type}&limit=100`)).json().data as { data: { object: { id: string } } }[];

    test('create answers id, url, client_secret, status open and a payment, expiring in 24 hours', async () => {
      const s = await newSession();
      assert.match(s.id, /^cs_/);
      assert.equal(s.object, 'checkout.session');
      assert.equal(s.url, `http://localhost:80/checkout/${s.id}`);
      assert.match(s.client_secret, new RegExp(`^${s.id}_secret_`));
      assert.equal(s.status, 'open');
      assert.match(s.payment, /^pay_/);
      assert.equal(s.payment_status, 'requires_payment_method');
      assert.equal(s.amount, 1500);
      assert.equal(s.expires_at - s.created, 24 * 3600);
      const payment = (await t.call('GET', `/v1/payments/${s.payment}`)).json();
      assert.equal(payment.amount, 1500);
      assert.equal(payment.description, 'One mug');
    });

    test('create checks its parameters; publishable keys may not create', async () => {
      const bad = await t.call('POST', '/v1/checkout/sessions', {
        body: { amount: 100, currency: 'USD', customer, success_url: 'javascript:alert(1)', cancel_url: 'http://x.test/' },
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.param, 'success_url');
      const byPk = await t.call('POST', '/v1/checkout/sessions', {
        key: pk(),
        body: { amount: 100, currency: 'USD', customer, success_url: 'http://x.test/', cancel_url: 'http://x.test/' },
      });
      assert.equal(byPk.statusCode, 403);
      assert.equal(byPk.json().error.code, 'insufficient_scope');
    });

    test('retrieve: by id with a secret key; with a publishable key only with the client secret', async () => {
      const s = await newSession();
      assert.equal((await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json().id, s.id);
      const noSecret = await t.call('GET', `/v1/checkout/sessions/${s.id}`, { key: pk() });
      assert.equal(noSecret.statusCode, 400);
      assert.equal(noSecret.json().error.param, 'client_secret');
      const wrong = await t.call('GET', `/v1/checkout/sessions/${s.id}?client_secret=${s.id}_secret_nope`, { key: pk() });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().error.code, 'client_secret_mismatch');
      const ok = await t.call('GET', `/v1/checkout/sessions/${s.id}?client_secret=${encodeURIComponent(s.client_secret)}`, { key: pk() });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().amount, 1500);
    });

    test('confirm with 4242 completes the session exactly once, with one checkout.session.completed event', async () => {
      const s = await newSession();
      const res = await confirm(s, '4242424242424242');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'complete');
      assert.equal(res.json().payment_status, 'succeeded');
      assert.ok(res.json().completed_at);
      const again = await confirm(s, '4242424242424242');
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().error.code, 'checkout_session_completed');
      const completed = (await eventsOfType('checkout.session.completed')).filter((e) => e.data.object.id === s.id);
      assert.equal(completed.length, 1);
      assert.equal((await t.call('GET', `/v1/payments/${s.payment}`)).json().status, 'succeeded');
    });

    test('a declined card answers 402 and leaves the session open for another card', async () => {
      const s = await newSession();
      const declined = await confirm(s, '4000000000000002');
      assert.equal(declined.statusCode, 402);
      assert.equal(declined.json().error.decline_code, 'generic_decline');
      const read = (await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json();
      assert.equal(read.status, 'open');
      assert.equal(read.last_payment_error.decline_code, 'generic_decline');
      const paid = await confirm(s, '4242424242424242');
      assert.equal(paid.json().status, 'complete');
    });

    test('3-D Secure: requires_action with next_action; completing authentication completes the session', async () => {
      const s = await newSession({ capture_method: 'manual' });
      const res = await confirm(s, '4000002500003155');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'open');
      assert.equal(res.json().payment_status, 'requires_action');
      assert.match(res.json().next_action.redirect_to_url.url, /\/authenticate\/pay_/);
      const auth = await t.call('POST', `/v1/payments/${s.payment}/test_authentication`, { body: { outcome: 'succeed' } });
      assert.equal(auth.json().status, 'requires_capture');
      const read = (await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json();
      assert.equal(read.status, 'complete');
    });

    test('a failed authentication leaves the session open', async () => {
      const s = await newSession();
      await confirm(s, '4000002500003155');
      await t.call('POST', `/v1/payments/${s.payment}/test_authentication`, { body: { outcome: 'fail' } });
      const read = (await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json();
      assert.equal(read.status, 'open');
      assert.equal(read.last_payment_error.code, 'payment_intent_authentication_failure');
    });

    test('an unpaid session expires after 24 hours: its payment is canceled and it can no longer be paid', async () => {
      const s = await newSession();
      t.clock.advance(24 * HOUR_MS - 1000);
      assert.equal((await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json().status, 'open');
      t.clock.advance(1000);
      const read = (await t.call('GET', `/v1/checkout/sessions/${s.id}`)).json();
      assert.equal(read.status, 'expired');
      assert.equal(read.payment_status, 'canceled');
      const late = await confirm(s, '4242424242424242');
      assert.equal(late.statusCode, 400);
      assert.equal(late.json().error.code, 'checkout_session_expired');
      assert.equal((await eventsOfType('checkout.session.expired')).filter((e) => e.data.object.id === s.id).length, 1);
    });

    test('expire ends an open session at once', async () => {
      const s = await newSession();
      const res = await t.call('POST', `/v1/checkout/sessions/${s.id}/expire`, { body: {} });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'expired');
      const list = (await t.call('GET', `/v1/checkout/sessions?payment=${s.payment}`)).json();
      assert.deepEqual(
        list.data.map((x: { id: string }) => x.id),
        [s.id],
      );
    });

    test('payments: a publishable key confirms a payment only with its client secret', async () => {
      const created = await t.call('POST', '/v1/payments', { body: { amount: 700, currency: 'USD', customer } });
      const p = created.json();
      const token = await tokenFor(t);
      const noSecret = await t.call('POST', `/v1/payments/${p.id}/confirm`, { key: pk(), body: { payment_method: token } });
      assert.equal(noSecret.statusCode, 400);
      assert.equal(noSecret.json().error.param, 'client_secret');
      const wrong = await t.call('POST', `/v1/payments/${p.id}/confirm`, {
        key: pk(),
        body: { payment_method: token, client_secret: `${p.id}_secret_x` },
      });
      assert.equal(wrong.json().error.code, 'client_secret_mismatch');
      const ok = await t.call('POST', `/v1/payments/${p.id}/confirm`, {
        key: pk(),
        body: { payment_method: token, client_secret: p.client_secret },
      });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().status, 'succeeded');
      assert.equal((await t.call('GET', '/v1/payments', { key: pk() })).statusCode, 403);
    });

    test('config: publishable keys read the account name, mode and card brands', async () => {
      const res = await t.call('GET', '/v1/checkout/config', { key: pk() });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().livemode, false);
      assert.ok(res.json().card_brands.includes('visa'));
    });
  });
}
