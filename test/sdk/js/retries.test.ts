import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { APIError, ConnectionError, IdempotencyError, PaymentsClient, RateLimitError } from '../../../sdks/js/src/index.js';
import { BACKENDS } from '../../helpers/backends.js';
import { delayingProxy, dropFirstResponseProxy, scriptedServer } from './helpers/proxies.js';
import { type SdkService, startService } from './helpers/service.js';

for (const backend of BACKENDS) {
  describe(`SDK retries, idempotency and timeouts (${backend.name})`, () => {
    let service: SdkService;
    before(async () => {
      service = await startService(backend);
    });
    after(() => service.close());

    test('a dropped connection is retried with the same Idempotency-Key and creates one payment', async () => {
      const direct = new PaymentsClient(service.keys.secret_test, { baseUrl: service.url });
      const customer = await direct.customers.create({ name: 'Dropped' });
      const proxy = await dropFirstResponseProxy(service.url);
      try {
        const client = new PaymentsClient(service.keys.secret_test, { baseUrl: proxy.url, maxNetworkRetries: 2 });
        const payment = await client.payments.create({ amount: 1500, currency: 'EUR', customer: customer.id });
        assert.ok(proxy.connections() >= 2, 'the first connection was dropped and a second one made');
        assert.equal(proxy.idempotencyKeys.length, 2);
        assert.equal(proxy.idempotencyKeys[0], proxy.idempotencyKeys[1], 'the retry reuses the key');
        const payments = await direct.payments.list({ customer: customer.id });
        assert.deepEqual(
          payments.data.map((p) => p.id),
          [payment.id],
          'one payment exists: the retry was replayed, not run again',
        );
      } finally {
        await proxy.close();
      }
    });

    test('without retries the dropped connection is a ConnectionError', async () => {
      const proxy = await dropFirstResponseProxy(service.url);
      try {
        const client = new PaymentsClient(service.keys.secret_test, { baseUrl: proxy.url, maxNetworkRetries: 0 });
        await assert.rejects(client.customers.create({ name: 'x' }), (err: unknown) => {
          assert.ok(err instanceof ConnectionError);
          assert.equal(err.code, 'connection_failed');
          assert.equal(err.statusCode, undefined);
          return true;
        });
      } finally {
        await proxy.close();
      }
    });

    test('a caller-given idempotency key is sent as is', async () => {
      const proxy = await dropFirstResponseProxy(service.url);
      try {
        const client = new PaymentsClient(service.keys.secret_test, { baseUrl: proxy.url });
        await client.customers.create({ name: 'Keyed' }, { idempotencyKey: 'order-6735-customer' });
        assert.deepEqual(proxy.idempotencyKeys, ['order-6735-customer', 'order-6735-customer']);
      } finally {
        await proxy.close();
      }
    });

    test('a reply slower than timeout raises a ConnectionError (timeout), then retries with the same key', async () => {
      const proxy = await delayingProxy(service.url, 1_000);
      try {
        const client = new PaymentsClient(service.keys.secret_test, { baseUrl: proxy.url, timeout: 150, maxNetworkRetries: 0 });
        const started = Date.now();
        await assert.rejects(client.account.retrieve(), (err: unknown) => {
          assert.ok(err instanceof ConnectionError);
          assert.equal(err.code, 'timeout');
          assert.match(err.message, /timed out after 150 ms/);
          return true;
        });
        assert.ok(Date.now() - started < 900, 'gave up at the timeout, not when the reply came');

        const retrying = new PaymentsClient(service.keys.secret_test, { baseUrl: proxy.url, timeout: 150, maxNetworkRetries: 1 });
        await assert.rejects(retrying.customers.create({ name: 'Slow' }), ConnectionError);
        assert.equal(proxy.idempotencyKeys.length, 2);
        assert.equal(proxy.idempotencyKeys[0], proxy.idempotencyKeys[1]);
      } finally {
        await proxy.close();
      }
    });

    test('an unreachable service is a ConnectionError after the retries', async () => {
      const stub = await scriptedServer([{ status: 200 }]);
      const url = stub.url;
      await stub.close();
      const client = new PaymentsClient(service.keys.secret_test, { baseUrl: url, maxNetworkRetries: 1 });
      await assert.rejects(client.account.retrieve(), (err: unknown) => err instanceof ConnectionError && err.code === 'connection_failed');
    });
  });
}

