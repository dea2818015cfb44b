import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type DeliveryOptions, deliverDueWebhooks } from '../../../src/domain/webhooks/deliver.js';
import { RETRY_WINDOW_MS } from '../../../src/domain/webhooks/schedule.js';
import { DAY, HOUR, MINUTE } from '../../../src/lib/clock.js';
import { httpPost } from '../../../src/lib/http-post.js';
import type { Store } from '../../../src/store/store.js';
import { BACKENDS } from '../../helpers/backends.js';
import { reopenStore } from '../../helpers/reopen-store.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const NO_JITTER: DeliveryOptions = { random: () => 0 };

for (const backend of BACKENDS) {
  describe(`webhook delivery: ${backend.name}`, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;

    beforeEach(async () => {
      t = await createTestApp(backend);
      receiver = await startWebhookReceiver(t.clock);
    });
    afterEach(async () => {
      await receiver.close();
      await t.close();
    });

    const deliver = (store: Store = t.db.store, options: DeliveryOptions = {}) =>
      deliverDueWebhooks(store, t.clock, httpPost, { ...NO_JITTER, ...options });

    async function createEndpoint(events: string[] = ['*'], url = receiver.url, key?: string) {
      const res = await t.call('POST', '/v1/webhook_endpoints', { body: { url, enabled_events: events }, ...(key ? { key } : {}) });
      assert.equal(res.statusCode, 200, res.body);
      const endpoint = res.json();
      receiver.secret = endpoint.secret;
      return endpoint as { id: string; secret: string };
    }

    async function createCustomer(email = 'ann@example.com') {
      const res = await t.call('POST', '/v1/customers', { body: { email } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: string };
    }

    async function attempts(endpointId: string, query = '') {
      const res = await t.call('GET', `/v1/webhook_endpoints/${endpointId}/attempts${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }

    async function onlyDelivery() {
      const rows = await t.db.store.findDueWebhookDeliveryIds(t.clock.now() + 10 * DAY, 10);
      assert.equal(rows.length, 1);
      const delivery = await t.db.store.findWebhookDeliveryById(rows[0] as string);
      assert.ok(delivery);
      return delivery;
    }

    test('POSTs the event, signed with the endpoint secret, and records the attempt', async () => {
      const endpoint = await createEndpoint(['customer.created']);
      const customer = await createCustomer();
      await t.call('POST', `/v1/customers/${customer.id}`, { body: { name: 'Not wanted' } });

      const report = await deliver();
      assert.deepEqual(report, { attempted: 1, succeeded: 1, failed: 0, canceled: 0 });
      assert.equal(receiver.hits.length, 1);
      const hit = receiver.hits[0]!;
      assert.equal(hit.signatureValid, true);
      assert.match(String(hit.headers['service-signature']), /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(hit.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(hit.event.type, 'customer.created');
      assert.equal(hit.event.data.object.id, customer.id);
      const event = (await t.call('GET', `/v1/events/${hit.event.id}`)).json();
      assert.deepEqual(hit.event.data, event.data);
      assert.equal(event.pending_webhooks, 0);
      assert.equal(hit.event.pending_webhooks, undefined);

      const list = await attempts(endpoint.id);
      assert.equal(list.data.length, 1);
      const [attempt] = list.data;
      assert.match(attempt.id, /^wha_/);
      assert.equal(attempt.object, 'webhook_attempt');
      assert.equal(attempt.event, hit.event.id);
      assert.equal(attempt.event_type, 'customer.created');
      assert.equal(attempt.attempt, 1);
      assert.equal(attempt.succeeded, true);
      assert.equal(attempt.status_code, 200);
      assert.equal(attempt.error, null);
      assert.equal(attempt.next_attempt_at, null);
      assert.equal(attempt.created, Math.floor(t.clock.now() / 1000));

      assert.deepEqual(await deliver(), { attempted: 0, succeeded: 0, failed: 0, canceled: 0 });
      assert.equal(receiver.hits.length, 1);
    });

    test('a tampered body or a wrong secret fails verification at the receiver', async () => {
      await createEndpoint();
      await createCustomer();
      receiver.secret = 'whsec_not_the_right_one';
      await deliver();
      assert.equal(receiver.hits[0]?.signatureValid, false);
      assert.equal(receiver.hits[0]?.status, 400);
    });

    test('failed attempts are retried with exponential backoff until one succeeds', async () => {
      const endpoint = await createEndpoint();
      await createCustomer();
      receiver.respond = (hit) => (hit.n <= 2 ? 500 : 204);
      const start = t.clock.now();
      const [queued] = (await t.call('GET', '/v1/events?limit=1')).json().data;
      assert.equal(queued.pending_webhooks, 1);

      assert.equal((await deliver()).failed, 1);
      let delivery = await onlyDelivery();
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.nextAttemptAt, start + MINUTE);
      // Not due yet: nothing is sent.
      t.clock.advance(MINUTE - 1000);
      assert.equal((await deliver()).attempted, 0);
      t.clock.set(delivery.nextAttemptAt);
      assert.equal((await deliver()).failed, 1);
      delivery = await onlyDelivery();
      assert.equal(delivery.nextAttemptAt, start + MINUTE + 2 * MINUTE);
      t.clock.set(delivery.nextAttemptAt);
      assert.equal((await deliver()).succeeded, 1);
      assert.equal(receiver.hits.length, 3);
      assert.ok(receiver.hits.every((h) => h.signatureValid && h.event.id === receiver.hits[0]?.event.id));

      const list = await attempts(endpoint.id);
      assert.deepEqual(
        list.data.map((a: { attempt: number; status_code: number; succeeded: boolean }) => [a.attempt, a.status_code, a.succeeded]),
        [
          [3, 204, true],
          [2, 500, false],
          [1, 500, false],
        ],
      );
      assert.equal(list.data[2].error, 'HTTP 500');
      assert.equal(list.data[2].next_attempt_at, Math.floor((start + MINUTE) / 1000));
      const page = await attempts(endpoint.id, '?limit=2');
      assert.equal(page.has_more, true);
      const rest = await attempts(endpoint.id, `?limit=2&starting_after=${page.data[1].id}`);
      assert.deepEqual(
        rest.data.map((a: { attempt: number }) => a.attempt),
        [1],
      );
      const byEvent = await attempts(endpoint.id, `?event=${receiver.hits[0]?.event.id}`);
      assert.equal(byEvent.data.length, 3);
      // The endpoint is healthy again.
      assert.equal((await t.call('GET', `/v1/webhook_endpoints/${endpoint.id}`)).json().status, 'enabled');
    });

    test('retries for 3 days, then gives up and disables the endpoint', async () => {
      const failing = await createEndpoint(['customer.created']);
      const failingSecret = failing.secret;
      // A second, healthy endpoint on another receiver hears about the disabling.
      const watcher = await startWebhookReceiver(t.clock);
      try {
        const watch = (
          await t.call('POST', '/v1/webhook_endpoints', { body: { url: watcher.url, enabled_events: ['webhook_endpoint.disabled'] } })
        ).json();
        watcher.secret = watch.secret;
        receiver.secret = failingSecret;
        receiver.respond = () => 503;
        await createCustomer();
        const first = t.clock.now();
        const deliveryId = (await onlyDelivery()).id;

        const times: number[] = [];
        for (let i = 0; i < 40; i++) {
          const report = await deliver();
          if (report.attempted) times.push(t.clock.now());
          const delivery = await t.db.store.findWebhookDeliveryById(deliveryId);
          if (delivery?.status !== 'pending') break;
          t.clock.set(delivery.nextAttemptAt);
        }
        const delays = times.slice(1).map((at, i) => at - (times[i] as number));
        assert.deepEqual(
          delays.slice(0, 11),
          [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 720].map((m) => m * MINUTE),
        );
        assert.ok(delays.every((d) => d <= 12 * HOUR));
        assert.equal(times.at(-1), first + RETRY_WINDOW_MS, 'the last attempt lands at exactly 3 days');
        assert.equal(receiver.hits.length, times.length);
        assert.equal(times.length, 16);

        const endpoint = (await t.call('GET', `/v1/webhook_endpoints/${failing.id}`)).json();
        assert.equal(endpoint.status, 'disabled');
        assert.equal(endpoint.disabled_reason, 'failing');
        assert.equal(endpoint.disabled_at, Math.floor(t.clock.now() / 1000));
        const events = (await t.call('GET', '/v1/events?type=webhook_endpoint.disabled')).json();
        assert.equal(events.data.length, 1);
        assert.equal(events.data[0].data.object.id, failing.id);
        assert.equal(events.data[0].data.object.secret, undefined);

        const history = await attempts(failing.id, '?limit=100');
        assert.equal(history.data.length, 16);
        assert.equal(history.data[0].attempt, 16);
        assert.equal(history.data[0].next_attempt_at, null);
        assert.equal(history.data[0].status_code, 503);

        // The watcher got the notice; the disabled endpoint gets nothing new.
        await deliver();
        assert.equal(watcher.hits.length, 1);
        assert.equal(watcher.hits[0]?.event.type, 'webhook_endpoint.disabled');
        assert.equal(watcher.hits[0]?.signatureValid, true);
        const heard = receiver.hits.length;
        await createCustomer('bob@example.com');
        await deliver();
        assert.equal(receiver.hits.length, heard);

        // Re-enabled, it receives new events again.
        receiver.respond = () => 200;
        const enabled = await t.call('POST', `/v1/webhook_endpoints/${failing.id}`, { body: { status: 'enabled' } });
        assert.equal(enabled.json().status, 'enabled');
        await createCustomer('cy@example.com');
        await deliver();
        assert.equal(receiver.hits.length, heard + 1);
        assert.equal(receiver.hits.at(-1)?.status, 200);
      } finally {
        await watcher.close();
      }
    });

    test('an endpoint disabled or deleted before its turn gets nothing', async () => {
      const a = await createEndpoint();
      await createCustomer();
      await t.call('POST', `/v1/webhook_endpoints/${a.id}`, { body: { status: 'disabled' } });
      assert.deepEqual(await deliver(), { attempted: 0, succeeded: 0, failed: 0, canceled: 0 });
      const b = await createEndpoint();
      await createCustomer('b@example.com');
      await t.call('DELETE', `/v1/webhook_endpoints/${b.id}`);
      assert.equal((await deliver()).attempted, 0);
      assert.equal(receiver.hits.length, 0);
    });

    test('timeouts and refused connections are failed attempts with an error', async () => {
      const slow = await createEndpoint();
      receiver.respond = () => new Promise((resolve) => setTimeout(() => resolve(200), 1000));
      await createCustomer();
      assert.equal((await deliver(t.db.store, { timeoutMs: 100 })).failed, 1);
      const [attempt] = (await attempts(slow.id)).data;
      assert.equal(attempt.status_code, null);
      assert.match(attempt.error, /timeout/);
      await t.call('DELETE', `/v1/webhook_endpoints/${slow.id}`);

      const closed = await startWebhookReceiver(t.clock);
      await closed.close();
      const refused = await createEndpoint(['*'], closed.url);
      await createCustomer('c@example.com');
      assert.equal((await deliver()).failed, 1);
      const [refusedAttempt] = (await attempts(refused.id)).data;
      assert.match(refusedAttempt.error, /ECONNREFUSED/);
    });

    test('live mode: a private address is refused at delivery time too', async () => {
      const live = t.account.keys.secret_live;
      // Stored directly: the API would refuse this URL (DNS names are only known at delivery).
      const port = new URL(receiver.url).port;
      await t.db.store.insertWebhookEndpoint({
        id: 'we_01m6bfp5g0020f6mv94j7h2j5acswkt7w',
        accountId: t.account.account.id,
        livemode: true,
        url: `http://localhost:${port}/hooks`,
        enabledEvents: ['*'],
        status: 'enabled',
        disabledReason: null,
        disabledAt: null,
        secret: 'whsec_x',
        description: null,
        metadata: {},
        consecutiveFailures: 0,
        failingSince: null,
        created: 1,
      });
      assert.equal((await t.call('POST', '/v1/customers', { body: {}, key: live })).statusCode, 200);
      assert.equal((await deliver()).failed, 1);
      assert.equal(receiver.hits.length, 0);
      const list = (await t.call('GET', '/v1/webhook_endpoints/we_01m6bfp5g0020f6mv94j7h2j5acswkt7w/attempts', { key: live })).json();
      assert.match(list.data[0].error, /address not allowed: (127\.0\.0\.1|::1)/);
    });

    test('pending deliveries survive a restart', async () => {
      await createEndpoint();
      await createCustomer('a@example.com');
      await createCustomer('b@example.com');
      await t.app.close();
      await t.db.store.close();

      const reopened = reopenStore(backend, t.db);
      try {
        const report = await deliver(reopened.store);
        assert.equal(report.succeeded, 2);
        assert.equal(receiver.hits.length, 2);
        assert.ok(receiver.hits.every((h) => h.signatureValid));
      } finally {
        await reopened.store.close();
      }
    });

    test('two workers on one database never send the same attempt twice', async () => {
      await createEndpoint();
      for (let i = 0; i < 12; i++) await createCustomer(`c${i}@example.com`);
      receiver.respond = (hit) => new Promise((resolve) => setTimeout(() => resolve(hit.n % 3 === 0 ? 500 : 200), 5));
      const second = reopenStore(backend, t.db);
      try {
        for (let round = 0; round < 4; round++) {
          const sentBefore = receiver.hits.length;
          const reports = await Promise.all([
            deliver(t.db.store, { concurrency: 4 }),
            deliver(second.store, { concurrency: 4 }),
            deliver(t.db.store, { concurrency: 4 }),
          ]);
          const sent = reports.reduce((n, r) => n + r.attempted, 0);
          assert.equal(receiver.hits.length - sentBefore, sent);
          t.clock.advance(HOUR);
        }
        const perEvent = new Map<string, number>();
        for (const hit of receiver.hits.filter((h) => h.status === 200)) perEvent.set(hit.event.id, (perEvent.get(hit.event.id) ?? 0) + 1);
        assert.equal(perEvent.size, 12, 'every event delivered');
        assert.ok(
          [...perEvent.values()].every((n) => n === 1),
          'each event succeeded exactly once',
        );
        const totalAttempts = (await attempts((await t.call('GET', '/v1/webhook_endpoints')).json().data[0].id, '?limit=100')).data.length;
        assert.equal(totalAttempts, receiver.hits.length, 'every request sent is recorded once');
      } finally {
        await second.store.close();
      }
    });
  });
}
