import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Customer, PaymentsClient } from '../../../sdks/js/src/index.js';
import { BACKENDS } from '../../helpers/backends.js';
import { type SdkService, startService } from './helpers/service.js';

for (const backend of BACKENDS) {
  describe(`SDK auto-pagination (${backend.name})`, () => {
    let service: SdkService;
    let client: PaymentsClient;
    let created: Customer[];
    before(async () => {
      service = await startService(backend);
      client = new PaymentsClient(service.keys.secret_test, { baseUrl: service.url });
      created = [];
      for (let i = 0; i < 23; i++) created.push(await client.customers.create({ name: `Customer ${i}` }));
    });
    after(() => service.close());
    const newestFirst = () => created.map((c) => c.id).reverse();

    test('await gives one page', async () => {
      const page = await client.customers.list({ limit: 10 });
      assert.equal(page.data.length, 10);
      assert.equal(page.has_more, true);
      assert.deepEqual(
        page.data.map((c) => c.id),
        newestFirst().slice(0, 10),
      );
    });

    test('for await walks every page with starting_after', async () => {
      const seen: string[] = [];
      for await (const customer of client.customers.list({ limit: 10 })) seen.push(customer.id);
      assert.deepEqual(seen, newestFirst());
    });

    test('autoPagingToArray stops at its limit; autoPagingEach stops on false', async () => {
      const twelve = await client.customers.list({ limit: 5 }).autoPagingToArray({ limit: 12 });
      assert.deepEqual(
        twelve.map((c) => c.id),
        newestFirst().slice(0, 12),
      );
      let count = 0;
      await client.customers.list({ limit: 4 }).autoPagingEach(() => ++count < 6);
      assert.equal(count, 6);
      await assert.rejects(client.customers.list().autoPagingToArray({ limit: 0 }), RangeError);
    });

    test('starting with ending_before walks towards newer objects', async () => {
      const oldest = created[0] as Customer;
      const seen: string[] = [];
      for await (const customer of client.customers.list({ limit: 5, ending_before: oldest.id })) seen.push(customer.id);
      assert.deepEqual(
        seen,
        created.slice(1).map((c) => c.id),
      );
    });
  });
}
