import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { DAY, HOUR, SECOND } from '../../src/lib/clock.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, idem, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`api keys: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    const create = (body: unknown, key?: string, idempotencyKey?: string) =>
      t.call('POST', '/v1/api_keys', { body, ...(key ? { key } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) });

    test('creates a restricted key whose secret is shown once and which works within its permissions', async () => {
      const res = await create({ kind: 'restricted', name: 'billing-worker', note: 'on host b-3', permissions: { payments: 'read' } });
      assert.equal(res.statusCode, 200, res.body);
      const key = res.json();
      assert.match(key.id, /^key_/);
      assert.equal(key.object, 'api_key');
      assert.match(key.secret, /^rk_test_[0-9A-Za-z]{32}$/);
      assert.equal(key.prefix, 'rk_test_');
      assert.equal(key.last4, key.secret.slice(-4));
      assert.equal(key.name, 'billing-worker');
      assert.equal(key.note, 'on host b-3');
      assert.deepEqual(key.permissions, { payments: 'read' });
      assert.equal(key.expires_at, null);

      assert.equal((await t.call('GET', '/v1/payments', { key: key.secret })).statusCode, 200);
      const refused = await t.call('POST', '/v1/customers', { key: key.secret, body: {} });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.code, 'insufficient_scope');

      const fetched = await t.call('GET', `/v1/api_keys/${key.id}`);
      assert.equal(fetched.statusCode, 200);
      assert.equal(fetched.json().secret, undefined, 'never shown again');
      assert.ok(!fetched.body.includes(key.secret));
      const listed = await t.call('GET', '/v1/api_keys?limit=100');
      assert.ok(listed.json().data.some((k: { id: string }) => k.id === key.id));
      assert.ok(!listed.body.includes(key.secret));
    });

    test('an idempotent replay answers the same key without the secret, flagged secret_redacted', async () => {
      const idempotencyKey = idem();
      const first = await create({ kind: 'restricted', permissions: { customers: 'write' } }, undefined, idempotencyKey);
      const replay = await create({ kind: 'restricted', permissions: { customers: 'write' } }, undefined, idempotencyKey);
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      const { secret, ...rest } = first.json();
      assert.ok(secret);
      assert.deepEqual(replay.json(), { ...rest, secret_redacted: true });
    });

    test('creates secret and publishable keys of the caller’s mode; secret keys expire in 90 days', async () => {
      const secret = (await create({ kind: 'secret', name: 'api-server' })).json();
      assert.match(secret.secret, /^service_test_/);
      assert.equal(secret.expires_at - secret.created, 90 * 24 * 3600);
      assert.equal(secret.permissions, null);
      const publishable = (await create({ kind: 'publishable' })).json();
      assert.match(publishable.secret, /^pk_test_/);
      assert.equal(publishable.expires_at, null);
      const live = (await create({ kind: 'secret' }, t.account.keys.secret_live)).json();
      assert.match(live.secret, /^service_live_/);
      assert.equal(live.livemode, true);
    });

    test('bad bodies: unknown kind, permissions on a secret key, restricted without permissions, unknown resource', async () => {
      const cases: [unknown, string, string][] = [
        [{ kind: 'root' }, 'parameter_invalid', 'kind'],
        [{ kind: 'secret', permissions: { payments: 'read' } }, 'parameter_invalid', 'permissions'],
        [{ kind: 'restricted' }, 'parameter_missing', 'permissions'],
        [{ kind: 'restricted', permissions: { vaults: 'read' } }, 'parameter_unknown', 'permissions.vaults'],
        [{ kind: 'restricted', permissions: { payments: 'admin' } }, 'parameter_invalid', 'permissions.payments'],
      ];
      for (const [body, code, param] of cases) {
        const res = await create(body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json().error.code, code, JSON.stringify(body));
        assert.equal(res.json().error.param, param, JSON.stringify(body));
      }
    });

    test('a restricted key never grants more than it has; publishable keys cannot manage keys', async () => {
      const manager = (await create({ kind: 'restricted', permissions: { api_keys: 'write', payments: 'read' } })).json().secret;
      const within = await create({ kind: 'restricted', permissions: { payments: 'read' } }, manager);
      assert.equal(within.statusCode, 200, within.body);
      const cases: unknown[] = [
        { kind: 'restricted', permissions: { payments: 'write' } },
        { kind: 'restricted', permissions: { customers: 'read' } },
        { kind: 'secret' },
        { kind: 'publishable' },
      ];
      for (const body of cases) {
        const res = await create(body, manager);
        assert.equal(res.statusCode, 403, JSON.stringify(body));
        assert.equal(res.json().error.code, 'insufficient_scope');
        assert.ok(!res.body.includes(manager));
      }
      // Nor can it roll or revoke a more powerful key (rolling a secret key would hand it a secret key).
      const secretId = (await t.call('GET', '/v1/api_keys?limit=100')).json().data.find((k: { kind: string }) => k.kind === 'secret').id;
      assert.equal((await t.call('POST', `/v1/api_keys/${secretId}/roll`, { key: manager })).statusCode, 403);
      assert.equal((await t.call('POST', `/v1/api_keys/${secretId}/revoke`, { key: manager })).statusCode, 403);

      const readOnly = (await create({ kind: 'restricted', permissions: { api_keys: 'read' } })).json().secret;
      assert.equal((await create({ kind: 'restricted', permissions: {} }, readOnly)).statusCode, 403);
      assert.equal((await t.call('GET', '/v1/api_keys', { key: readOnly })).statusCode, 200);

      for (const pk of [t.account.keys.publishable_test]) {
        assert.equal((await create({ kind: 'restricted', permissions: {} }, pk)).statusCode, 403);
        assert.equal((await t.call('GET', '/v1/api_keys', { key: pk })).statusCode, 403);
      }
    });

    test('keys of another account are 404; keys of the other mode are 403 livemode_mismatch', async () => {
      const other = await createAccount(t.db.store, t.clock, 'Other');
      const foreign = (await t.call('POST', '/v1/api_keys', { key: other.keys.secret_test, body: { kind: 'publishable' } })).json();
      for (const path of [`/v1/api_keys/${foreign.id}`]) {
        const res = await t.call('GET', path);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error.code, 'resource_missing');
      }
      for (const action of ['roll', 'revoke']) {
        const res = await t.call('POST', `/v1/api_keys/${foreign.id}/${action}`);
        assert.equal(res.statusCode, 404, action);
      }
      const untouched = await t.call('GET', `/v1/api_keys/${foreign.id}`, { key: other.keys.secret_test });
      assert.equal(untouched.json().revoked_at, null, 'untouched');
      assert.equal(untouched.json().expires_at, null, 'untouched');
      const live = (await create({ kind: 'publishable' }, t.account.keys.secret_live)).json();
      const res = await t.call('GET', `/v1/api_keys/${live.id}`);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'livemode_mismatch');
    });

    test('names and notes can be changed; an empty string clears them', async () => {
      const key = (await create({ kind: 'restricted', name: 'a', permissions: {} })).json();
      const res = await t.call('POST', `/v1/api_keys/${key.id}`, { body: { name: 'reports-worker', note: 'cron on db-2' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().name, 'reports-worker');
      const cleared = await t.call('POST', `/v1/api_keys/${key.id}`, { body: { note: '' } });
      assert.equal(cleared.json().note, null);
      assert.equal(cleared.json().name, 'reports-worker');
    });

    test('revoke: 401 api_key_revoked at once; revoking twice and rolling a revoked key are 400', async () => {
      const key = (await create({ kind: 'restricted', permissions: { payments: 'read' } })).json();
      const revoked = await t.call('POST', `/v1/api_keys/${key.id}/revoke`);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal(revoked.json().revoked_at, Math.floor(t.clock.now() / 1000));
      const refused = await t.call('GET', '/v1/payments', { key: key.secret });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().error.code, 'api_key_revoked');
      const again = await t.call('POST', `/v1/api_keys/${key.id}/revoke`);
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().error.param, 'id');
      const roll = await t.call('POST', `/v1/api_keys/${key.id}/roll`);
      assert.equal(roll.statusCode, 400);
      assert.equal(roll.json().error.param, 'id');
    });
  });

  describe(`key rotation: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    test('roll: a new key with the same kind and permissions; the old one works for exactly 24 hours', async () => {
      const old = (
        await t.call('POST', '/v1/api_keys', { body: { kind: 'restricted', name: 'w', permissions: { payments: 'write' } } })
      ).json();
      const rolled = await t.call('POST', `/v1/api_keys/${old.id}/roll`);
      assert.equal(rolled.statusCode, 200, rolled.body);
      const fresh = rolled.json();
      assert.notEqual(fresh.id, old.id);
      assert.match(fresh.secret, /^rk_test_/);
      assert.deepEqual(fresh.permissions, { payments: 'write' });
      assert.equal(fresh.name, 'w');
      const now = Math.floor(t.clock.now() / 1000);
      assert.equal((await t.call('GET', `/v1/api_keys/${old.id}`)).json().expires_at, now + 24 * 3600);

      t.clock.advance(24 * HOUR - SECOND);
      const during = await t.call('GET', '/v1/payments', { key: old.secret });
      assert.equal(during.statusCode, 200);
      assert.equal(during.headers['service-key-expires'], String(now + 24 * 3600));
      t.clock.advance(SECOND);
      const afterOverlap = await t.call('GET', '/v1/payments', { key: old.secret });
      assert.equal(afterOverlap.statusCode, 401);
      assert.equal(afterOverlap.json().error.code, 'api_key_expired');
      assert.equal((await t.call('GET', '/v1/payments', { key: fresh.secret })).statusCode, 200);
    });

    test('secret keys: warning header from 14 days before expiry, 401 api_key_expired at 90 days, roll keeps the sooner expiry', async () => {
      const created = (await t.call('POST', '/v1/api_keys', { body: { kind: 'secret' } })).json();
      const expiresAt = created.expires_at as number;
      assert.equal(expiresAt, Math.floor(t.clock.now() / 1000) + 90 * 24 * 3600);
      const quiet = await t.call('GET', '/v1/account', { key: created.secret });
      assert.equal(quiet.headers['service-key-expires'], undefined);

      t.clock.set(expiresAt * 1000 - 14 * DAY - SECOND);
      assert.equal((await t.call('GET', '/v1/account', { key: created.secret })).headers['service-key-expires'], undefined);
      t.clock.advance(SECOND);
      const warned = await t.call('GET', '/v1/account', { key: created.secret });
      assert.equal(warned.statusCode, 200);
      assert.equal(warned.headers['service-key-expires'], String(expiresAt));
      const warnedError = await t.call('GET', '/v1/payments/pay_nope', { key: created.secret });
      assert.equal(warnedError.statusCode, 404);
      assert.equal(warnedError.headers['service-key-expires'], String(expiresAt), 'on error responses too');

      // Rolled 1 hour before its own expiry, the old key keeps only that hour, not 24.
      t.clock.set(expiresAt * 1000 - HOUR);
      const fresh = (await t.call('POST', `/v1/api_keys/${created.id}/roll`, { key: created.secret })).json();
      assert.equal((await t.call('GET', `/v1/api_keys/${created.id}`, { key: fresh.secret })).json().expires_at, expiresAt);
      assert.equal(fresh.expires_at, Math.floor(t.clock.now() / 1000) + 90 * 24 * 3600);

      t.clock.set(expiresAt * 1000);
      const expired = await t.call('GET', '/v1/account', { key: created.secret });
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.json().error.code, 'api_key_expired');
      assert.equal((await t.call('GET', '/v1/account', { key: fresh.secret })).statusCode, 200);
      const cannotRoll = await t.call('POST', `/v1/api_keys/${created.id}/roll`, { key: fresh.secret });
      assert.equal(cannotRoll.statusCode, 400);
    });
  });
}
