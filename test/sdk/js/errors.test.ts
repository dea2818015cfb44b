import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  APIError,
  AuthenticationError,
  CardError,
  ConfigurationError,
  ERROR_CLASSES,
  errorFromResponse,
  IdempotencyError,
  InvalidRequestError,
  PaymentsClient,
  PaymentsError,
  PermissionError,
  RateLimitError,
} from '../../../sdks/js/src/index.js';
import { ERROR_CODES, ERROR_TYPES } from '../../../src/errors/registry.js';
import { BACKENDS } from '../../helpers/backends.js';
import { scriptedServer } from './helpers/proxies.js';
import { type SdkService, startService } from './helpers/service.js';

/** Asserts the call fails with exactly this class, status and code, and returns the error. */
async function failure<E extends PaymentsError>(
  call: Promise<unknown>,
  ErrorClass: new (...args: never[]) => E,
  statusCode: number,
  code: string,
): Promise<E> {
  const err = await call.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ErrorClass, `expected ${ErrorClass.name}, got ${String(err)}`);
  assert.ok(err instanceof PaymentsError);
  assert.equal(err.constructor, ErrorClass);
  assert.equal(err.statusCode, statusCode);
  assert.equal(err.code, code);
  assert.ok(err.message.length > 0);
  return err;
}

for (const backend of BACKENDS) {
  describe(`SDK errors from the service (${backend.name})`, () => {
    let service: SdkService;
    let client: PaymentsClient;
    let customerId: string;
    before(async () => {
      service = await startService(backend);
      client = new PaymentsClient(service.keys.secret_test, { baseUrl: service.url, maxNetworkRetries: 0 });
      customerId = (await client.customers.create({ name: 'Errors' })).id;
    });
    after(() => service.close());

    test('400 → InvalidRequestError with param and requestId', async () => {
      const err = await failure(
        client.payments.create({ amount: 2000, currency: 'usd', customer: customerId }),
        InvalidRequestError,
        400,
        'parameter_invalid',
      );
      assert.equal(err.param, 'currency');
      assert.equal(err.type, 'invalid_request_error');
      assert.match(err.requestId ?? '', /^req_/);
      assert.equal(err.headers['request-id'], err.requestId);
      const body = await failure(
        client.payments.create({ amount: 2000, currency: 'USD', customer: 'cus_missing' }),
        InvalidRequestError,
        400,
        'resource_missing',
      );
      assert.equal(body.param, 'customer');
    });

    test('404 → InvalidRequestError resource_missing', async () => {
      const err = await failure(client.payments.retrieve('pay_nothere'), InvalidRequestError, 404, 'resource_missing');
      assert.equal(err.param, 'id');
    });

    test('400 idempotency_key_reused → IdempotencyError', async () => {
      await client.customers.create({ name: 'A' }, { idempotencyKey: 'reused-key' });
      await failure(
        client.customers.create({ name: 'B' }, { idempotencyKey: 'reused-key' }),
        IdempotencyError,
        400,
        'idempotency_key_reused',
      );
    });

    test('401 → AuthenticationError, without the key in the message', async () => {
      const key = `service_test_${'x'.repeat(40)}`;
      const stranger = new PaymentsClient(key, { baseUrl: service.url, maxNetworkRetries: 0 });
      const err = await failure(stranger.account.retrieve(), AuthenticationError, 401, 'api_key_invalid');
      assert.ok(!err.message.includes(key));
    });

    test('403 → PermissionError for a restricted key without the permission', async () => {
      const readOnly = new PaymentsClient(await service.restrictedKey({ payments: 'read' }), {
        baseUrl: service.url,
        maxNetworkRetries: 0,
      });
      assert.equal((await readOnly.payments.list({ limit: 1 })).object, 'list');
      await failure(
        readOnly.payments.create({ amount: 100, currency: 'USD', customer: customerId }),
        PermissionError,
        403,
        'insufficient_scope',
      );
    });

    test('400 api_version_invalid → InvalidRequestError naming Service-Version', async () => {
      const err = await failure(client.account.retrieve({ apiVersion: '2001-01-01' }), InvalidRequestError, 400, 'api_version_invalid');
      assert.equal(err.param, 'Service-Version');
    });
  });
}

