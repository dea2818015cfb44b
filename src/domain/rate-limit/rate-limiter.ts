import { MemoryRateLimiter } from './memory-limiter.js';
import { RedisBuckets } from './redis-buckets.js';
import type { BucketLimit, Decision } from './token-bucket.js';

export interface RateLimiterLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const DEGRADED_STATUS = 'degraded: redis unreachable, per-instance limits';

/** After a failed Redis call on a connection that still looks up, skip Redis this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * Rate limits per account and mode. With Redis, one bucket is shared by every instance; when
 * Redis is unreachable each instance falls back to its own buckets (so the account may get up to
 * N times its limit with N instances) and goes back to Redis as soon as it answers again. Each
 * transition is logged once.
 */
export class RateLimiter {
  private readonly memory = new MemoryRateLimiter();
  private degraded = false;
  private skipRedisUntil = 0;
  private closing = false;

  constructor(
    private readonly log: RateLimiterLog,
    private readonly shared: RedisBuckets | null = null,
  ) {
    shared?.client.on('ready', () => this.recovered());
    shared?.client.on('close', () => this.fellBack('connection closed'));
    // Without a listener ioredis reports every failed reconnection as an unhandled error.
    shared?.client.on('error', (err: Error) => this.fellBack(err.message));
  }

  static create(log: RateLimiterLog, redisUrl: string | undefined): RateLimiter {
    return new RateLimiter(log, redisUrl ? new RedisBuckets(redisUrl) : null);
  }

  /** A decision, synchronous unless it asks Redis (so that requests without Redis wait for nothing). */
  take(key: string, limit: BucketLimit, nowMs: number): Decision | Promise<Decision> {
    if (this.shared?.ready && nowMs >= this.skipRedisUntil) return this.takeShared(this.shared, key, limit, nowMs);
    if (this.shared && !this.shared.ready) this.fellBack('not connected');
    return this.memory.take(key, limit, nowMs);
  }

  private async takeShared(shared: RedisBuckets, key: string, limit: BucketLimit, nowMs: number): Promise<Decision> {
    try {
      return await shared.take(key, limit);
    } catch (err) {
      this.skipRedisUntil = nowMs + RETRY_AFTER_FAILURE_MS;
      this.fellBack((err as Error).message);
      return this.memory.take(key, limit, nowMs);
    }
  }

  /** Waits (at most `timeoutMs`) for Redis at start, so the first requests already share buckets. */
  async connected(timeoutMs: number): Promise<boolean> {
    const shared = this.shared;
    if (!shared || shared.ready) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        shared.client.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => {
        this.fellBack('not connected at start');
        done(false);
      }, timeoutMs);
      shared.client.once('ready', onReady);
    });
  }

  /** For /healthz. */
  status(): string {
    if (!this.shared) return 'ok: per-instance limits (no REDIS_URL)';
    return this.shared.ready && !this.degraded ? 'ok' : DEGRADED_STATUS;
  }

  close(): void {
    this.closing = true;
    this.shared?.close();
  }

  private fellBack(reason: string): void {
    if (this.degraded || this.closing) return;
    this.degraded = true;
    this.log.warn({ reason }, 'rate limiter: redis unreachable, falling back to per-instance limits');
  }

  private recovered(): void {
    this.skipRedisUntil = 0;
    if (!this.degraded) return;
    this.degraded = false;
    this.log.info({}, 'rate limiter: redis reachable again, limits shared across instances');
  }
}
