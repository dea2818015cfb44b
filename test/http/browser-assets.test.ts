import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { browserBundles } from '../../scripts/build-browser.js';
import { BACKENDS } from '../helpers/backends.js';
import { newCustomer } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('browser assets', () => {
  test('packages/browser/dist is what `npm run build:browser` produces', async () => {
    for (const [name, text] of await browserBundles()) {
      assert.equal(
        readFileSync(new URL(`../../packages/browser/dist/${name}`, import.meta.url), 'utf8'),
        text,
        `${name}: run npm run build:browser`,
      );
    }
  });
});

for (const backend of BACKENDS) {
  describe(`browser pages and assets: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    test('/js/ serves the library (ES module and script-tag build) to any origin; unknown files are 404', async () => {
      for (const file of ['payments.js', 'payments.global.js']) {
        const res = await t.call('GET', `/js/${file}`, { key: null });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /text\/javascript/);
        assert.equal(res.headers['access-control-allow-origin'], '*');
      }
      assert.match((await t.call('GET', '/js/payments.js', { key: null })).body, /export\s*\{/);
      assert.equal((await t.call('GET', '/js/../package.json', { key: null })).statusCode, 404);
      assert.equal((await t.call('GET', '/js/secrets.js', { key: null })).statusCode, 404);
    });

    test('the hosted page shows the amount, never embeds inline script, and refuses framing', async () => {
      const customer = await newCustomer(t);
      const s = (
        await t.call('POST', '/v1/checkout/sessions', {
          body: {
            amount: 123456,
            currency: 'JPY',
            customer,
            description: '<b>Tea</b>',
            success_url: 'http://a.test/',
            cancel_url: 'http://a.test/',
          },
        })
      ).json();
      const res = await t.call('GET', `/checkout/${s.id}`, { key: null });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /¥123,456/);
      assert.match(res.body, /&#60;b&#62;Tea/);
      assert.doesNotMatch(res.body, /<script>|style=/);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal((await t.call('GET', '/checkout/cs_nope', { key: null })).statusCode, 404);
    });

    test('the hosted page pays only with its own client secret', async () => {
      const customer = await newCustomer(t);
      const s = (
        await t.call('POST', '/v1/checkout/sessions', {
          body: { amount: 500, currency: 'USD', customer, success_url: 'http://a.test/', cancel_url: 'http://a.test/' },
        })
      ).json();
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
      const wrong = await t.call('POST', `/checkout/${s.id}/pay`, { key: null, body: { client_secret: `${s.id}_secret_x`, card } });
      assert.equal(wrong.statusCode, 404);
      const paid = await t.call('POST', `/checkout/${s.id}/pay`, { key: null, body: { client_secret: s.client_secret, card } });
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().status, 'complete');
      assert.doesNotMatch(paid.body, /4242424242424242/);
    });
  });
}
