import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { SECOND } from '../../src/lib/clock.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`payments (${backend.name})`, () => {
    let t: TestApp;
    let customer: string;
    let other: string;
    before(async () => {
      t = await createTestApp(backend);
      customer = (await t.call('POST', '/v1/customers', { body: { name: 'Ann' } })).json().id;
      other = (await t.call('POST', '/v1/customers', { body: { name: 'Bob' } })).json().id;
    });
    after(() => t.close());
    const count = async () => (await t.call('GET', '/v1/payments?limit=100')).json().data.length as number;

    test('create with the spec’s three fields: requires_payment_method, contract fields', async () => {
      const res = await t.call('POST', '/v1/payments', { body: { amount: 2000, currency: 'USD', customer } });
      assert.equal(res.statusCode, 200);
      const p = res.json();
      assert.match(p.id, /^pay_[0-9a-z]{33}$/);
      assert.deepEqual(Object.keys(p).sort(), [
        'amount',
        'amount_capturable',
        'amount_received',
        'amount_refunded',
        'canceled_at',
        'cancellation_reason',
        'capture_method',
        'client_secret',
        'created',
        'currency',
        'customer',
        'description',
        'id',
        'last_payment_error',
        'livemode',
        'metadata',
        'next_action',
        'object',
        'payment_method',
        'status',
      ]);
      assert.equal(p.object, 'payment');
      assert.equal(p.status, 'requires_payment_method');
      assert.equal(p.capture_method, 'automatic');
      assert.equal(p.customer, customer);
      assert.deepEqual([p.amount_capturable, p.amount_received, p.amount_refunded], [0, 0, 0]);
      assert.deepEqual((await t.call('GET', `/v1/payments/${p.id}`)).json(), p);
    });

    test('create with every optional field; zero-decimal currency', async () => {
      const res = await t.call('POST', '/v1/payments', {
        body: {
          amount: 99_999_999,
          currency: 'JPY',
          customer,
          description: 'Ünïcödé ✓',
          capture_method: 'manual',
          metadata: { order: '7' },
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().capture_method, 'manual');
      assert.equal(res.json().description, 'Ünïcödé ✓');
      assert.equal(res.json().amount, 99_999_999);
    });

    const bad: [string, Record<string, unknown>, string, string, number?][] = [
      ['amount missing', { amount: undefined }, 'amount', 'parameter_missing'],
      ['currency missing', { currency: undefined }, 'currency', 'parameter_missing'],
      ['customer missing', { customer: undefined }, 'customer', 'parameter_missing'],
      ['amount as string', { amount: '100' }, 'amount', 'parameter_invalid_type'],
      ['amount fractional', { amount: 10.5 }, 'amount', 'parameter_invalid_type'],
      ['amount zero', { amount: 0 }, 'amount', 'parameter_invalid'],
      ['amount negative', { amount: -5 }, 'amount', 'parameter_invalid'],
      ['amount too large', { amount: 100_000_000 }, 'amount', 'parameter_invalid'],
      ['amount null', { amount: null }, 'amount', 'parameter_invalid_type'],
      ['amount huge number', { amount: 1e300 }, 'amount', 'parameter_invalid'],
      ['currency lower case', { currency: 'usd' }, 'currency', 'parameter_invalid'],
      ['currency unknown', { currency: 'XYZ' }, 'currency', 'parameter_invalid'],
      ['currency wrong type', { currency: 840 }, 'currency', 'parameter_invalid_type'],
      ['currency too long', { currency: 'USDX' }, 'currency', 'parameter_invalid'],
      ['customer unknown', { customer: 'cus_nope' }, 'customer', 'resource_missing'],
      ['customer empty', { customer: '' }, 'customer', 'parameter_invalid'],
      ['customer huge', { customer: `cus_${'x'.repeat(5000)}` }, 'customer', 'parameter_invalid'],
      ['customer null', { customer: null }, 'customer', 'parameter_invalid_type'],
      ['capture_method unknown', { capture_method: 'later' }, 'capture_method', 'parameter_invalid'],
      ['description too long', { description: 'x'.repeat(1001) }, 'description', 'parameter_invalid'],
      ['description null', { description: null }, 'description', 'parameter_invalid_type'],
      ['description with NUL', { description: 'a\u0000' }, 'description', 'parameter_invalid'],
      ['metadata value object', { metadata: { a: { b: 'c' } } }, 'metadata.a', 'parameter_invalid_type'],
      ['unknown field', { tip: 5 }, 'tip', 'parameter_unknown'],
      ['nested unknown-looking key', { 'amount.extra': 1 }, 'amount.extra', 'parameter_unknown'],
    ];
    for (const [name, change, param, code] of bad) {
      test(`bad input: ${name} → 400 ${code} (${param}), nothing created`, async () => {
        const body: Record<string, unknown> = { amount: 100, currency: 'USD', customer, ...change };
        for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
        const before = await count();
        const res = await t.call('POST', '/v1/payments', { body });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, code, res.body);
        assert.equal(res.json().error.param, param);
        assert.equal(await count(), before);
      });
    }

    test('a deleted customer or another account’s customer cannot be charged', async () => {
      const doomed = (await t.call('POST', '/v1/customers', { body: {} })).json().id;
      await t.call('DELETE', `/v1/customers/${doomed}`);
      const res = await t.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer: doomed } });
      assert.equal(res.json().error.code, 'resource_missing');
      const stranger = await createAccount(t.db.store, t.clock, 'Stranger');
      const theirs = await t.call('POST', '/v1/payments', {
        key: stranger.keys.secret_test,
        body: { amount: 100, currency: 'USD', customer },
      });
      assert.equal(theirs.statusCode, 400);
      assert.equal(theirs.json().error.param, 'customer');
    });

    test('retrieve: unknown or foreign id is 404 param id', async () => {
      const mine = (await t.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer } })).json().id;
      const stranger = await createAccount(t.db.store, t.clock, 'Stranger 2');
      for (const [id, key] of [
        ['pay_unknown', undefined],
        [mine, stranger.keys.secret_test],
      ] as const) {
        const res = await t.call('GET', `/v1/payments/${id}`, { key });
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error.code, 'resource_missing');
        assert.equal(res.json().error.param, 'id');
      }
    });

    test('update description and metadata only', async () => {
      const p = (
        await t.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', customer, metadata: { a: '1', b: '2' } } })
      ).json();
      const res = await t.call('POST', `/v1/payments/${p.id}`, { body: { description: 'new', metadata: { a: null, c: '3' } } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().description, 'new');
      assert.deepEqual(res.json().metadata, { b: '2', c: '3' });
      const refused = await t.call('POST', `/v1/payments/${p.id}`, { body: { amount: 5 } });
      assert.equal(refused.json().error.code, 'parameter_unknown');
      assert.equal(refused.json().error.param, 'amount');
      assert.equal((await t.call('GET', `/v1/payments/${p.id}`)).json().amount, 100);
    });

    test('list filters: customer, status, created ranges; pagination', async () => {
      const start = Math.floor(t.clock.now() / 1000) + 100;
      t.clock.set(start * 1000);
      const made: string[] = [];
      for (let i = 0; i < 6; i++) {
        t.clock.advance(10 * SECOND);
        const who = i % 2 ? other : customer;
        made.push((await t.call('POST', '/v1/payments', { body: { amount: 100 + i, currency: 'GBP', customer: who } })).json().id);
      }
      const created = (i: number) => start + 10 * (i + 1);
      const ids = async (query: string) => (await t.call('GET', `/v1/payments?${query}`)).json().data.map((p: { id: string }) => p.id);

      assert.deepEqual(await ids(`customer=${other}`), [made[5], made[3], made[1]]);
      assert.deepEqual(await ids(`created[gte]=${created(2)}&created[lt]=${created(4)}`), [made[3], made[2]]);
      assert.deepEqual(await ids(`created[gt]=${created(4)}`), [made[5]]);
      assert.deepEqual(await ids(`created[lte]=${created(0)}&customer=${customer}&limit=1`), [made[0]]);
      assert.deepEqual(await ids(`created=${created(3)}`), [made[3]]);
      assert.deepEqual(await ids(`status=succeeded`), []);
      const page = (await t.call('GET', `/v1/payments?limit=2&starting_after=${made[5]}`)).json();
      assert.deepEqual(
        page.data.map((p: { id: string }) => p.id),
        [made[4], made[3]],
      );
      assert.equal(page.has_more, true);

      for (const [query, param] of [
        ['status=paid', 'status'],
        ['created[between]=1', 'created'],
        ['created[gt]=yesterday', 'created'],
        [`starting_after=${made[0]}&ending_before=${made[1]}`, 'ending_before'],
        ['customer=', 'customer'],
      ]) {
        const res = await t.call('GET', `/v1/payments?${query}`);
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error.param, param, `${query}: ${res.body}`);
      }
    });
  });
}
