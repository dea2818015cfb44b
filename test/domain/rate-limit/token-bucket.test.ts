import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryRateLimiter } from '../../../src/domain/rate-limit/memory-limiter.js';
import { decide, limitFor, takeToken } from '../../../src/domain/rate-limit/token-bucket.js';

const LIMIT = { perSecond: 100, burst: 200 };

describe('token bucket', () => {
  test('a new bucket is full: burst requests pass at once, the next is refused', () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 200; i++) assert.equal(limiter.take('a', LIMIT, 0).allowed, true, `request ${i}`);
    const refused = limiter.take('a', LIMIT, 0);
    assert.deepEqual(refused, { allowed: false, limit: 200, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
  });

  test('refills at perSecond, never beyond the burst', () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 200; i++) limiter.take('a', LIMIT, 0);
    assert.equal(limiter.take('a', LIMIT, 5).allowed, false, 'half a token after 5 ms');
    assert.equal(limiter.take('a', LIMIT, 10).allowed, true, 'one token after 10 ms');
    // 1000 s later the bucket holds 200, not 100,000.
    const d = limiter.take('a', LIMIT, 1_000_000);
    assert.equal(d.remaining, 199);
  });

  test('a clock that steps back refills nothing and takes nothing away', () => {
    const { state } = takeToken({ tokens: 5, updatedMs: 1000 }, LIMIT, 500);
    assert.deepEqual(state, { tokens: 4, updatedMs: 1000 });
  });

  test('buckets are separate per key', () => {
    const limiter = new MemoryRateLimiter();
    const tiny = { perSecond: 1, burst: 1 };
    assert.equal(limiter.take('acct_a:test', tiny, 0).allowed, true);
    assert.equal(limiter.take('acct_a:test', tiny, 0).allowed, false);
    assert.equal(limiter.take('acct_a:live', tiny, 0).allowed, true);
    assert.equal(limiter.take('acct_b:test', tiny, 0).allowed, true);
  });

  test('Retry-After is the wait for one token, rounded up to whole seconds', () => {
    assert.equal(decide(false, 0, { perSecond: 1, burst: 10 }).retryAfterSeconds, 1);
    assert.equal(decide(false, 0, { perSecond: 0.25, burst: 10 }).retryAfterSeconds, 4);
    assert.equal(decide(false, 0.9, { perSecond: 1000, burst: 10 }).retryAfterSeconds, 1);
  });

  test('the account’s own limit wins over the default, field by field', () => {
    assert.deepEqual(limitFor({ rateLimitPerSecond: 5, rateLimitBurst: null }, LIMIT), { perSecond: 5, burst: 200 });
    assert.deepEqual(limitFor({}, LIMIT), LIMIT);
  });
});
