import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../src/store/records.js';
import { BACKENDS, type TestStore } from '../helpers/backends.js';

const T0 = Date.UTC(2026, 0, 1);

for (const backend of BACKENDS) {
  describe(`store contract, webhooks: ${backend.name}`, () => {
    let db: TestStore;
    const accountId = newId('acct');
    const scope = { accountId, livemode: false };
    const endpoint: WebhookEndpointRecord = {
      id: newId('we', T0),
      accountId,
      livemode: false,
      url: 'https://example.com/hooks',
      enabledEvents: ['customer.created'],
      status: 'enabled',
      disabledReason: null,
      disabledAt: null,
      secret: 'whsec_x',
      description: null,
      metadata: {},
      consecutiveFailures: 0,
      failingSince: null,
      created: T0 / 1000,
    };
    const delivery = (overrides: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord => ({
      id: newId('whd', T0),
      accountId,
      livemode: false,
      endpointId: endpoint.id,
      eventId: newId('evt', T0),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0,
      firstAttemptedAt: null,
      leaseUntil: null,
      leaseToken: null,
      created: T0 / 1000,
      ...overrides,
    });

    before(async () => {
      db = await backend.open();
      await db.store.insertAccount({ id: accountId, name: 'A', defaultVersion: '2026-09-01', created: 1 });
      await db.store.insertWebhookEndpoint(endpoint);
    });
    after(async () => db.destroy());

    test('endpoints round-trip; only enabled ones are listed for enqueueing', async () => {
      assert.deepEqual(await db.store.findWebhookEndpointById(scope, endpoint.id), endpoint);
      assert.equal(await db.store.findWebhookEndpointById({ accountId, livemode: true }, endpoint.id), undefined);
      assert.deepEqual(await db.store.listEnabledWebhookEndpoints(scope), [{ id: endpoint.id, enabledEvents: ['customer.created'] }]);
      await db.store.updateWebhookEndpoint(scope, endpoint.id, { status: 'disabled' });
      assert.deepEqual(await db.store.listEnabledWebhookEndpoints(scope), []);
      await db.store.updateWebhookEndpoint(scope, endpoint.id, { status: 'enabled' });
    });

    test('a lease is exclusive until it expires, and only its holder finishes the attempt', async () => {
      const d = delivery();
      await db.store.insertWebhookDelivery(d);
      assert.deepEqual(await db.store.findDueWebhookDeliveryIds(T0 - 1, 10), []);
      assert.deepEqual(await db.store.findDueWebhookDeliveryIds(T0, 10), [d.id]);
      assert.equal(await db.store.leaseWebhookDelivery(d.id, T0, T0 + 1000, 'a'), true);
      assert.equal(await db.store.leaseWebhookDelivery(d.id, T0 + 999, T0 + 2000, 'b'), false);
      assert.deepEqual(await db.store.findDueWebhookDeliveryIds(T0 + 999, 10), []);
      // Expired: another worker may take it over, and the first can no longer record.
      assert.equal(await db.store.leaseWebhookDelivery(d.id, T0 + 1001, T0 + 3000, 'b'), true);
      const patch = { status: 'pending' as const, attempts: 1, nextAttemptAt: T0 + 60_000, firstAttemptedAt: T0 };
      assert.equal(await db.store.finishWebhookDeliveryAttempt(d.id, 'a', patch), false);
      assert.equal(await db.store.finishWebhookDeliveryAttempt(d.id, 'b', patch), true);
      const after = await db.store.findWebhookDeliveryById(d.id);
      assert.equal(after?.attempts, 1);
      assert.equal(after?.leaseToken, null);
      assert.equal(after?.nextAttemptAt, T0 + 60_000);
      assert.deepEqual(await db.store.countPendingWebhookDeliveries([d.eventId, 'evt_none']), new Map([[d.eventId, 1]]));
    });

    test('outcomes count failures atomically; a success resets them', async () => {
      await db.store.recordWebhookEndpointOutcome(endpoint.id, false, T0);
      const failed = await db.store.recordWebhookEndpointOutcome(endpoint.id, false, T0 + 5000);
      assert.equal(failed?.consecutiveFailures, 2);
      assert.equal(failed?.failingSince, T0);
      const ok = await db.store.recordWebhookEndpointOutcome(endpoint.id, true, T0 + 9000);
      assert.equal(ok?.consecutiveFailures, 0);
      assert.equal(ok?.failingSince, null);
    });

    test('cancel and delete take the endpoint’s deliveries with them', async () => {
      const d = delivery();
      await db.store.insertWebhookDelivery(d);
      assert.ok((await db.store.cancelWebhookDeliveries(endpoint.id)) >= 1);
      assert.equal((await db.store.findWebhookDeliveryById(d.id))?.status, 'canceled');
      await db.store.deleteWebhookEndpoint(scope, endpoint.id);
      assert.equal(await db.store.findWebhookEndpointById(scope, endpoint.id), undefined);
      assert.equal(await db.store.findWebhookDeliveryById(d.id), undefined);
    });
  });
}
