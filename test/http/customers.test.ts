import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`customers (${backend.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    test('create, retrieve, update, delete', async () => {
      const created = await t.call('POST', '/v1/customers', {
        body: { email: 'zoë@example.com', name: 'Zoë 山田 🚀', description: 'VIP', metadata: { tier: 'gold', region: 'eu' } },
      });
      assert.equal(created.statusCode, 200);
      const c = created.json();
      assert.match(c.id, /^cus_/);
      assert.deepEqual(
        { ...c, id: undefined, created: undefined },
        {
          id: undefined,
          object: 'customer',
          email: 'zoë@example.com',
          name: 'Zoë 山田 🚀',
          description: 'VIP',
          metadata: { tier: 'gold', region: 'eu' },
          created: undefined,
          livemode: false,
        },
      );
      assert.equal(c.created, Math.floor(t.clock.now() / 1000));
      assert.deepEqual((await t.call('GET', `/v1/customers/${c.id}`)).json(), c);

      const updated = await t.call('POST', `/v1/customers/${c.id}`, { body: { name: null, metadata: { tier: 'platinum', region: '' } } });
      assert.equal(updated.statusCode, 200);
      assert.equal(updated.json().name, null);
      assert.deepEqual(updated.json().metadata, { tier: 'platinum' });
      assert.equal(updated.json().email, 'zoë@example.com', 'fields not sent are kept');

      const deleted = await t.call('DELETE', `/v1/customers/${c.id}`);
      assert.deepEqual(deleted.json(), { id: c.id, object: 'customer', deleted: true });
      const gone = await t.call('GET', `/v1/customers/${c.id}`);
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json().error.param, 'id');
      assert.equal((await t.call('DELETE', `/v1/customers/${c.id}`)).statusCode, 404);
      assert.equal((await t.call('POST', `/v1/customers/${c.id}`, { body: { name: 'x' } })).statusCode, 404);
    });

    test('every change is recorded as an event', async () => {
      const c = (await t.call('POST', '/v1/customers', { body: { name: 'Evented' } })).json();
      await t.call('POST', `/v1/customers/${c.id}`, { body: { name: 'Renamed' } });
      await t.call('DELETE', `/v1/customers/${c.id}`);
      const events = (await t.call('GET', '/v1/events?limit=3')).json().data;
      assert.deepEqual(
        events.map((e: { type: string }) => e.type),
        ['customer.deleted', 'customer.updated', 'customer.created'],
      );
      assert.equal(events[1].data.object.name, 'Renamed');
      assert.equal(events[0].data.object.id, c.id);
      const one = await t.call('GET', `/v1/events/${events[2].id}`);
      assert.equal(one.json().type, 'customer.created');
      assert.equal((await t.call('GET', '/v1/events?type=customer.updated')).json().data[0].type, 'customer.updated');
    });

    test('lists page newest first in both directions', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        t.clock.advance(1);
        ids.push((await t.call('POST', '/v1/customers', { body: { name: `c${i}` } })).json().id);
      }
      const newest = [...ids].reverse();
      const page1 = (await t.call('GET', '/v1/customers?limit=3')).json();
      assert.deepEqual(
        page1.data.map((c: { id: string }) => c.id),
        newest.slice(0, 3),
      );
      assert.equal(page1.has_more, true);
      assert.equal(page1.url, '/v1/customers');
      const page2 = (await t.call('GET', `/v1/customers?limit=3&starting_after=${newest[2]}`)).json();
      assert.deepEqual(
        page2.data.map((c: { id: string }) => c.id),
        newest.slice(3, 6),
      );
      const back = (await t.call('GET', `/v1/customers?limit=3&ending_before=${newest[3]}`)).json();
      assert.deepEqual(
        back.data.map((c: { id: string }) => c.id),
        newest.slice(0, 3),
      );
      assert.equal(back.has_more, false);
    });

    const bad: [string, unknown, string, string][] = [
      ['unknown field', { nickname: 'x' }, 'nickname', 'parameter_unknown'],
      ['email not an address', { email: 'not-an-email' }, 'email', 'parameter_invalid'],
      ['email wrong type', { email: 42 }, 'email', 'parameter_invalid_type'],
      ['name null on create', { name: null }, 'name', 'parameter_invalid_type'],
      ['name too long', { name: 'n'.repeat(257) }, 'name', 'parameter_invalid'],
      ['description huge', { description: 'd'.repeat(1001) }, 'description', 'parameter_invalid'],
      ['NUL character', { name: 'a\u0000b' }, 'name', 'parameter_invalid'],
      ['unpaired surrogate', { name: 'a\ud800b' }, 'name', 'parameter_invalid'],
      ['metadata not object', { metadata: 'x' }, 'metadata', 'parameter_invalid_type'],
      ['metadata value not string', { metadata: { a: 1 } }, 'metadata.a', 'parameter_invalid_type'],
      ['metadata value too long', { metadata: { a: 'v'.repeat(501) } }, 'metadata.a', 'parameter_invalid'],
      ['metadata key too long', { metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata', 'parameter_invalid'],
      [
        'metadata too many keys',
        { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        'metadata',
        'parameter_invalid',
      ],
    ];
    for (const [name, body, param, code] of bad) {
      test(`bad input: ${name} → 400 ${code} (${param}), nothing created`, async () => {
        const before = (await t.call('GET', '/v1/customers?limit=100')).json().data.length;
        const res = await t.call('POST', '/v1/customers', { body });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.type, 'invalid_request_error');
        assert.equal(res.json().error.code, code);
        assert.equal(res.json().error.param, param);
        assert.equal((await t.call('GET', '/v1/customers?limit=100')).json().data.length, before);
      });
    }

    test('bad list parameters name the parameter', async () => {
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['colour=red', 'colour'],
        ['starting_after=cus_doesnotexist', 'starting_after'],
      ]) {
        const res = await t.call('GET', `/v1/customers?${query}`);
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error.param, param, query);
      }
    });
  });
}
