import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`webhook endpoints API: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    const create = (body: unknown, key?: string) => t.call('POST', '/v1/webhook_endpoints', { body, ...(key ? { key } : {}) });

    test('create shows the secret once; retrieve and list do not', async () => {
      const res = await create({ url: 'http://127.0.0.1:9/hook', enabled_events: ['customer.created'], metadata: { team: 'a' } });
      assert.equal(res.statusCode, 200, res.body);
      const endpoint = res.json();
      assert.match(endpoint.id, /^we_/);
      assert.equal(endpoint.object, 'webhook_endpoint');
      assert.equal(endpoint.url, 'http://127.0.0.1:9/hook');
      assert.deepEqual(endpoint.enabled_events, ['customer.created']);
      assert.equal(endpoint.status, 'enabled');
      assert.equal(endpoint.disabled_reason, null);
      assert.equal(endpoint.livemode, false);
      assert.match(endpoint.secret, /^whsec_[A-Za-z0-9_-]{32}$/);

      const got = (await t.call('GET', `/v1/webhook_endpoints/${endpoint.id}`)).json();
      assert.equal(got.secret, undefined);
      assert.equal(got.id, endpoint.id);
      const list = (await t.call('GET', '/v1/webhook_endpoints')).json();
      assert.equal(list.object, 'list');
      assert.equal(list.url, '/v1/webhook_endpoints');
      assert.ok(list.data.some((e: { id: string; secret?: string }) => e.id === endpoint.id && e.secret === undefined));
    });

    test('enabled_events takes known types or "*", and needs at least one', async () => {
      const star = (await create({ url: 'http://localhost:9/a', enabled_events: ['*', 'customer.created'] })).json();
      assert.deepEqual(star.enabled_events, ['*']);
      const unknown = await create({ url: 'http://localhost:9/a', enabled_events: ['customer.exploded'] });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().error.param, 'enabled_events.0');
      const empty = await create({ url: 'http://localhost:9/a', enabled_events: [] });
      assert.equal(empty.statusCode, 400);
      assert.equal(empty.json().error.param, 'enabled_events');
      const missing = await create({ url: 'http://localhost:9/a' });
      assert.equal(missing.json().error.code, 'parameter_missing');
      assert.equal(missing.json().error.param, 'enabled_events');
    });

    test('urls: test mode takes http and loopback; any mode refuses other schemes and credentials', async () => {
      for (const url of ['http://localhost:4000/x', 'http://[::1]:4000/x', 'https://10.0.0.8/x', 'http://example.com/hook']) {
        assert.equal((await create({ url, enabled_events: ['*'] })).statusCode, 200, url);
      }
      for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/x', 'javascript:alert(1)']) {
        const res = await create({ url, enabled_events: ['*'] });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().error.param, 'url');
        assert.equal(res.json().error.code, 'parameter_invalid');
      }
    });

    test('urls: live mode needs https to a public host (SSRF)', async () => {
      const live = t.account.keys.secret_live;
      const refused = [
        'http://example.com/hook',
        'https://localhost/hook',
        'https://api.localhost/hook',
        'https://127.0.0.1/hook',
        'https://2130706433/hook',
        'https://10.1.2.3/hook',
        'https://172.16.0.1/hook',
        'https://192.168.1.1/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/hook',
        'https://0.0.0.0/hook',
        'https://[::1]/hook',
        'https://[fe80::1]/hook',
        'https://[fd00::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'https://intranet/hook',
      ];
      for (const url of refused) {
        const res = await create({ url, enabled_events: ['*'] }, live);
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().error.param, 'url', url);
      }
      const ok = await create({ url: 'https://hooks.example.com/payments', enabled_events: ['*'] }, live);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().livemode, true);
      const publicIp = await create({ url: 'https://93.184.216.34/hook', enabled_events: ['*'] }, live);
      assert.equal(publicIp.statusCode, 200, publicIp.body);
      // The test key does not see live endpoints.
      assert.equal((await t.call('GET', `/v1/webhook_endpoints/${ok.json().id}`)).statusCode, 404);
      // A live update is checked too.
      const update = await t.call('POST', `/v1/webhook_endpoints/${ok.json().id}`, { body: { url: 'https://127.0.0.1/x' }, key: live });
      assert.equal(update.statusCode, 400);
      assert.equal(update.json().error.param, 'url');
    });

    test('update url, events, metadata; disable and re-enable', async () => {
      const endpoint = (await create({ url: 'http://127.0.0.1:9/a', enabled_events: ['customer.created'] })).json();
      const updated = await t.call('POST', `/v1/webhook_endpoints/${endpoint.id}`, {
        body: { url: 'http://127.0.0.1:9/b', enabled_events: ['customer.updated', 'payment.created'], metadata: { a: '1' } },
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.json().url, 'http://127.0.0.1:9/b');
      assert.deepEqual(updated.json().enabled_events, ['customer.updated', 'payment.created']);
      assert.equal(updated.json().secret, undefined);

      const disabled = (await t.call('POST', `/v1/webhook_endpoints/${endpoint.id}`, { body: { status: 'disabled' } })).json();
      assert.equal(disabled.status, 'disabled');
      assert.equal(disabled.disabled_reason, 'requested');
      assert.equal(disabled.disabled_at, Math.floor(t.clock.now() / 1000));
      const enabled = (await t.call('POST', `/v1/webhook_endpoints/${endpoint.id}`, { body: { status: 'enabled' } })).json();
      assert.equal(enabled.status, 'enabled');
      assert.equal(enabled.disabled_reason, null);
      assert.equal(enabled.disabled_at, null);

      const bad = await t.call('POST', `/v1/webhook_endpoints/${endpoint.id}`, { body: { status: 'paused' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.param, 'status');
    });

    test('delete answers a deleted stub, then 404', async () => {
      const endpoint = (await create({ url: 'http://127.0.0.1:9/a', enabled_events: ['*'] })).json();
      const res = await t.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { id: endpoint.id, object: 'webhook_endpoint', deleted: true });
      const gone = await t.call('GET', `/v1/webhook_endpoints/${endpoint.id}`);
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json().error.param, 'id');
      assert.equal((await t.call('GET', `/v1/webhook_endpoints/${endpoint.id}/attempts`)).statusCode, 404);
    });

    test('events create outbox rows only for matching enabled endpoints of the same mode', async () => {
      const fresh = await createTestApp(backend);
      try {
        const all = (
          await fresh.call('POST', '/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/a', enabled_events: ['*'] } })
        ).json();
        const payments = (
          await fresh.call('POST', '/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/b', enabled_events: ['payment.created'] } })
        ).json();
        const off = (
          await fresh.call('POST', '/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/c', enabled_events: ['*'] } })
        ).json();
        await fresh.call('POST', `/v1/webhook_endpoints/${off.id}`, { body: { status: 'disabled' } });
        await fresh.call('POST', '/v1/webhook_endpoints', {
          body: { url: 'https://hooks.example.com/x', enabled_events: ['*'] },
          key: fresh.account.keys.secret_live,
        });
        const customer = await fresh.call('POST', '/v1/customers', { body: { email: 'a@example.com' } });
        assert.equal(customer.statusCode, 200);
        const due = await fresh.db.store.findDueWebhookDeliveryIds(fresh.clock.now(), 100);
        const deliveries = await Promise.all(due.map((id) => fresh.db.store.findWebhookDeliveryById(id)));
        assert.deepEqual(
          deliveries.map((d) => d?.endpointId),
          [all.id],
        );
        assert.notEqual(payments.id, all.id);
        // A rolled-back write leaves neither event nor delivery.
        const bad = await fresh.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer: 'cus_missing' } });
        assert.equal(bad.statusCode, 400);
        assert.equal((await fresh.db.store.findDueWebhookDeliveryIds(fresh.clock.now(), 100)).length, 1);
      } finally {
        await fresh.close();
      }
    });

    test('restricted keys need webhook_endpoints permission; publishable keys are refused', async () => {
      const res = await t.call('GET', '/v1/webhook_endpoints', { key: t.account.keys.publishable_test });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'insufficient_scope');
    });
  });
}
