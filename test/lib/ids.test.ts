import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasIdShape, ID_PREFIXES, idLowerBoundForTime, newId } from '../../src/lib/ids.js';

describe('ids', () => {
  test('prefixed, URL-safe, fixed length', () => {
    for (const prefix of Object.values(ID_PREFIXES)) {
      const id = newId(prefix);
      assert.match(id, new RegExp(`^${prefix}_[0-9a-z]{33}$`));
      assert.ok(hasIdShape(prefix, id));
      assert.equal(encodeURIComponent(id), id);
    }
  });
  test('sort in creation order, within one millisecond too', () => {
    const ms = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 2000 }, (_, i) => newId('pay', ms + Math.floor(i / 500)));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
  });
  test('carry 100 bits of fresh randomness (the last 20 characters differ)', () => {
    const ms = Date.UTC(2026, 0, 1);
    const tails = new Set(Array.from({ length: 1000 }, () => newId('cus', ms).slice(-20)));
    assert.equal(tails.size, 1000);
  });
  test('time lower bounds bracket ids by creation time', () => {
    const t = Date.UTC(2026, 5, 1);
    const before = newId('pay', t - 1);
    const at = newId('pay', t);
    const bound = idLowerBoundForTime('pay', t);
    assert.ok(before < bound && bound <= at);
  });
});
