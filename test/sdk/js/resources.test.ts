import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Customer, InvalidRequestError, PaymentsClient } from '../../../sdks/js/src/index.js';
import { BACKENDS } from '../../helpers/backends.js';
import { type SdkService, startService } from './helpers/service.js';

// Every generated method, over real HTTP against the real service.
for (const backend of BACKENDS) {
  describe(`SDK resources against the service (${backend.name})`, () => {
    let service: SdkService;
    let client: PaymentsClient;
    before(async () => {
      service = await startService(backend);
      client = new PaymentsClient(service.keys.secret_test, { baseUrl: service.url });
    });
    after(() => service.close());

    test('customers: create, retrieve, update, list, delete', async () => {
      const created = await client.customers.create({ email: 'jenny@example.com', name: 'Jenny Rosen', metadata: { order_id: '6735' } });
      assert.equal(created.object, 'customer');
      assert.match(created.id, /^cus_/);
      assert.deepEqual(created.metadata, { order_id: '6735' });

      const fetched = await client.customers.retrieve(created.id);
      assert.deepEqual(fetched, created);

      const updated = await client.customers.update(created.id, { name: 'Jenny R.', metadata: { order_id: null } });
      assert.equal(updated.name, 'Jenny R.');
      assert.deepEqual(updated.metadata, {});

      const page = await client.customers.list({ limit: 5 });
      assert.equal(page.object, 'list');
      assert.ok(page.data.some((c: Customer) => c.id === created.id));

      const deleted = await client.customers.delete(created.id);
      assert.deepEqual(deleted, { id: created.id, object: 'customer', deleted: true });
      await assert.rejects(client.customers.retrieve(created.id), (err: unknown) => {
        assert.ok(err instanceof InvalidRequestError);
        assert.equal(err.statusCode, 404);
        assert.equal(err.code, 'resource_missing');
        return true;
      });
    });

    test('payments: create, retrieve, update, list with filters', async () => {
      const customer = await client.customers.create({ name: 'Payer' });
      const payment = await client.payments.create({ amount: 2000, currency: 'USD', customer: customer.id, description: 'Order 6735' });
      assert.equal(payment.object, 'payment');
      assert.equal(payment.amount, 2000);
      assert.equal(payment.status, 'requires_payment_method');
      assert.equal(payment.capture_method, 'automatic');

      assert.deepEqual(await client.payments.retrieve(payment.id), payment);
      const updated = await client.payments.update(payment.id, { description: 'Order 6736', metadata: { k: 'v' } });
      assert.equal(updated.description, 'Order 6736');
      assert.deepEqual(updated.metadata, { k: 'v' });

      const byCustomer = await client.payments.list({ customer: customer.id, status: 'requires_payment_method' });
      assert.deepEqual(
        byCustomer.data.map((p) => p.id),
        [payment.id],
      );
      const byCreated = await client.payments.list({ customer: customer.id, created: { gte: payment.created, lte: payment.created } });
      assert.deepEqual(
        byCreated.data.map((p) => p.id),
        [payment.id],
      );
      const none = await client.payments.list({ customer: customer.id, created: { gt: payment.created } });
      assert.deepEqual(none.data, []);
    });

    test('events: list and retrieve', async () => {
      const customer = await client.customers.create({ name: 'Evented' });
      const page = await client.events.list({ type: 'customer.created', limit: 3 });
      const event = page.data.find((e) => (e.data.object as { id?: string }).id === customer.id);
      assert.ok(event, 'the customer.created event is listed');
      assert.deepEqual(await client.events.retrieve(event.id), event);
    });

    test('account: retrieve and update', async () => {
      const account = await client.account.retrieve();
      assert.equal(account.object, 'account');
      const renamed = await client.account.update({ name: 'Renamed by the SDK' });
      assert.equal(renamed.name, 'Renamed by the SDK');
      assert.equal(renamed.id, account.id);
    });

    test('versions.list and openapi.retrieve', async () => {
      const versions = await client.versions.list();
      assert.equal(versions.object, 'list');
      assert.ok(versions.data.some((v) => v.id === versions.latest));
      const document = (await client.openapi.retrieve()) as { openapi?: string };
      assert.equal(document.openapi, '3.1.0');
    });
  });
}
