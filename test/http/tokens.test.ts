import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MINUTE } from '../../src/lib/clock.js';
import { BACKENDS } from '../helpers/backends.js';
import { card, newCustomer, tokenFor } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`tokens: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    test('a publishable key tokenises a card; the response shows only the summary', async () => {
      const res = await t.call('POST', '/v1/tokens', { key: t.account.keys.publishable_test, body: { card: card('4242 4242 4242 4242') } });
      assert.equal(res.statusCode, 200, res.body);
      const token = res.json();
      assert.match(token.id, /^tok_/);
      assert.equal(token.object, 'token');
      assert.equal(token.used, false);
      assert.equal(token.expires_at - token.created, 15 * 60);
      assert.deepEqual(Object.keys(token.card).sort(), [
        'brand',
        'exp_month',
        'exp_year',
        'fingerprint',
        'funding',
        'id',
        'last4',
        'object',
      ]);
      assert.equal(token.card.brand, 'visa');
      assert.equal(token.card.last4, '4242');
      assert.ok(!res.body.includes('4242424242424242'));
      assert.ok(!res.body.includes('"123"'));
    });

    test('a secret key may tokenise too', async () => {
      const res = await t.call('POST', '/v1/tokens', { body: { card: card() } });
      assert.equal(res.statusCode, 200);
    });

    test('the same card gets the same fingerprint; another card another', async () => {
      const a = (await t.call('POST', '/v1/tokens', { body: { card: card() } })).json();
      const b = (await t.call('POST', '/v1/tokens', { body: { card: card('4242424242424242', { exp_year: 2031 }) } })).json();
      const c = (await t.call('POST', '/v1/tokens', { body: { card: card('5555555555554444') } })).json();
      assert.equal(a.card.fingerprint, b.card.fingerprint);
      assert.notEqual(a.card.fingerprint, c.card.fingerprint);
      assert.equal(c.card.brand, 'mastercard');
    });

    test('the number is stored only sealed, never in plain text', async () => {
      const res = await t.call('POST', '/v1/tokens', { body: { card: card('378282246310005', { cvc: '1234' }) } });
      assert.equal(res.statusCode, 200, res.body);
      const row = await t.db.database.get<{ number_sealed: string }>('SELECT number_sealed FROM cards WHERE id = ?', [res.json().card.id]);
      assert.ok(row?.number_sealed.startsWith('v1.'));
      assert.ok(!row?.number_sealed.includes('378282246310005'));
      const dump = await t.db.database.all<Record<string, unknown>>('SELECT * FROM cards');
      assert.ok(!JSON.stringify(dump).includes('378282246310005'));
      const tokens = await t.db.database.all<Record<string, unknown>>('SELECT * FROM tokens');
      assert.ok(!JSON.stringify(tokens).includes('"1234"'));
    });

    const wrong: [string, Record<string, unknown>, string, string][] = [
      ['fails Luhn', { number: '4242424242424241' }, 'incorrect_number', 'card.number'],
      ['has letters', { number: '4242abcd42424242' }, 'incorrect_number', 'card.number'],
      ['has the wrong length for its brand', { number: '42424242424' }, 'incorrect_number', 'card.number'],
      ['has month 13', { exp_month: 13 }, 'invalid_expiry_month', 'card.exp_month'],
      ['has month 0', { exp_month: 0 }, 'invalid_expiry_month', 'card.exp_month'],
      ['expired last year', { exp_year: 2025 }, 'expired_card', 'card.exp_year'],
      ['expired last month', { exp_year: 2026, exp_month: 10 }, 'expired_card', 'card.exp_year'],
      ['has year 3000', { exp_year: 3000 }, 'invalid_expiry_year', 'card.exp_year'],
      ['has a 2-digit CVC', { cvc: '12' }, 'invalid_cvc', 'card.cvc'],
      ['has a letter CVC', { cvc: '12a' }, 'invalid_cvc', 'card.cvc'],
      ['has a 3-digit CVC on Amex', { number: '378282246310005', cvc: '123' }, 'invalid_cvc', 'card.cvc'],
    ];
    for (const [what, change, code, param] of wrong) {
      test(`card data that ${what} is 402 ${code} on ${param}`, async () => {
        const res = await t.call('POST', '/v1/tokens', { key: t.account.keys.publishable_test, body: { card: card(undefined, change) } });
        assert.equal(res.statusCode, 402, res.body);
        const { error } = res.json();
        assert.equal(error.type, 'card_error');
        assert.equal(error.code, code);
        assert.equal(error.param, param);
        assert.ok(!res.body.includes(String(change.number ?? '4242424242424242')));
      });
    }

    test('the wrong shape is 400 invalid_request_error', async () => {
      for (const body of [{}, { card: 'x' }, { card: { ...card(), exp_month: '12' } }, { card: { ...card(), number: 4242424242424242 } }]) {
        const res = await t.call('POST', '/v1/tokens', { body });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.type, 'invalid_request_error');
      }
      const missing = await t.call('POST', '/v1/tokens', { body: { card: { number: '4242424242424242', exp_month: 1 } } });
      assert.equal(missing.json().error.param, 'card.exp_year');
    });

    test('brands: Visa, Mastercard (2-series), Amex, Discover, JCB, Diners, UnionPay', async () => {
      const numbers: Record<string, string> = {
        visa: '4000056655665556',
        mastercard: '2223003122003222',
        amex: '371449635398431',
        discover: '6011111111111117',
        jcb: '3566002020360505',
        diners: '36227206271667',
        unionpay: '6200000000000005',
      };
      for (const [brand, number] of Object.entries(numbers)) {
        const res = await t.call('POST', '/v1/tokens', { body: { card: card(number, { cvc: brand === 'amex' ? '1234' : '123' }) } });
        assert.equal(res.statusCode, 200, `${brand}: ${res.body}`);
        assert.equal(res.json().card.brand, brand);
      }
    });

    test('a token is single-use: the second payment naming it is 400 token_already_used, nothing changed', async () => {
      const customer = await newCustomer(t);
      const token = await tokenFor(t);
      const first = await t.call('POST', '/v1/payments', { body: { amount: 500, currency: 'USD', customer, payment_method: token } });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().status, 'requires_confirmation');
      assert.equal(first.json().payment_method.last4, '4242');
      const before = (await t.call('GET', '/v1/payments?limit=100')).json().data.length;
      const second = await t.call('POST', '/v1/payments', { body: { amount: 500, currency: 'USD', customer, payment_method: token } });
      assert.equal(second.statusCode, 400);
      assert.equal(second.json().error.code, 'token_already_used');
      assert.equal(second.json().error.param, 'payment_method');
      assert.equal((await t.call('GET', '/v1/payments?limit=100')).json().data.length, before);
    });

    test('a token expires after 15 minutes unused', async () => {
      const customer = await newCustomer(t);
      const token = await tokenFor(t);
      t.clock.advance(15 * MINUTE + 1000);
      const res = await t.call('POST', '/v1/payments', {
        body: { amount: 500, currency: 'USD', customer, payment_method: token, confirm: true },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'token_expired');
    });

    test('an unknown token or another account’s is 400 resource_missing; a live token with a test key 403 livemode_mismatch', async () => {
      const customer = await newCustomer(t);
      const unknown = await t.call('POST', '/v1/payments', {
        body: { amount: 500, currency: 'USD', customer, payment_method: 'tok_0000000000000000000000000000000' },
      });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().error.code, 'resource_missing');
      assert.equal(unknown.json().error.param, 'payment_method');

      const other = await createTestApp(backend);
      try {
        const foreign = await tokenFor(other);
        const res = await t.call('POST', '/v1/payments', { body: { amount: 500, currency: 'USD', customer, payment_method: foreign } });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'resource_missing');
      } finally {
        await other.close();
      }

      const live = await t.call('POST', '/v1/tokens', { key: t.account.keys.publishable_live, body: { card: card() } });
      assert.equal(live.statusCode, 200, live.body);
      const mismatch = await t.call('POST', '/v1/payments', {
        body: { amount: 500, currency: 'USD', customer, payment_method: live.json().id },
      });
      assert.equal(mismatch.statusCode, 403);
      assert.equal(mismatch.json().error.code, 'livemode_mismatch');
    });
  });
}
