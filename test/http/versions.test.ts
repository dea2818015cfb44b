import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LATEST_RELEASE } from '../../src/domain/versions/releases.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`API versions over HTTP (${backend.name})`, () => {
    let t: TestApp;
    let paymentId: string;
    before(async () => {
      t = await createTestApp(backend);
      const customer = (await t.call('POST', '/v1/customers', { body: {} })).json().id;
      paymentId = (await t.call('POST', '/v1/payments', { body: { amount: 500, currency: 'JPY', customer } })).json().id;
    });
    after(() => t.close());
    const get = (url: string, version?: string) =>
      t.call('GET', url, version !== undefined ? { headers: { 'service-version': version } } : {});

    test('without Service-Version the account default applies and is echoed', async () => {
      const res = await get(`/v1/payments/${paymentId}`);
      assert.equal(res.headers['service-version'], LATEST_RELEASE);
      assert.equal(res.json().status, 'requires_payment_method');
      assert.equal(res.json().amount_capturable, 0);
    });

    test('each release shows its own shape', async () => {
      const first = await get(`/v1/payments/${paymentId}`, '2025-06-01');
      assert.equal(first.headers['service-version'], '2025-06-01');
      assert.equal(first.json().status, 'requires_source');
      assert.equal('amount_capturable' in first.json(), false);
      assert.equal('amount_received' in first.json(), false);

      const second = await get(`/v1/payments/${paymentId}`, '2026-03-01');
      assert.equal(second.json().status, 'requires_payment_method');
      assert.equal('amount_capturable' in second.json(), false);

      const list = await get('/v1/payments', '2025-06-01');
      assert.ok(list.json().data.every((p: { status: string }) => p.status !== 'requires_payment_method'));
    });

    test('a date between releases resolves to the newest release on or before it', async () => {
      assert.equal((await get('/v1/payments', '2026-05-17')).headers['service-version'], '2026-03-01');
      assert.equal((await get('/v1/payments', '2025-12-31')).headers['service-version'], '2025-06-01');
    });

    test('malformed, pre-release and future versions are 400 api_version_invalid', async () => {
      for (const v of ['2026-13-01', '2026-02-30', 'latest', '20260301', '2024-01-01', '2027-01-01', '']) {
        const res = await get('/v1/payments', v);
        assert.equal(res.statusCode, 400, v);
        assert.equal(res.json().error.code, 'api_version_invalid');
        assert.equal(res.json().error.param, 'Service-Version');
      }
    });

    test('older-shaped request parameters are upgraded (status filter)', async () => {
      const old = await get('/v1/payments?status=requires_source', '2025-06-01');
      assert.equal(old.statusCode, 200);
      assert.deepEqual(
        old.json().data.map((p: { id: string }) => p.id),
        [paymentId],
      );
    });

    test('the account default version can be changed', async () => {
      const set = await t.call('POST', '/v1/account', { body: { default_version: '2025-06-01' } });
      assert.equal(set.statusCode, 200);
      assert.equal(set.json().default_version, '2025-06-01');
      const res = await get(`/v1/payments/${paymentId}`);
      assert.equal(res.headers['service-version'], '2025-06-01');
      assert.equal(res.json().status, 'requires_source');
      const bad = await t.call('POST', '/v1/account', { body: { default_version: '2026-01-01' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.param, 'default_version');
      await t.call('POST', '/v1/account', { body: { default_version: LATEST_RELEASE } });
    });

    test('GET /v1/versions lists releases newest first with their changes', async () => {
      const res = await t.call('GET', '/v1/versions', { key: null });
      const body = res.json();
      assert.equal(body.object, 'list');
      assert.equal(body.latest, LATEST_RELEASE);
      assert.equal(body.data[0].id, LATEST_RELEASE);
      assert.ok(body.data.length >= 2);
      for (const v of body.data) {
        assert.equal(v.object, 'api_version');
        assert.ok(v.changes.length >= 1);
      }
    });
  });
}
