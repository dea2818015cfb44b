import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { startWebhookWorker } from '../../../src/domain/webhooks/worker.js';
import { httpPost } from '../../../src/lib/http-post.js';
import { BACKENDS } from '../../helpers/backends.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

for (const backend of BACKENDS) {
  describe(`webhook worker: ${backend.name}`, () => {
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

    test('stop() waits for the deliveries in flight to be sent and recorded', async () => {
      const endpoint = (await t.call('POST', '/v1/webhook_endpoints', { body: { url: receiver.url, enabled_events: ['*'] } })).json();
      receiver.secret = endpoint.secret;
      await t.call('POST', '/v1/customers', { body: {} });
      let release: () => void = () => {};
      const arrived = new Promise<void>((resolve) => {
        receiver.respond = () =>
          new Promise<number>((answer) => {
            release = () => answer(200);
            resolve();
          });
      });
      const worker = startWebhookWorker({ store: t.db.store, clock: t.clock, post: httpPost, intervalMs: 60_000 });
      const pass = worker.runOnce();
      await arrived;
      let stopped = false;
      const stopping = worker.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(stopped, false, 'still waiting for the receiver');
      release();
      await stopping;
      assert.deepEqual(await pass, { attempted: 1, succeeded: 1, failed: 0, canceled: 0 });
      const attempts = (await t.call('GET', `/v1/webhook_endpoints/${endpoint.id}/attempts`)).json();
      assert.equal(attempts.data[0].succeeded, true);
      assert.equal(await worker.runOnce(), undefined, 'a stopped worker does nothing');
    });
  });
}
