import { setBounded } from '../../lib/bounded-map.js';
import { type BucketLimit, type BucketState, type Decision, decide, takeToken } from './token-bucket.js';

/** Buckets in this process: exact for one instance, per instance when there are several. */
export class MemoryRateLimiter {
  private readonly buckets = new Map<string, BucketState>();

  constructor(private readonly maxBuckets = 100_000) {}

  take(key: string, limit: BucketLimit, nowMs: number): Decision {
    const { state, allowed } = takeToken(this.buckets.get(key), limit, nowMs);
    // Re-inserting keeps the Map in least-recently-used order, so the oldest bucket goes first.
    this.buckets.delete(key);
    setBounded(this.buckets, key, state, this.maxBuckets);
    return decide(allowed, state.tokens, limit);
  }
}
