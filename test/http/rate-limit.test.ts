import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`rate limits (${backend.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    const limitAccount = (perSecond: number, burst: number, accountId = t.account.account.id) =>
      t.db.store.updateAccount(accountId, { rateLimitPerSecond: perSecond, rateLimitBurst: burst });

    test('every authenticated response carries RateLimit-* headers; the default is 100/s with bursts of 200', async () => {
      const fresh = await createAccount(t.db.store, t.clock, 'Headers');
      const ok = await t.call('GET', '/v1/customers', { key: fresh.keys.secret_test });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['ratelimit-limit'], '200');
      assert.equal(ok.headers['ratelimit-remaining'], '199');
      assert.equal(ok.headers['ratelimit-reset'], '1');
      const invalid = await t.call('POST', '/v1/customers', { key: fresh.keys.secret_test, body: { nope: 1 } });
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.headers['ratelimit-remaining'], '198');
    });

    test('past the burst: 429 rate_limit_error with Retry-After and Service-Should-Retry; refills with time', async () => {
      await limitAccount(2, 3);
      for (let i = 0; i < 3; i++) assert.equal((await t.call('GET', '/v1/customers')).statusCode, 200);
      const refused = await t.call('GET', '/v1/customers');
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error.type, 'rate_limit_error');
      assert.equal(refused.json().error.code, 'rate_limit_exceeded');
      assert.match(refused.json().error.request_id, /^req_/);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.headers['service-should-retry'], 'true');
      assert.equal(refused.headers['ratelimit-remaining'], '0');
      assert.equal(refused.headers['ratelimit-limit'], '3');
      assert.equal(refused.headers['ratelimit-reset'], '2');
      t.clock.advance(500);
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 200, 'one token after 500 ms at 2/s');
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 429);
      t.clock.advance(10_000);
    });

    test('test and live mode have separate buckets, and so do accounts', async () => {
      await limitAccount(1, 1);
      t.clock.advance(10_000);
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 200);
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 429);
      assert.equal((await t.call('GET', '/v1/customers', { key: t.account.keys.secret_live })).statusCode, 200);
      const other = await createAccount(t.db.store, t.clock, 'Other');
      assert.equal((await t.call('GET', '/v1/customers', { key: other.keys.secret_test })).statusCode, 200);
      t.clock.advance(10_000);
    });

    test('a 429 is not stored against the Idempotency-Key: the retry executes', async () => {
      await limitAccount(1, 1);
      t.clock.advance(10_000);
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 200);
      const headers = { 'idempotency-key': `rl-${Date.now()}` };
      const refused = await t.call('POST', '/v1/customers', { body: { name: 'Later' }, headers });
      assert.equal(refused.statusCode, 429);
      t.clock.advance(1000);
      const retried = await t.call('POST', '/v1/customers', { body: { name: 'Later' }, headers });
      assert.equal(retried.statusCode, 200);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      assert.equal(retried.json().name, 'Later');
      t.clock.advance(10_000);
    });

    test('routes without a key are not limited per account and carry no RateLimit headers', async () => {
      const health = await t.call('GET', '/healthz', { key: null });
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers['ratelimit-limit'], undefined);
      assert.equal(health.json().rate_limiter, 'ok: per-instance limits (no REDIS_URL)');
    });
  });
}

describe('rate limits turned off', () => {
  const backend = BACKENDS[0] as (typeof BACKENDS)[number];
  test('RATE_LIMIT_ENABLED=false: no headers, no 429, /healthz says disabled', async () => {
    const t = await createTestApp(backend, { rateLimit: { enabled: false, defaults: { perSecond: 1, burst: 1 } } });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await t.call('GET', '/v1/customers');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
      assert.equal((await t.call('GET', '/healthz', { key: null })).json().rate_limiter, 'disabled');
    } finally {
      await t.close();
    }
  });
});
