import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RELEASES } from '../../../src/domain/versions/releases.js';
import { downgradeResponse, isLatest, resolveVersion, upgradeParams } from '../../../src/domain/versions/resolve.js';

const NOW = Date.UTC(2026, 10, 21);
const payment = { object: 'payment', id: 'pay_1', status: 'requires_action', amount_capturable: 5, amount_received: 0, customer: 'cus_1' };

describe('resolveVersion', () => {
  test('exact releases resolve to themselves, other dates to the newest earlier release', () => {
    for (const r of RELEASES) assert.equal(resolveVersion(r.id, NOW), r.id);
    assert.equal(resolveVersion('2026-08-31', NOW), '2026-03-01');
    assert.equal(resolveVersion('2026-11-21', NOW), '2026-09-01');
  });
  test('rejects malformed, impossible, early and future dates', () => {
    for (const v of ['2026-1-01', '2026-02-29', '2025-05-31', '2026-11-22', 'x']) {
      assert.throws(() => resolveVersion(v, NOW), { code: 'api_version_invalid', param: 'Service-Version' }, v);
    }
  });
});

describe('version-change modules', () => {
  test('2026-09-01 removes the amount breakdown for older versions', () => {
    const out = downgradeResponse(payment, '2026-03-01') as Record<string, unknown>;
    assert.equal('amount_capturable' in out, false);
    assert.equal(out.status, 'requires_action');
  });
  test('2026-03-01 renames statuses back for the first release, in lists too', () => {
    const list = { object: 'list', data: [payment, { ...payment, status: 'requires_payment_method' }] };
    const out = downgradeResponse(list, '2025-06-01') as { data: { status: string }[] };
    assert.deepEqual(
      out.data.map((p) => p.status),
      ['requires_source_action', 'requires_source'],
    );
    assert.equal(payment.status, 'requires_action', 'the input is not mutated');
  });
  test('objects of other types pass through', () => {
    const customer = { object: 'customer', id: 'cus_1', status: 'requires_source' };
    assert.deepEqual(downgradeResponse(customer, '2025-06-01'), customer);
  });
  test('request parameters are upgraded from the old names', () => {
    assert.deepEqual(upgradeParams('GET /v1/payments', { status: 'requires_source' }, '2025-06-01'), { status: 'requires_payment_method' });
    assert.deepEqual(upgradeParams('GET /v1/payments', { status: 'requires_source' }, '2026-09-01'), { status: 'requires_source' });
  });
  test('only the newest release needs no change', () => {
    assert.equal(isLatest(RELEASES.at(-1)!.id), true);
    assert.equal(isLatest(RELEASES[0]!.id), false);
  });
});
