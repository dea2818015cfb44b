import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyCache } from '../../../src/domain/api-keys/key-cache.js';

test('key cache: a hash that matched no key is remembered for the TTL only, within a bounded size', () => {
  const cache = new KeyCache(2000, 2);
  assert.equal(cache.isUnknown('h1', 0), false);
  cache.setUnknown('h1', 0);
  assert.equal(cache.isUnknown('h1', 1999), true, 'within the TTL: no read');
  assert.equal(cache.isUnknown('h1', 2000), false, 'after the TTL the database is asked again');
  cache.setUnknown('a', 0);
  cache.setUnknown('b', 0);
  cache.setUnknown('c', 0);
  assert.equal(cache.isUnknown('a', 1), false, 'the oldest entry made room');
  assert.equal(cache.isUnknown('c', 1), true);
});

test('key cache: with a TTL of 0 nothing is cached, found or not', () => {
  const cache = new KeyCache(0);
  cache.setUnknown('h', 0);
  assert.equal(cache.isUnknown('h', 0), false);
});