describe('SDK errors for statuses the service sends rarely (scripted replies)', () => {
  const cases = [
    { status: 402, type: 'card_error', code: 'card_declined', ErrorClass: CardError, extra: { decline_code: 'insufficient_funds' } },
    { status: 409, type: 'idempotency_error', code: 'idempotency_key_in_use', ErrorClass: IdempotencyError },
    { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', ErrorClass: RateLimitError },
    { status: 500, type: 'api_error', code: 'internal_error', ErrorClass: APIError },
    { status: 503, type: 'api_error', code: 'service_unavailable', ErrorClass: APIError },
  ] as const;
  for (const c of cases) {
    test(`${c.status} → ${c.ErrorClass.name}`, async () => {
      const stub = await scriptedServer([
        {
          status: c.status,
          body: { error: { type: c.type, code: c.code, message: 'Scripted.', request_id: 'req_1', ...('extra' in c ? c.extra : {}) } },
        },
      ]);
      try {
        const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url, maxNetworkRetries: 0 });
        const err = await failure(client.account.retrieve(), c.ErrorClass, c.status, c.code);
        assert.equal(err.requestId, 'req_1');
        if (c.status === 402) assert.equal(err.declineCode, 'insufficient_funds');
      } finally {
        await stub.close();
      }
    });
  }

  test('a reply without an error body still maps by status', async () => {
    const stub = await scriptedServer([{ status: 502, body: 'Bad gateway', headers: { 'content-type': 'text/plain' } }]);
    try {
      const client = new PaymentsClient('service_test_stub', { baseUrl: stub.url, maxNetworkRetries: 0 });
      await failure(client.account.retrieve(), APIError, 502, undefined as unknown as string);
    } finally {
      await stub.close();
    }
  });
});

describe('SDK error classes agree with the registry', () => {
  test('one class per error type, and every code maps to its type’s class', () => {
    assert.deepEqual(Object.keys(ERROR_CLASSES).sort(), [...ERROR_TYPES].sort());
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      const err = errorFromResponse(spec.status, { error: { type: spec.type, code, message: 'm', request_id: 'req_1' } }, {});
      assert.equal(err.constructor, ERROR_CLASSES[spec.type], code);
      const byStatus = errorFromResponse(spec.status, undefined, {});
      if (typesAnsweringWith(spec.status).size === 1) assert.equal(byStatus.constructor, ERROR_CLASSES[spec.type], `status ${spec.status}`);
    }
  });
});

function typesAnsweringWith(status: number): Set<string> {
  return new Set(
    Object.values(ERROR_CODES)
      .filter((s) => s.status === status)
      .map((s) => s.type),
  );
}

describe('SDK client construction', () => {
  test('refuses a publishable key with a clear error that does not echo it', () => {
    for (const key of ['pk_test_abcdefghijklmnopqrstuvwxyz', 'pk_live_abcdefghijklmnopqrstuvwxyz']) {
      assert.throws(
        () => new PaymentsClient(key),
        (err: unknown) => {
          assert.ok(err instanceof ConfigurationError);
          assert.equal(err.code, 'publishable_key_not_allowed');
          assert.match(err.message, /publishable key/);
          assert.match(err.message, /secret \(service_\.\.\.\) or restricted \(rk_\.\.\.\)/);
          assert.ok(!err.message.includes(key));
          return true;
        },
      );
    }
  });

  test('refuses a missing key; takes secret and restricted keys', () => {
    assert.throws(() => new PaymentsClient(''), ConfigurationError);
    assert.throws(() => new PaymentsClient(undefined as unknown as string), ConfigurationError);
    assert.ok(new PaymentsClient('service_test_x'));
    assert.ok(new PaymentsClient('rk_test_x'));
  });
});
