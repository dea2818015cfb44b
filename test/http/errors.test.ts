import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, idem, type TestApp } from '../helpers/test-app.js';

type Res = { statusCode: number; body: string; headers: Record<string, unknown>; json(): { error: Record<string, string> } };

function assertContractError(res: Res, status: number, code: string): Record<string, string> {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.match(String(res.headers['request-id']), /^req_/);
  const { error } = res.json();
  assert.equal(error.code, code);
  assert.equal(error.request_id, res.headers['request-id']);
  assert.ok(!/\bat .*\(.*:\d+:\d+\)|node_modules|SELECT |INSERT /.test(res.body), 'no stack trace or SQL');
  return error;
}

for (const backend of BACKENDS) {
  describe(`errors in the contract's shape (${backend.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    test('an unknown route is 404 resource_missing, with or without a key', async () => {
      for (const key of [undefined, null]) {
        const res = await t.call('GET', '/v1/nothing-here', { key });
        assert.equal(assertContractError(res, 404, 'resource_missing').type, 'invalid_request_error');
      }
      assertContractError(await t.call('GET', '/', { key: null }), 404, 'resource_missing');
    });

    test('a known path with another method is 405 with Allow', async () => {
      const res = await t.call('PUT', '/v1/payments', { body: {} });
      assertContractError(res, 405, 'method_not_allowed');
      assert.match(String(res.headers.allow), /GET/);
      assert.match(String(res.headers.allow), /POST/);
      assertContractError(await t.call('PATCH', '/v1/customers/cus_x', { body: {} }), 405, 'method_not_allowed');
    });

    test('a write without Content-Type: application/json is 415', async () => {
      const text = await t.app.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: { authorization: `Bearer ${t.account.keys.secret_test}`, 'idempotency-key': idem(), 'content-type': 'text/plain' },
        payload: '{}',
      });
      assertContractError(text, 415, 'content_type_unsupported');
      const none = await t.app.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: { authorization: `Bearer ${t.account.keys.secret_test}`, 'idempotency-key': idem() },
      });
      assertContractError(none, 415, 'content_type_unsupported');
      const form = await t.call('POST', '/v1/customers', {
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertContractError(form, 415, 'content_type_unsupported');
      const charset = await t.call('POST', '/v1/customers', { body: {}, headers: { 'content-type': 'application/json; charset=utf-8' } });
      assert.equal(charset.statusCode, 200, 'a charset parameter is fine');
    });

    test('a body that is not JSON, or not an object, is 400', async () => {
      assertContractError(await t.call('POST', '/v1/customers', { body: '{"name": ' }), 400, 'body_invalid_json');
      assertContractError(await t.call('POST', '/v1/customers', { body: '[1,2]' }), 400, 'body_not_object');
      assertContractError(await t.call('POST', '/v1/customers', { body: '"text"' }), 400, 'body_not_object');
      assertContractError(await t.call('POST', '/v1/customers', { body: 'null' }), 400, 'body_not_object');
      assertContractError(await t.call('POST', '/v1/customers', { body: '{"__proto__": {"x": 1}}' }), 400, 'body_invalid_json');
    });

    test('an empty JSON body counts as {}', async () => {
      assert.equal((await t.call('POST', '/v1/customers', { body: '' })).statusCode, 200);
    });

    test('a body over 64 KiB is 413 and creates nothing', async () => {
      const before = (await t.call('GET', '/v1/customers?limit=100')).json().data.length;
      const res = await t.call('POST', '/v1/customers', { body: { description: 'x'.repeat(70 * 1024) } });
      assertContractError(res, 413, 'body_too_large');
      assert.equal((await t.call('GET', '/v1/customers?limit=100')).json().data.length, before);
    });

    test('every response carries a Request-Id, successes included', async () => {
      const ok = await t.call('GET', '/v1/customers');
      assert.match(String(ok.headers['request-id']), /^req_[0-9a-z]{33}$/);
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add(String((await t.call('GET', '/healthz', { key: null })).headers['request-id']));
      assert.equal(ids.size, 5);
    });
  });

  describe(`server faults (${backend.name})`, () => {
    test('a database failure is 500 api_error that discloses nothing', async () => {
      const t = await createTestApp(backend);
      const key = t.account.keys.secret_test;
      await t.call('GET', '/v1/customers'); // warm the key cache path
      await t.db.store.close();
      const res = await t.app.inject({ method: 'GET', url: '/v1/customers', headers: { authorization: `Bearer ${key}` } });
      assert.ok(res.statusCode === 500 || res.statusCode === 503, String(res.statusCode));
      const { error } = res.json();
      assert.equal(error.type, 'api_error');
      assert.ok(!/sqlite|postgres|SQL|database|stack/i.test(error.message), error.message);
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(health.statusCode, 503);
      // Closing drains the audit queue into a database that is gone: that failure is expected here.
      await t.app.close().catch(() => {});
      await t.db.destroy();
    });
  });
}
