import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API_VERSIONS, LATEST_API_VERSION, PaymentsClient } from '../../../sdks/js/src/index.js';
import { LATEST_RELEASE, RELEASES } from '../../../src/domain/versions/releases.js';
import { BACKENDS } from '../../helpers/backends.js';
import { type SdkService, startService } from './helpers/service.js';

// The version modules in src/domain/versions/changes/ shape what the SDK receives.
for (const backend of BACKENDS) {
  describe(`SDK apiVersion (${backend.name})`, () => {
    let service: SdkService;
    let customerId: string;
    const client = (apiVersion?: string) =>
      new PaymentsClient(service.keys.secret_test, { baseUrl: service.url, ...(apiVersion ? { apiVersion } : {}) });
    before(async () => {
      service = await startService(backend);
      customerId = (await client().customers.create({ name: 'Versioned' })).id;
    });
    after(() => service.close());

    test('the SDK knows the releases the document lists', () => {
      assert.deepEqual(
        [...API_VERSIONS],
        RELEASES.map((r) => r.id),
      );
      assert.equal(LATEST_API_VERSION, LATEST_RELEASE);
    });

    test('newest release: new status names and the amount breakdown', async () => {
      const payment = await client(LATEST_RELEASE).payments.create({ amount: 500, currency: 'USD', customer: customerId });
      assert.equal(payment.status, 'requires_payment_method');
      assert.equal(payment.amount_capturable, 0);
      assert.equal(payment.amount_received, 0);
    });

    test('2026-03-01: new status names, no amount breakdown', async () => {
      const payment = await client('2026-03-01').payments.create({ amount: 500, currency: 'USD', customer: customerId });
      assert.equal(payment.status, 'requires_payment_method');
      assert.equal('amount_capturable' in payment, false);
      assert.equal('amount_received' in payment, false);
    });

    test('2025-06-01: the old status name, for creates, retrieves and lists', async () => {
      const old = client('2025-06-01');
      const payment = await old.payments.create({ amount: 500, currency: 'USD', customer: customerId });
      assert.equal(payment.status as string, 'requires_source');
      assert.equal('amount_capturable' in payment, false);
      assert.equal((await old.payments.retrieve(payment.id)).status as string, 'requires_source');
      const listed = await old.payments.list({ customer: customerId, limit: 100 });
      assert.ok(listed.data.every((p) => (p.status as string) === 'requires_source'));
      // The same object through the client's default version (the account's, the newest).
      assert.equal((await client().payments.retrieve(payment.id)).status, 'requires_payment_method');
    });

    test('a per-call apiVersion overrides the client option', async () => {
      const payment = await client(LATEST_RELEASE).payments.create({ amount: 500, currency: 'USD', customer: customerId });
      const older = await client(LATEST_RELEASE).payments.retrieve(payment.id, { apiVersion: '2025-06-01' });
      assert.equal(older.status as string, 'requires_source');
    });
  });
}
