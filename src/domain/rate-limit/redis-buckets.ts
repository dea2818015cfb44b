import { Redis } from 'ioredis';
import { type BucketLimit, type Decision, decide } from './token-bucket.js';

/**
 * The token bucket of token-bucket.ts as one Lua script, so that a check is atomic across
 * instances. It reads the time from Redis (`TIME`), never from the instance, so instances with
 * skewed clocks share one bucket correctly. Tokens are kept as a string: Lua numbers returned to
 * Redis lose their fraction. The key expires once the bucket would be full again.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = burst
local updated = nowMs
if state[1] then
  local last = tonumber(state[2])
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, nowMs - last) * rate / 1000)
  updated = math.max(nowMs, last)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(updated))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return { allowed, tostring(tokens) }
`;

interface WithTakeToken {
  takeToken(key: string, perSecond: number, burst: number): Promise<[number, string]>;
}

/** Buckets shared by every instance through one Redis (REDIS_URL). */
export class RedisBuckets {
  readonly client: Redis;

  constructor(
    url: string,
    private readonly prefix = 'payments:ratelimit:',
  ) {
    this.client = new Redis(url, {
      // Fail at once while disconnected (the caller falls back to per-instance buckets) instead
      // of queueing requests behind a Redis that may not come back soon.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 250,
      connectTimeout: 5000,
      retryStrategy: (times) => Math.min(100 * times, 1000),
    });
    // ioredis runs EVALSHA and falls back to EVAL when the server answers NOSCRIPT (after a restart).
    this.client.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  async take(key: string, limit: BucketLimit): Promise<Decision> {
    const [allowed, tokens] = await (this.client as unknown as WithTakeToken).takeToken(this.prefix + key, limit.perSecond, limit.burst);
    return decide(allowed === 1, Number(tokens), limit);
  }

  close(): void {
    this.client.disconnect();
  }
}
