import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { issueKey } from '../../src/domain/api-keys/issue-key.js';
import { DAY } from '../../src/lib/clock.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

function assertError(
  res: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
  type: string,
  code: string,
) {
  assert.equal(res.statusCode, status);
  const body = res.json() as { error: Record<string, unknown> };
  assert.equal(body.error.type, type);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(body.error.request_id, res.headers['request-id']);
  return body.error;
}

for (const backend of BACKENDS) {
  describe(`authentication (${backend.name})`, () => {
    let t: TestApp;
    let customerId: string;
    before(async () => {
      t = await createTestApp(backend);
      customerId = (await t.call('POST', '/v1/customers', { body: { name: 'Ann' } })).json().id;
    });
    after(() => t.close());

    test('a missing Authorization header is 401 api_key_missing', async () => {
      assertError(await t.call('GET', '/v1/payments', { key: null }), 401, 'authentication_error', 'api_key_missing');
    });

    test('Basic and other schemes are 401 unsupported_auth_scheme', async () => {
      const basic = Buffer.from(`${t.account.keys.secret_test}:`).toString('base64');
      for (const value of [`Basic ${basic}`, `Token ${t.account.keys.secret_test}`, t.account.keys.secret_test]) {
        const res = await t.call('GET', '/v1/payments', { key: null, headers: { authorization: value } });
        assertError(res, 401, 'authentication_error', 'unsupported_auth_scheme');
        assert.ok(!res.body.includes(t.account.keys.secret_test), 'the error never echoes the key');
      }
    });

    test('JWTs are refused, signed or with alg none', async () => {
      const signed = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhY2N0In0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
      const unsigned = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhY2N0In0.';
      for (const jwt of [signed, unsigned]) {
        assertError(await t.call('GET', '/v1/payments', { key: jwt }), 401, 'authentication_error', 'jwt_not_accepted');
      }
    });

    test('a token that is not a key form is 401 api_key_malformed', async () => {
      for (const token of ['abc', 'sk_test_123456789012345678901234', 'service_prod_abcdefghijklmnopqrstuvwxyz012345', '']) {
        const res = await t.call('GET', '/v1/payments', { key: null, headers: { authorization: `Bearer ${token}` } });
        assertError(res, 401, 'authentication_error', token === '' ? 'api_key_malformed' : 'api_key_malformed');
      }
    });

    test('an unknown well-formed key is 401 api_key_invalid', async () => {
      const res = await t.call('GET', '/v1/payments', { key: `service_test_${'A'.repeat(32)}` });
      assertError(res, 401, 'authentication_error', 'api_key_invalid');
    });

    test('a key in the query string is refused even with a valid header', async () => {
      const key = t.account.keys.secret_test;
      for (const query of [`?api_key=${key}`, `?x=${encodeURIComponent(key)}`, `?limit=3&${key}`, `?k=pk_test_abcdefghijklmnop`]) {
        const res = await t.call('GET', `/v1/payments${query}`);
        assertError(res, 401, 'authentication_error', 'api_key_in_query_string');
      }
      assertError(await t.call('GET', `/v1/versions?key=${key}`, { key: null }), 401, 'authentication_error', 'api_key_in_query_string');
    });

    test('a revoked key is 401 api_key_revoked; an expired one 401 api_key_expired', async () => {
      const { record, secret } = await issueKey(t.db.store, t.clock, { accountId: t.account.account.id, livemode: false, kind: 'secret' });
      assert.equal((await t.call('GET', '/v1/payments', { key: secret })).statusCode, 200);
      assert.equal((await t.call('POST', `/v1/api_keys/${record.id}/revoke`)).statusCode, 200);
      assertError(await t.call('GET', '/v1/payments', { key: secret }), 401, 'authentication_error', 'api_key_revoked');

      const fresh = await issueKey(t.db.store, t.clock, { accountId: t.account.account.id, livemode: false, kind: 'secret' });
      t.clock.advance(90 * DAY - 1000);
      assert.equal((await t.call('GET', '/v1/payments', { key: fresh.secret })).statusCode, 200);
      t.clock.advance(2000);
      assertError(await t.call('GET', '/v1/payments', { key: fresh.secret }), 401, 'authentication_error', 'api_key_expired');
      t.clock.advance(-(90 * DAY + 1000));
    });

    test('a publishable key on a secret-only endpoint is 403 insufficient_scope', async () => {
      for (const [method, url] of [
        ['GET', '/v1/payments'],
        ['POST', '/v1/payments'],
        ['GET', '/v1/customers'],
        ['GET', '/v1/account'],
      ] as const) {
        const res = await t.call(method, url, { key: t.account.keys.publishable_test, body: method === 'POST' ? {} : undefined });
        assertError(res, 403, 'permission_error', 'insufficient_scope');
      }
    });

    test('a restricted key gets exactly what its permissions grant', async () => {
      const { secret } = await issueKey(t.db.store, t.clock, {
        accountId: t.account.account.id,
        livemode: false,
        kind: 'restricted',
        permissions: { payments: 'read', customers: 'write' },
      });
      assert.equal((await t.call('GET', '/v1/payments', { key: secret })).statusCode, 200);
      const write = await t.call('POST', '/v1/payments', { key: secret, body: { amount: 100, currency: 'USD', customer: customerId } });
      assertError(write, 403, 'permission_error', 'insufficient_scope');
      assert.equal((await t.call('POST', '/v1/customers', { key: secret, body: {} })).statusCode, 200, 'write implies read and write');
      assert.equal((await t.call('GET', '/v1/customers', { key: secret })).statusCode, 200);
      assertError(await t.call('GET', '/v1/events', { key: secret }), 403, 'permission_error', 'insufficient_scope');
      assertError(await t.call('GET', '/v1/account', { key: secret }), 403, 'permission_error', 'insufficient_scope');
    });

    test('test and live data are separate: the other mode is 403 livemode_mismatch', async () => {
      const live = await t.call('POST', '/v1/customers', { key: t.account.keys.secret_live, body: { name: 'Live' } });
      assert.equal(live.statusCode, 200);
      assert.equal(live.json().livemode, true);
      const liveId = live.json().id;
      const err = assertError(await t.call('GET', `/v1/customers/${liveId}`), 403, 'permission_error', 'livemode_mismatch');
      assert.equal(err.param, 'id');
      const list = await t.call('GET', '/v1/customers?limit=100');
      assert.ok(list.json().data.every((c: { livemode: boolean }) => c.livemode === false));
      const pay = await t.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer: liveId } });
      assert.equal(assertError(pay, 403, 'permission_error', 'livemode_mismatch').param, 'customer');
    });

    test('accounts are separate: another account’s id is 404 resource_missing', async () => {
      const other = await createAccount(t.db.store, t.clock, 'Other');
      const res = await t.call('GET', `/v1/customers/${customerId}`, { key: other.keys.secret_test });
      assert.equal(assertError(res, 404, 'invalid_request_error', 'resource_missing').param, 'id');
      const pay = await t.call('POST', '/v1/payments', {
        key: other.keys.secret_test,
        body: { amount: 100, currency: 'USD', customer: customerId },
      });
      assert.equal(assertError(pay, 400, 'invalid_request_error', 'resource_missing').param, 'customer');
    });

    test('a live key over plain HTTP from a non-loopback address is 403 https_required', async () => {
      const remote = '203.0.113.9';
      const res = await t.call('GET', '/v1/customers', { key: t.account.keys.secret_live, remoteAddress: remote });
      assertError(res, 403, 'permission_error', 'https_required');
      assert.equal((await t.call('GET', '/v1/customers', { key: t.account.keys.secret_test, remoteAddress: remote })).statusCode, 200);
      assert.equal((await t.call('GET', '/v1/customers', { key: t.account.keys.secret_live })).statusCode, 200, 'loopback is allowed');
      const spoofed = await t.call('GET', '/v1/customers', {
        key: t.account.keys.secret_live,
        remoteAddress: remote,
        headers: { 'x-forwarded-proto': 'https' },
      });
      assertError(spoofed, 403, 'permission_error', 'https_required');
    });

    test('health, versions and the OpenAPI document need no key', async () => {
      for (const url of ['/healthz', '/v1/versions', '/v1/openapi.json']) {
        assert.equal((await t.call('GET', url, { key: null })).statusCode, 200, url);
      }
    });
  });

  describe(`https behind a trusted proxy (${backend.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { trustProxy: ['127.0.0.1'] });
    });
    after(() => t.close());

    test('X-Forwarded-Proto: https from the trusted proxy lets a live key through', async () => {
      const res = await t.call('GET', '/v1/customers', {
        key: t.account.keys.secret_live,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
      });
      assert.equal(res.statusCode, 200);
      const plain = await t.call('GET', '/v1/customers', {
        key: t.account.keys.secret_live,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' },
      });
      assertError(plain, 403, 'permission_error', 'https_required');
    });
  });
}