const error = (type: string, code: string, status: number) => ({
  status,
  body: { error: { type, code, message: `${code} happened.`, request_id: 'req_stub' } },
});
const ok = { status: 200, body: { id: 'acct_1', object: 'account', name: 'n', default_version: '2026-09-01', created: 1 } };

describe('SDK retry policy (scripted replies)', () => {
  test('429 is retried after Retry-After seconds, with the same Idempotency-Key', async () => {
    const stub = await scriptedServer([{ ...error('rate_limit_error', 'rate_limit_exceeded', 429), headers: { 'retry-after': '1' } }, ok]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url });
      const started = Date.now();
      const account = await client.account.update({ name: 'n' });
      assert.equal(account.id, 'acct_1');
      assert.ok(Date.now() - started >= 1_000, 'waited for Retry-After');
      assert.equal(stub.requests.length, 2);
      assert.equal(stub.idempotencyKeys[0], stub.idempotencyKeys[1]);
    } finally {
      await stub.close();
    }
  });

  test('409 in progress and 5xx are retried; 4xx are not', async () => {
    const stub = await scriptedServer([
      error('idempotency_error', 'idempotency_key_in_use', 409),
      error('api_error', 'internal_error', 500),
      ok,
    ]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url });
      assert.equal((await client.account.retrieve()).id, 'acct_1');
      assert.equal(stub.requests.length, 3);
    } finally {
      await stub.close();
    }
    const bad = await scriptedServer([error('invalid_request_error', 'parameter_missing', 400), ok]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: bad.url });
      await assert.rejects(client.account.retrieve());
      assert.equal(bad.requests.length, 1);
    } finally {
      await bad.close();
    }
  });

  test('after maxNetworkRetries the last error is thrown', async () => {
    const stub = await scriptedServer([error('api_error', 'service_unavailable', 503)]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url, maxNetworkRetries: 1 });
      await assert.rejects(client.account.retrieve(), (err: unknown) => err instanceof APIError && err.statusCode === 503);
      assert.equal(stub.requests.length, 2);
      const once = new PaymentsClient('service_test_stub', { baseUrl: stub.url, maxNetworkRetries: 0 });
      await assert.rejects(once.account.retrieve(), APIError);
      assert.equal(stub.requests.length, 3);
    } finally {
      await stub.close();
    }
  });

  test('headers: key, version, User-Agent with the SDK version, idempotency key only on POST', async () => {
    const stub = await scriptedServer([ok]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url, apiVersion: '2026-03-01' });
      await client.account.retrieve();
      await client.account.update({ name: 'n' }, { apiVersion: '2025-06-01' });
      const [get, post] = stub.requests;
      assert.equal(get?.authorization, 'Bearer service_test_stub');
      assert.equal(get?.['service-version'], '2026-03-01');
      assert.match(String(get?.['user-agent']), /^payments-sdk-js\/1\.0\.0$/);
      assert.equal(get?.['idempotency-key'], undefined);
      assert.equal(post?.['service-version'], '2025-06-01');
      assert.equal(post?.['content-type'], 'application/json');
      assert.match(String(post?.['idempotency-key']), /^[0-9a-f-]{36}$/);
    } finally {
      await stub.close();
    }
  });

  test('RateLimitError and IdempotencyError reach the caller when retries are off', async () => {
    const stub = await scriptedServer([
      { ...error('rate_limit_error', 'rate_limit_exceeded', 429), headers: { 'retry-after': '3' } },
      error('idempotency_error', 'idempotency_key_in_use', 409),
    ]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url, maxNetworkRetries: 0 });
      await assert.rejects(client.account.retrieve(), (err: unknown) => {
        assert.ok(err instanceof RateLimitError);
        assert.equal(err.headers['retry-after'], '3');
        return true;
      });
      await assert.rejects(client.account.retrieve(), IdempotencyError);
    } finally {
      await stub.close();
    }
  });
});
