import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { card, newCustomer } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`card data stays secret: ${backend.name}`, () => {
    let t: TestApp;
    let logs = '';
    before(async () => {
      const logStream = new Writable({
        write(chunk, _enc, done) {
          logs += chunk;
          done();
        },
      });
      t = await createTestApp(backend, { logStream });
    });
    after(async () => t.close());

    test('numbers and CVCs appear in no response, log line or event', async () => {
      const numbers = ['4000000000000002', '4242424242424242', '4000002500003155'];
      const bodies: string[] = [];
      const customer = await newCustomer(t);
      for (const number of numbers) {
        const token = await t.call('POST', '/v1/tokens', {
          key: t.account.keys.publishable_test,
          body: { card: card(number, { cvc: '987' }) },
        });
        bodies.push(token.body);
        const paid = await t.call('POST', '/v1/payments', {
          body: { amount: 100, currency: 'USD', customer, payment_method: token.json().id, confirm: true },
        });
        bodies.push(paid.body);
      }
      bodies.push((await t.call('POST', '/v1/tokens', { body: { card: card('4242424242424241', { cvc: '987' }) } })).body);
      bodies.push((await t.call('GET', '/v1/events?limit=100')).body);
      bodies.push((await t.call('GET', '/v1/payments?limit=100')).body);
      const everything = bodies.join('\n') + logs;
      for (const number of [...numbers, '4242424242424241']) assert.ok(!everything.includes(number), number);
      assert.ok(!everything.includes('"987"') && !/cvc"\s*:/.test(everything));
      assert.ok(logs.length > 0);
    });
  });
}
