import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expireAuthorizations } from '../../../src/domain/payments/expire.js';
import { createProcessors } from '../../../src/domain/processor/processors.js';
import { DAY, SECOND } from '../../../src/lib/clock.js';
import { BACKENDS } from '../../helpers/backends.js';
import { assertAmountsConsistent, paymentWith } from '../../helpers/payments.js';
import { openSecondInstance } from '../../helpers/second-instance.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`authorisation expiry sweeper: ${backend.name}`, () => {
    let t: TestApp;
    let second: ReturnType<typeof openSecondInstance>;
    before(async () => {
      t = await createTestApp(backend);
      second = openSecondInstance(t.db);
    });
    after(async () => {
      await second.close();
      await t.close();
    });

    test('an uncaptured authorisation expires after 7 days, exactly once across two instances', async () => {
      const held = (await paymentWith(t, { amount: 4000, capture_method: 'manual' })).json();
      const captured = (await paymentWith(t, { amount: 4000, capture_method: 'manual' })).json();
      await t.call('POST', `/v1/payments/${captured.id}/capture`, { body: {} });

      t.clock.advance(7 * DAY - SECOND);
      const one = createProcessors(t.db.store, t.clock, undefined);
      const two = createProcessors(second.store, t.clock, undefined);
      assert.equal(await expireAuthorizations(t.db.store, t.clock, one), 0);
      assert.equal((await t.call('GET', `/v1/payments/${held.id}`)).json().status, 'requires_capture');

      t.clock.advance(2 * SECOND);
      const counts = await Promise.all([
        expireAuthorizations(t.db.store, t.clock, one),
        expireAuthorizations(second.store, t.clock, two),
        expireAuthorizations(t.db.store, t.clock, one),
      ]);
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        1,
      );
      const p = (await t.call('GET', `/v1/payments/${held.id}`)).json();
      assert.equal(p.status, 'canceled');
      assert.equal(p.cancellation_reason, 'expired');
      assert.equal(p.amount_capturable, 0);
      assertAmountsConsistent(p);
      const events = (await t.call('GET', '/v1/events?type=payment.canceled&limit=100')).json().data;
      assert.equal(events.filter((e: { data: { object: { id: string } } }) => e.data.object.id === held.id).length, 1);
      const voids = await t.db.database.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM processor_operations WHERE payment_id = ? AND kind = 'cancel' AND state = 'succeeded'`,
        [held.id],
      );
      assert.equal(Number(voids?.n), 1);
      assert.equal((await t.call('GET', `/v1/payments/${captured.id}`)).json().status, 'succeeded');

      const late = await t.call('POST', `/v1/payments/${held.id}/capture`, { body: {} });
      assert.equal(late.statusCode, 400);
      assert.equal(late.json().error.code, 'payment_unexpected_state');
    });
  });
}
