import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { HOUR } from '../../src/lib/clock.js';
import type { Store } from '../../src/store/store.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, idem, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`idempotency (${backend.name})`, () => {
    let t: TestApp;
    let customer: string;
    before(async () => {
      t = await createTestApp(backend);
      customer = (await t.call('POST', '/v1/customers', { body: { name: 'Ann' } })).json().id;
    });
    after(() => t.close());
    const countPayments = async () => (await t.call('GET', '/v1/payments?limit=100')).json().data.length as number;

    test('a POST without Idempotency-Key is 400 idempotency_key_missing and changes nothing', async () => {
      const before = await countPayments();
      const res = await t.call('POST', '/v1/payments', { idempotencyKey: null, body: { amount: 100, currency: 'USD', customer } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'idempotency_key_missing');
      assert.equal(res.json().error.param, 'Idempotency-Key');
      assert.equal(await countPayments(), before);
    });

    test('an empty, too long or non-ASCII key is 400 idempotency_key_invalid', async () => {
      for (const key of ['', 'x'.repeat(256), 'clé-ünïcode', 'tab\there']) {
        const res = await t.call('POST', '/v1/customers', { body: {}, headers: { 'idempotency-key': key } });
        assert.equal(res.statusCode, 400, JSON.stringify(key));
        assert.equal(res.json().error.code, 'idempotency_key_invalid');
      }
      const longest = await t.call('POST', '/v1/customers', { body: {}, headers: { 'idempotency-key': 'k'.repeat(255) } });
      assert.equal(longest.statusCode, 200);
    });

    test('a repeat replays the stored response byte for byte and creates nothing new', async () => {
      const key = idem();
      const body = { amount: 1500, currency: 'EUR', customer, metadata: { order: '42' } };
      const first = await t.call('POST', '/v1/payments', { idempotencyKey: key, body });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const before = await countPayments();
      const reordered = { metadata: { order: '42' }, customer, currency: 'EUR', amount: 1500 };
      const again = await t.call('POST', '/v1/payments', { idempotencyKey: key, body: reordered });
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      assert.equal(await countPayments(), before);
    });

    test('the same key with another body or endpoint is 400 idempotency_key_reused', async () => {
      const key = idem();
      await t.call('POST', '/v1/payments', { idempotencyKey: key, body: { amount: 100, currency: 'USD', customer } });
      const before = await countPayments();
      const otherBody = await t.call('POST', '/v1/payments', { idempotencyKey: key, body: { amount: 101, currency: 'USD', customer } });
      assert.equal(otherBody.statusCode, 400);
      assert.equal(otherBody.json().error.type, 'idempotency_error');
      assert.equal(otherBody.json().error.code, 'idempotency_key_reused');
      const otherPath = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: {} });
      assert.equal(otherPath.json().error.code, 'idempotency_key_reused');
      assert.equal(await countPayments(), before);
    });

    test('keys are scoped to account and mode', async () => {
      const key = idem();
      const test = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: { name: 'a' } });
      const live = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: { name: 'a' }, key: t.account.keys.secret_live });
      const other = await createAccount(t.db.store, t.clock, 'Other');
      const third = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: { name: 'a' }, key: other.keys.secret_test });
      assert.deepEqual([test.statusCode, live.statusCode, third.statusCode], [200, 200, 200]);
      assert.equal(new Set([test.json().id, live.json().id, third.json().id]).size, 3);
      assert.equal(live.headers['idempotent-replayed'], undefined);
    });

    test('an error raised by the endpoint is stored and replayed; a validation error is not', async () => {
      const key = idem();
      const missing = await t.call('POST', '/v1/payments', {
        idempotencyKey: key,
        body: { amount: 100, currency: 'USD', customer: 'cus_unknown' },
      });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().error.code, 'resource_missing');
      const replay = await t.call('POST', '/v1/payments', {
        idempotencyKey: key,
        body: { amount: 100, currency: 'USD', customer: 'cus_unknown' },
      });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, missing.body);

      const key2 = idem();
      const invalid = await t.call('POST', '/v1/payments', { idempotencyKey: key2, body: { amount: -1, currency: 'USD', customer } });
      assert.equal(invalid.json().error.code, 'parameter_invalid');
      const fixed = await t.call('POST', '/v1/payments', { idempotencyKey: key2, body: { amount: 1, currency: 'USD', customer } });
      assert.equal(fixed.statusCode, 200, 'the key was not used up by a request that never executed');
    });

    test('keys are purged after 24 hours, then usable again', async () => {
      const key = idem();
      const first = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: { name: 'p' } });
      t.clock.advance(24 * HOUR + 1000);
      const purged = await t.db.store.purgeIdempotencyKeys(t.clock.now() - 24 * HOUR);
      assert.ok(purged >= 1);
      const second = await t.call('POST', '/v1/customers', { idempotencyKey: key, body: { name: 'p' } });
      assert.equal(second.statusCode, 200);
      assert.notEqual(second.json().id, first.json().id);
      t.clock.advance(-(24 * HOUR + 1000));
    });

    test('truly concurrent duplicates over real HTTP execute once', async () => {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const key = idem();
      const before = await countPayments();
      const body = JSON.stringify({ amount: 777, currency: 'USD', customer });
      const responses = await Promise.all(
        Array.from({ length: 25 }, () =>
          fetch(`${url}/v1/payments`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${t.account.keys.secret_test}`,
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body,
          }).then(async (r) => ({
            status: r.status,
            replayed: r.headers.get('idempotent-replayed'),
            body: (await r.json()) as { id?: string; error?: { code: string } },
          })),
        ),
      );
      const executed = responses.filter((r) => r.status === 200 && r.replayed === null);
      assert.equal(executed.length, 1, JSON.stringify(responses.map((r) => [r.status, r.replayed])));
      for (const r of responses) {
        if (r.status === 409) assert.equal(r.body.error?.code, 'idempotency_key_in_use');
        else {
          assert.equal(r.status, 200);
          assert.equal(r.body.id, executed[0]?.body.id);
        }
      }
      assert.equal(await countPayments(), before + 1);
    });
  });

  describe(`idempotency and atomicity (${backend.name})`, () => {
    test('a create is one transaction: the key is claimed, the object written and the response stored together', async () => {
      const t = await createTestApp(backend);
      let transactions = 0;
      const counting = new Proxy(t.db.store, {
        get(target, prop, receiver) {
          if (prop === 'transaction') {
            return (fn: (tx: Store) => Promise<unknown>) => {
              transactions += 1;
              return target.transaction(fn);
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      });
      const app = await buildApp({ store: counting, clock: t.clock, logLevel: 'silent', audit: { enabled: false } });
      const headers = {
        authorization: `Bearer ${t.account.keys.secret_test}`,
        'content-type': 'application/json',
        'idempotency-key': 'one-tx',
      };
      const first = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"One"}' });
      assert.equal(first.statusCode, 200);
      assert.equal(transactions, 1, 'claim, write and stored response share one transaction');
      const replay = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"One"}' });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
      assert.equal(transactions, 1, 'a replay reads the stored response and writes nothing');
      const reused = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"Two"}' });
      assert.equal(reused.json().error.code, 'idempotency_key_reused');
      assert.equal(transactions, 1);
      await app.close();
      await t.close();
    });
    test('the stored result and the object commit together; a 5xx frees the key for a retry', async () => {
      const t = await createTestApp(backend);
      let failCompletion = true;
      const failing = new Proxy(t.db.store, {
        get(target, prop, receiver) {
          if (prop === 'transaction') {
            return (fn: (tx: Store) => Promise<unknown>) =>
              target.transaction((tx) =>
                fn(
                  new Proxy(tx, {
                    get(inner, p, r) {
                      if (p === 'completeIdempotencyKey' && failCompletion) return async () => Promise.reject(new Error('disk full'));
                      return Reflect.get(inner, p, r);
                    },
                  }),
                ),
              );
          }
          return Reflect.get(target, prop, receiver);
        },
      });
      const app = await buildApp({ store: failing, clock: t.clock, logLevel: 'silent', keyCacheTtlMs: 0 });
      const headers = {
        authorization: `Bearer ${t.account.keys.secret_test}`,
        'content-type': 'application/json',
        'idempotency-key': 'atomic-1',
      };
      const res = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"Atomic"}' });
      assert.equal(res.statusCode, 500);
      assert.equal(res.json().error.type, 'api_error');
      const list = await app.inject({ method: 'GET', url: '/v1/customers', headers: { authorization: headers.authorization } });
      assert.equal(list.json().data.length, 0, 'no customer without its idempotency record');
      failCompletion = false;
      const retry = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"Atomic"}' });
      assert.equal(retry.statusCode, 200);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      const replay = await app.inject({ method: 'POST', url: '/v1/customers', headers, payload: '{"name":"Atomic"}' });
      assert.equal(replay.body, retry.body);
      await app.close();
      await t.close();
    });
  });
}
