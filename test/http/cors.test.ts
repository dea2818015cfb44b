import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { card } from '../helpers/payments.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ORIGIN = 'http://shop.example';

for (const backend of BACKENDS) {
  describe(`CORS and browser safety: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    const preflight = (url: string, method: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
      });

    test('preflights are allowed for publishable-key routes only', async () => {
      for (const [url, method] of [
        ['/v1/tokens', 'POST'],
        ['/v1/checkout/config', 'GET'],
        ['/v1/checkout/sessions/cs_x', 'GET'],
        ['/v1/checkout/sessions/cs_x/confirm', 'POST'],
        ['/v1/payments/pay_x/confirm', 'POST'],
      ] as const) {
        const res = await preflight(url, method);
        assert.equal(res.statusCode, 204, `${method} ${url}`);
        assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
        assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
        assert.match(String(res.headers['access-control-allow-headers']), /Idempotency-Key/);
      }
      for (const [url, method] of [
        ['/v1/payments', 'POST'],
        ['/v1/payments', 'GET'],
        ['/v1/checkout/sessions', 'POST'],
        ['/v1/api_keys', 'GET'],
      ] as const) {
        const res = await preflight(url, method);
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(res.headers['access-control-allow-origin'], undefined);
      }
    });

    test('a publishable key from a browser gets Access-Control-Allow-Origin', async () => {
      const res = await t.call('POST', '/v1/tokens', {
        key: t.account.keys.publishable_test,
        headers: { origin: ORIGIN },
        body: { card: card() },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(res.headers['access-control-expose-headers']), /Request-Id/);
    });

    test('a secret key with an Origin is refused with secret_key_in_browser and audited as a use', async () => {
      const res = await t.call('GET', '/v1/payments', { headers: { origin: ORIGIN } });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.type, 'permission_error');
      assert.equal(res.json().error.code, 'secret_key_in_browser');
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      await t.app.auditBatcher?.flush();
      const audit = (await t.call('GET', '/v1/audit_events?type=api_key.used&limit=100')).json();
      const refused = audit.data.find((e: { request: { id: string } }) => e.request.id === res.headers['request-id']);
      assert.ok(refused, 'the refused request is in the audit log');
      assert.equal(refused.request.status, 403);
    });

    test('a restricted key with an Origin is refused too, even on a publishable route', async () => {
      const created = await t.call('POST', '/v1/api_keys', { body: { kind: 'restricted', permissions: { tokens: 'write' } } });
      const rk = created.json().secret;
      const res = await t.call('POST', '/v1/tokens', { key: rk, headers: { origin: ORIGIN }, body: { card: card() } });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'secret_key_in_browser');
      const server = await t.call('POST', '/v1/tokens', { key: rk, body: { card: card() } });
      assert.equal(server.statusCode, 200, 'without Origin (a server) the same key works');
    });
  });
}
